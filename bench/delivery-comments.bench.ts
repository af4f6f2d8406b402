/**
 * CONTRACT §17 (issue 25): the time from a comment on a delivery being posted (the POST leaving
 * the client) to its `delivery_comment` push arriving on the other side's socket; p50 and p99.
 * Two instances on one PostgreSQL: the POSTs go to A, every socket is on B, so each push crosses
 * instances through LISTEN/NOTIFY. Both directions: the team comments (→ the artist's socket) and
 * the artist comments (→ the team's socket).
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
import { deliveries, sessions, submissions, users } from '../src/server/platform/db/schema';
import { newId, newToken } from '../src/server/platform/ids';
import { RATE_LIMITS } from '../src/server/platform/rate-limits';
import { hashSessionId, SESSION_COOKIE, SESSION_TTL_MS } from '../src/server/platform/sessions';
import { createScratchDatabase, PG_URL, redact } from './support/scratch-database';
import { pct, fmt, withTimeout } from './support/measure';

const ARTISTS = 50;
const COMMENTS = 400;
const CONCURRENCY = 4;
/** Comments posted one at a time before the measured ones. */
const WARM_UP = 20;
/** The team's half of the comments (the warm-up's too) spread over enough team accounts to stay under each one's comment limit. */
const TEAM = Math.ceil((COMMENTS + WARM_UP) / 2 / RATE_LIMITS.comments.max) + 1;
const ORIGIN = 'http://localhost:5000';

export default async function (): Promise<void> {
  const scratch = await createScratchDatabase('delivery_comments');
  if (!scratch) {
    console.log(`PostgreSQL at ${redact(PG_URL)} unavailable: skipped.`);
    return;
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-delivery-comments-'));
  try {
    const a = await openDatabase({ databaseUrl: scratch.url, pgliteDir: '' });
    const b = await openDatabase({ databaseUrl: scratch.url, pgliteDir: '', migrate: false });
    try {
      await scenario(tmp, a, b);
    } finally {
      await a.close();
      await b.close();
    }
  } finally {
    await scratch.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function scenario(dataDir: string, postDb: Database, socketsDb: Database): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
  });
  const postApp = await startApp(config, postDb);
  const socketApp = await startApp(config, socketsDb);
  const clients: WebSocket[] = [];
  try {
    const team = await insertUsers(postDb, TEAM, 'admin');
    const artists = await insertUsers(postDb, ARTISTS, 'user');
    const teamCookies = await Promise.all(team.map((id) => newSession(postApp, postDb, id)));
    const adminCookie = teamCookies[0]!;
    const artistCookies = await Promise.all(artists.map((id) => newSession(postApp, postDb, id)));
    const targets: { submissionId: string; deliveryId: string }[] = [];
    for (const userId of artists) {
      const submissionId = newId();
      const deliveryId = newId();
      await postDb.db.insert(submissions).values({
        id: submissionId,
        userId,
        artistName: 'Bench',
        songTitle: 'Bench cut',
        status: 'in_creation',
        submissionMethod: 'link',
        musicUrl: 'https://example.com/x',
        releaseStatus: 'unreleased',
        videoStyle: 'non-custom',
        pricingTier: 'free',
        hasLyrics: false,
        aiUsage: false,
      } as typeof submissions.$inferInsert);
      await postDb.db.insert(deliveries).values({ id: deliveryId, submissionId, version: 1 });
      targets.push({ submissionId, deliveryId });
    }

    const arrivals = new Map<string, (at: number) => void>();
    const wsUrl = `ws://127.0.0.1:${port(socketApp)}/ws`;
    clients.push(await openClient(wsUrl, adminCookie, 'admin', arrivals));
    for (const cookie of artistCookies) clients.push(await openClient(wsUrl, cookie, 'user', arrivals));

    const postBase = `http://127.0.0.1:${port(postApp)}`;
    const latencies: number[] = [];
    const responses: number[] = [];
    /** From the POST's answer to the push's arrival: the cross-instance hop alone (negative when the push came first). */
    const afterAnswer: number[] = [];
    let next = 0;
    let end = 0;
    const worker = async () => {
      while (next < end) {
        const n = next++;
        const i = (n * 7919) % artists.length;
        const target = targets[i]!;
        // Alternately the team and the artist write; the push is awaited on the other side (the
        // first team account's socket hears every artist's comment).
        const cookie = n % 2 === 0 ? teamCookies[(n / 2) % TEAM]! : artistCookies[i]!;
        const text = `bench ${n} ${newToken(6)}`;
        const arrived = new Promise<number>((resolve) => arrivals.set(text, resolve));
        const t0 = performance.now();
        const res = await fetch(`${postBase}/api/submissions/${target.submissionId}/deliveries/${target.deliveryId}/comments`, {
          method: 'POST',
          headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ text, atSeconds: n % 90 }),
        });
        const answered = performance.now();
        responses.push(answered - t0);
        if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
        const at = await withTimeout(arrived, 5000, `comment ${n} never arrived`);
        latencies.push(at - t0);
        afterAnswer.push(at - answered);
        arrivals.delete(text);
      }
    };
    [next, end] = [COMMENTS, COMMENTS + WARM_UP];
    await worker();
    latencies.length = 0;
    responses.length = 0;
    afterAnswer.length = 0;
    [next, end] = [0, COMMENTS];
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsed = performance.now() - started;

    console.log('\ntwo instances, one PostgreSQL (POST to A, sockets on B)');
    console.log(`  ${latencies.length} comments, ${CONCURRENCY} in flight, ${Math.round((latencies.length / elapsed) * 1000)} comments/s`);
    console.log(`  POST → other side's socket: p50 ${fmt(pct(latencies, 50))} ms, p99 ${fmt(pct(latencies, 99))} ms, max ${fmt(Math.max(...latencies))} ms`);
    console.log(`  POST answer → socket:       p50 ${fmt(pct(afterAnswer, 50))} ms, p99 ${fmt(pct(afterAnswer, 99))} ms`);
    console.log(`  POST response time:         p50 ${fmt(pct(responses, 50))} ms, p99 ${fmt(pct(responses, 99))} ms`);
  } finally {
    for (const client of clients) client.terminate();
    await socketApp.close();
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
  const rows = Array.from({ length: count }, (_, j) => ({
    id: newId(),
    email: `bench-${role}-${newToken(6).toLowerCase()}-${j}@example.com`,
    firstName: 'Bench',
    lastName: role === 'admin' ? 'Admin' : `Artist ${j}`,
    role,
  }));
  await database.db.insert(users).values(rows);
  return rows.map((r) => r.id);
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

function openClient(url: string, cookie: string, role: 'user' | 'admin', arrivals: Map<string, (at: number) => void>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { cookie, origin: ORIGIN } });
    ws.on('message', (data) => {
      const at = performance.now();
      const event = JSON.parse(String(data)) as { type: string; comment?: { text: string; author: { role: string } } };
      if (event.type === 'ready') return resolve(ws);
      if (event.type !== 'delivery_comment' || !event.comment) return;
      // Only the other side's arrival counts (the author's side also gets it, for its other tabs).
      if (event.comment.author.role === role) return;
      arrivals.get(event.comment.text)?.(at);
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

