/**
 * The label's review desk at scale: 100,000 submissions from 10,000 artists. Measures the admin
 * list's first page, a deep page, a status-filtered page, two searches and the stats, each ~200
 * times through the real routes (app.inject: routing, guard, session lookup, queries, JSON), on
 * the embedded PGlite and, when reachable, on a scratch database of the local PostgreSQL.
 * Target: p99 under 50 ms for each (issue "Label review desk").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { sessions, users } from '../src/server/platform/db/schema';
import { newToken } from '../src/server/platform/ids';
import { hashSessionId, SESSION_COOKIE, SESSION_TTL_MS } from '../src/server/platform/sessions';

const SUBMISSIONS = Number(process.env.BENCH_ADMIN_SUBMISSIONS ?? 100_000);
const ARTISTS = Number(process.env.BENCH_ADMIN_ARTISTS ?? 10_000);
const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 200);
const WARMUP = 20;
const TARGET_P99_MS = 50;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const QUERIES: [string, string][] = [
  ['first page', '/api/admin/submissions'],
  ['page 1000 (offset 49,950)', '/api/admin/submissions?page=1000'],
  ['status=under_review, page 2', '/api/admin/submissions?status=under_review&page=2'],
  ['search title word "midnight"', '/api/admin/submissions?q=midnight'],
  ['search email "artist4242@"', '/api/admin/submissions?q=artist4242%40'],
  ['search artist + status', '/api/admin/submissions?q=nova%20shade&status=pending'],
  ['stats (pageSize=1)', '/api/admin/submissions?pageSize=1'],
];

const WORDS_A = ['Midnight', 'Neon', 'Hollow', 'Crimson', 'Silent', 'Electric', 'Velvet', 'Broken', 'Golden', 'Frozen', 'Wild', 'Dark', 'Lunar', 'Burning', 'Glass', 'Static', 'Paper', 'Ghost', 'Iron', 'Violet'];
const WORDS_B = ['Drive', 'Echoes', 'Heart', 'Rain', 'Waves', 'Dreams', 'Shadows', 'Fire', 'Lights', 'Signal', 'Garden', 'Ritual', 'Tides', 'Machine', 'Skyline'];
const FIRST = ['Nora', 'Kit', 'Vex', 'Luna', 'Echo', 'Raven', 'Nova', 'Ash'];
const LAST = ['Moss', 'Vale', 'Shade', 'Drift', 'Hollow', 'Static', 'Bloom'];
const STATUSES = ['pending', 'under_review', 'approved', 'in_creation', 'completed', 'rejected', 'archived', 'payment_pending'];
const TIERS = ['free', 'basic', 'premium', 'professional'];

const arr = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;
const artistNameOf = (n: string) => `(${arr(FIRST)})[1 + ${n} % ${FIRST.length}] || ' ' || (${arr(LAST)})[1 + ${n} % ${LAST.length}]`;

/** Bulk seed in a few statements: generate_series does in seconds what row inserts do in minutes. */
export async function seed(database: Database): Promise<string> {
  const { db } = database;
  await db.execute(
    sql.raw(`insert into users (id, email, first_name, last_name, artist_name, role, instagram_handle)
      select 'bench-u' || g, 'artist' || g || '@example.com', 'First' || g, 'Last' || g, ${artistNameOf('g')}, 'user', '@artist' || g
      from generate_series(1, ${ARTISTS}) g`),
  );
  await db.execute(
    sql.raw(`insert into submissions (id, user_id, submission_method, music_url, release_status, artist_name, song_title,
        has_lyrics, ai_usage, video_style, pricing_tier, terms_accepted, status, amount, description, genre, mood,
        style_reference_urls, created_at, updated_at)
      select 'bench-s' || g, 'bench-u' || u, 'link', 'https://example.com/t/' || g, 'released', ${artistNameOf('u')},
        (${arr(WORDS_A)})[1 + (g * 13) % ${WORDS_A.length}] || ' ' || (${arr(WORDS_B)})[1 + (g * 17) % ${WORDS_B.length}],
        false, false, 'non-custom', (${arr(TIERS)})[1 + g % 4], true, (${arr(STATUSES)})[1 + (g / 3) % 8],
        '0.00', 'A track about ' || md5(g::text) || ', with a long description the list cuts to two lines.',
        'Darkwave', 'Moody', '{}', now() - g * interval '37 seconds', now() - g * interval '37 seconds'
      from (select g, 1 + g % ${ARTISTS} as u from generate_series(1, ${SUBMISSIONS}) g) s`),
  );
  const adminId = 'bench-admin';
  await db.insert(users).values({ id: adminId, email: 'bench-admin@example.com', firstName: 'Bench', lastName: 'Admin', role: 'admin' });
  const sid = newToken();
  await db.insert(sessions).values({
    sid: hashSessionId(sid),
    userId: adminId,
    sess: { userId: adminId, via: 'password', createdAt: new Date().toISOString() },
    expire: new Date(Date.now() + SESSION_TTL_MS),
  });
  await db.execute(sql.raw('vacuum analyze'));
  return sid;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(app: FastifyInstance, cookie: string, url: string) {
  const times: number[] = [];
  let total = -1;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    const ms = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    if (i === 0) total = (res.json() as { total: number }).total;
    if (i >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), total };
}

async function benchEngine(label: string, database: Database, dataDir: string): Promise<boolean> {
  const seedStart = performance.now();
  const sid = await seed(database);
  const seeded = ((performance.now() - seedStart) / 1000).toFixed(1);
  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, client: 'none', logger: false });
  await app.ready();
  const cookie = `${SESSION_COOKIE}=${app.signCookie(sid)}`;
  let ok = true;
  try {
    console.log(`\n${label}: ${SUBMISSIONS.toLocaleString('en-US')} submissions, ${ARTISTS.toLocaleString('en-US')} artists (seeded in ${seeded} s); ${RUNS} runs each`);
    console.log(`${'query'.padEnd(32)} ${'matches'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
    for (const [name, url] of QUERIES) {
      const r = await measure(app, cookie, url);
      const pass = r.p99 < TARGET_P99_MS;
      ok &&= pass;
      console.log(`${name.padEnd(32)} ${String(r.total).padStart(8)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)}  ${pass ? 'ok' : `OVER ${TARGET_P99_MS} ms`}`);
    }
  } finally {
    await app.close();
  }
  return ok;
}

async function benchPglite(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-admin-'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    await benchEngine('PGlite (embedded)', database, dataDir);
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchPostgres(): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    console.log(`\nPostgreSQL: not reachable at ${POSTGRES_URL}; skipped`);
    return;
  }
  const name = `hub_bench_admin_${process.pid}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-admin-'));
  await admin.query(`create database "${name}"`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: '' });
  try {
    await benchEngine('PostgreSQL (local server)', database, dataDir);
  } finally {
    await database.close();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function benchAdmin(): Promise<void> {
  await benchPostgres();
  await benchPglite();
}
