/**
 * A child process for bench/load.bench.ts: the product (buildApp) on a fresh database — the
 * embedded PGlite in a scratch DATA_DIR, or the PostgreSQL named by DATABASE_URL — with
 * LOAD_ARTISTS artist accounts (one shared password), each with a session of an earlier visit, and
 * one label-team account to write to.
 * It tells its parent {origin, database, password, artists, teamUserId} on the IPC channel and
 * serves until killed (its scratch DATA_DIR is the caller's to remove). It logs as the product
 * does in service (LOG_LEVEL, default info) to its stdout.
 *
 * LOAD_JOIN=1: a second instance on the same DATABASE_URL (bench/capacity.bench.ts): it seeds
 * nothing and tells only {origin, database}; the first instance's sessions serve on it too.
 *
 * TRUST_PROXY=1: the load generator names each simulated artist's own address in
 * X-Forwarded-For, as a proxy in front of the product would, so the per-address limits count
 * each artist, not the one loopback address they all share here.
 */
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { hashPassword } from '../../src/server/features/auth/password';
import { openDatabase } from '../../src/server/platform/db/client';
import { sessions, users } from '../../src/server/platform/db/schema';
import { newId, newToken } from '../../src/server/platform/ids';
import { hashSessionId, SESSION_COOKIE, SESSION_TTL_MS } from '../../src/server/platform/sessions';

const artistCount = Number(process.env.LOAD_ARTISTS ?? 200);
const PASSWORD = 'load-bench-password';

const dataDir = process.env.LOAD_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'hub-bench-load-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: String(port),
  PUBLIC_URL: origin,
  SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  TRUST_PROXY: '1',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(dataDir, 'db') });
const app = await buildApp({ config, database, client: 'none' });

if (process.env.LOAD_JOIN === '1') {
  await app.listen({ port, host: '127.0.0.1' });
  stopOnSigterm();
  process.send!({ origin, database: database.kind });
} else {
  await seedAndServe();
}

async function seedAndServe(): Promise<void> {
  // One hash for every artist: seeding 200 accounts must not cost 200 scrypt runs.
  const passwordHash = await hashPassword(PASSWORD);
  const teamUserId = newId();
  await database.db.insert(users).values({
    id: teamUserId,
    email: `label-team-${teamUserId}@example.com`,
    firstName: 'Label',
    lastName: 'Team',
    role: 'admin',
    password: passwordHash,
  });
  const artists = Array.from({ length: artistCount }, (_, i) => ({
    id: newId(),
    email: `load-artist-${i}-${Date.now()}@example.com`,
    firstName: 'Load',
    lastName: `Artist ${i}`,
    artistName: `The Load ${i}`,
    password: passwordHash,
  }));
  for (let i = 0; i < artists.length; i += 100) await database.db.insert(users).values(artists.slice(i, i + 100));
  // Each artist arrives signed in from an earlier visit (sessions last 30 days); signing in again is part of the mix.
  const sids = artists.map(() => newToken());
  const rows = artists.map((a, i) => ({
    sid: hashSessionId(sids[i]!),
    userId: a.id,
    sess: { userId: a.id, via: 'password' as const, createdAt: new Date().toISOString() },
    expire: new Date(Date.now() + SESSION_TTL_MS),
  }));
  // In batches: the capacity steps seed thousands, past one statement's parameters.
  for (let i = 0; i < rows.length; i += 1000) await database.db.insert(sessions).values(rows.slice(i, i + 1000));
  await app.listen({ port, host: '127.0.0.1' });
  stopOnSigterm();
  process.send!({
    origin,
    database: database.kind,
    password: PASSWORD,
    artists: artists.map((a, i) => ({ email: a.email, cookie: `${SESSION_COOKIE}=${app.signCookie(sids[i]!)}` })),
    teamUserId,
  });
}

/** SIGTERM: stop cleanly (node's --cpu-prof writes its profile on a clean exit). */
function stopOnSigterm(): void {
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as net.AddressInfo;
      server.close(() => resolve(free));
    });
  });
}
