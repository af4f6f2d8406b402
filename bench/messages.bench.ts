/**
 * Live message delivery: with 1,000 sockets open, the time from POST /api/messages (the request
 * leaving the client) to the message arriving on the recipient's socket; p50 and p99.
 *
 *  1. one instance on the embedded database (PGlite, the default deployment);
 *  2. one instance on PostgreSQL, and two instances on one PostgreSQL with the sockets on one and the
 *     POSTs on the other (LISTEN/NOTIFY fan-out). PostgreSQL is the local server's scratch database
 *     (BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test), created and dropped here.
 *
 * Everything runs on loopback in this process, and stops by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { buildApp } from '../src/server/app';
import { loadConfig, type Config } from '../src/server/config';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { sessions, users } from '../src/server/platform/db/schema';
import { newId, newToken } from '../src/server/platform/ids';
import { hashSessionId, SESSION_COOKIE, SESSION_TTL_MS } from '../src/server/platform/sessions';
import { createScratchDatabase, PG_URL, redact } from './support/scratch-database';
import { pct, fmt, withTimeout } from './support/measure';

const SOCKETS = 1000;
const MESSAGES = 400;
/** Team members sending; POST /api/messages is rate limited per user (RATE_LIMITS.messages: 300 a minute). */
const SENDERS = 8;
/** Messages in flight at once: a busy label team, not a single person. */
const CONCURRENCY = 4;
const ORIGIN = 'http://localhost:5000';

export default async function (): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-messages-'));
  try {
    const embedded = await openDatabase({ pgliteDir: path.join(tmp, 'db') });
    try {
      await scenario('one instance, embedded database (PGlite)', tmp, embedded, null);
    } finally {
      await embedded.close();
    }

    const scratch = await createScratchDatabase('messages');
    if (!scratch) {
      console.log(`PostgreSQL at ${redact(PG_URL)} unavailable: the PostgreSQL and cross-instance parts are skipped.`);
      return;
    }
    try {
      const a = await openDatabase({ databaseUrl: scratch.url, pgliteDir: '' });
      const b = await openDatabase({ databaseUrl: scratch.url, pgliteDir: '', migrate: false });
      try {
        await scenario('one instance, PostgreSQL', tmp, a, null);
        await scenario('two instances, one PostgreSQL (sockets on B, POST to A)', tmp, a, b);
      } finally {
        await a.close();
        await b.close();
      }
    } finally {
      await scratch.drop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `socketsDb` null: sockets and POSTs on the same instance. */
async function scenario(title: string, dataDir: string, postDb: Database, socketsDb: Database | null): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
  });
  const postApp = await startApp(config, postDb);
  const socketApp = socketsDb ? await startApp(config, socketsDb) : postApp;
  const clients: WebSocket[] = [];
  try {
    const admins = await insertUsers(postDb, SENDERS, 'admin');
    const artists = await insertUsers(postDb, SOCKETS, 'user');
    const adminCookies = await Promise.all(admins.map((id) => newSession(postApp, postDb, id)));
    const artistCookies = await Promise.all(artists.map((id) => newSession(postApp, postDb, id)));

    const arrivals = new Map<string, (at: number) => void>();
    const wsUrl = `ws://127.0.0.1:${port(socketApp)}/ws`;
    const opening = performance.now();
    for (let i = 0; i < artists.length; i += 50) {
      const batch = artists.slice(i, i + 50).map((_, j) => openClient(wsUrl, artistCookies[i + j]!, arrivals));
      clients.push(...(await Promise.all(batch)));
    }
    const openedIn = performance.now() - opening;

    const postUrl = `http://127.0.0.1:${port(postApp)}/api/messages`;
    const latencies: number[] = [];
    const responses: number[] = [];
    let next = 0;
    let end = 0;
    const worker = async () => {
      while (next < end) {
        const n = next++;
        const to = artists[(n * 7919) % artists.length]!;
        const content = `bench ${n} ${newToken(6)}`;
        const arrived = new Promise<number>((resolve) => arrivals.set(content, resolve));
        const t0 = performance.now();
        const res = await fetch(postUrl, {
          method: 'POST',
          headers: { cookie: adminCookies[n % SENDERS]!, origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ toUserId: to, content }),
        });
        responses.push(performance.now() - t0);
        if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
        const at = await withTimeout(arrived, 5000, `message ${n} never arrived`);
        latencies.push(at - t0);
        arrivals.delete(content);
      }
    };
    // Warm-up (JIT, connection pools), not measured.
    [next, end] = [MESSAGES, MESSAGES + 20];
    await worker();
    latencies.length = 0;
    responses.length = 0;
    [next, end] = [0, MESSAGES];
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsed = performance.now() - started;

    console.log(`\n${title}`);
    console.log(`  ${clients.length} sockets open (opened in ${Math.round(openedIn)} ms); ${socketApp.realtime.socketCount()} registered`);
    console.log(
      `  ${latencies.length} messages, ${CONCURRENCY} in flight, ${Math.round((latencies.length / elapsed) * 1000)} msg/s`,
    );
    console.log(`  POST → recipient's socket: p50 ${fmt(pct(latencies, 50))} ms, p99 ${fmt(pct(latencies, 99))} ms, max ${fmt(Math.max(...latencies))} ms`);
    console.log(`  POST response time:        p50 ${fmt(pct(responses, 50))} ms, p99 ${fmt(pct(responses, 99))} ms`);
    const target = pct(latencies, 99) < 100 ? 'met' : 'MISSED';
    console.log(`  target p99 < 100 ms: ${target}`);
  } finally {
    for (const client of clients) client.terminate();
    if (socketApp !== postApp) await socketApp.close();
    await postApp.close();
  }
}

async function startApp(config: Config, database: Database): Promise<FastifyInstance> {
  const app = await buildApp({ config, database, client: 'none', logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

const port = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

async function insertUsers(database: Database, count: number, role: 'user' | 'admin'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
      id: newId(),
      email: `bench-${role}-${newToken(6).toLowerCase()}-${i + j}@example.com`,
      firstName: 'Bench',
      lastName: role === 'admin' ? 'Admin' : `Artist ${i + j}`,
      role,
    }));
    await database.db.insert(users).values(rows);
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

async function newSession(app: FastifyInstance, database: Database, userId: string): Promise<string> {
  const sid = newToken();
  await database.db.insert(sessions).values({
    sid: hashSessionId(sid),
    userId,
    sess: { userId, via: 'password', createdAt: new Date().toISOString() },
    expire: new Date(Date.now() + SESSION_TTL_MS),
  });
  return `${SESSION_COOKIE}=${app.signCookie(sid)}`;
}

function openClient(url: string, cookie: string, arrivals: Map<string, (at: number) => void>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { cookie, origin: ORIGIN } });
    ws.on('message', (data) => {
      const at = performance.now();
      const event = JSON.parse(String(data)) as { type: string; message?: { content: string } };
      if (event.type === 'ready') return resolve(ws);
      if (event.type === 'new_message' && event.message) arrivals.get(event.message.content)?.(at);
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

