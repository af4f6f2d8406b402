/**
 * The 14-day check (issue 14), on the embedded database and on PostgreSQL: the time from a
 * publication's `checkAt` to the moment its scheduled job recorded the reading (`checkedAt`),
 * through the real pg-boss queue, with the YouTube Data API answered by the local stub.
 *  - scheduled: 20 publications whose checkAt falls 2–6 s in the future (the job waits with startAfter);
 *  - already due: 20 publications recorded after their checkAt (a server that was down); the
 *    figure is from the moment the publication was recorded.
 * p50, p95 and max of each. PostgreSQL is a scratch database on BENCH_DATABASE_URL (else
 * postgres://postgres@127.0.0.1:5432/test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { recordPublication } from '../src/server/features/production/publication';
import { startYouTubeStub } from '../src/server/test/youtube-stub';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { publications, submissions, users } from '../src/server/platform/db/schema';
import { newId, newToken } from '../src/server/platform/ids';

const COUNT = 20;
const DAY = 24 * 60 * 60 * 1000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export default async function (): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-production-'));
  try {
    const embedded = await openDatabase({ pgliteDir: path.join(tmp, 'db') });
    try {
      await scenario('embedded database (PGlite)', tmp, embedded);
    } finally {
      await embedded.close();
    }
    const name = `bench_production_${newToken(6).toLowerCase().replace(/[^a-z0-9]/g, '')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    try {
      await admin.connect();
    } catch {
      console.log('PostgreSQL unavailable: its part is skipped.');
      return;
    }
    await admin.query(`create database "${name}"`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    try {
      const server = await openDatabase({ databaseUrl: url.toString(), pgliteDir: '' });
      try {
        await scenario('PostgreSQL', tmp, server);
      } finally {
        await server.close();
      }
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `p50 ${(pct(s, 50) / 1000).toFixed(2)} s, p95 ${(pct(s, 95) / 1000).toFixed(2)} s, max ${(s.at(-1)! / 1000).toFixed(2)} s`;
};

async function scenario(label: string, tmp: string, database: Database): Promise<void> {
  const youtube = await startYouTubeStub({ subscribers: 31_000 });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(tmp, label.replace(/\W+/g, '-')),
    PUBLIC_URL: 'http://localhost:5000',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    YOUTUBE_API_KEY: youtube.apiKey,
    YOUTUBE_CHANNEL_ID: youtube.channelId,
    YOUTUBE_API_URL: youtube.url,
  });
  const app = await buildApp({ config, database, client: 'none', logger: false });
  await app.ready();
  try {
    const { db } = database;
    const artistId = newId();
    const adminId = newId();
    await db.insert(users).values([
      { id: artistId, email: `bench-artist-${newToken(4)}@example.com`.toLowerCase(), role: 'user' },
      { id: adminId, email: `bench-admin-${newToken(4)}@example.com`.toLowerCase(), role: 'admin' },
    ]);
    const deps = { db, jobs: app.jobs, outbox: app.outbox, youtube: config.production.youtube, bonusPerTrackUsd: '0.00', log: app.log, screen: config.production.screen, retryDelayMs: config.production.publishing.retryDelayMs };

    async function run(kind: 'scheduled' | 'already due'): Promise<number[]> {
      const ids: string[] = [];
      const recordedAt = new Map<string, number>();
      for (let i = 0; i < COUNT; i++) {
        const id = newId();
        ids.push(id);
        await db.insert(submissions).values({
          id, userId: artistId, submissionMethod: 'link', musicUrl: 'https://example.com/t', releaseStatus: 'unreleased',
          artistName: 'Bench', songTitle: `Bench ${i}`, hasLyrics: false, aiUsage: false, videoStyle: 'non-custom',
          pricingTier: 'free', termsAccepted: true, status: 'approved',
        });
        const videoId = `bench${kind === 'scheduled' ? 's' : 'd'}${String(i).padStart(3, '0')}`;
        youtube.views.set(videoId, 10_000 + i);
        const checkAt = kind === 'scheduled' ? Date.now() + 2000 + (i * 4000) / COUNT : Date.now() - 60 * 60 * 1000;
        await recordPublication(deps, adminId, id, { videoUrl: `https://youtu.be/${videoId}`, publishedAt: new Date(checkAt - 14 * DAY).toISOString() }, new Date());
        recordedAt.set(id, Date.now());
      }
      const deadline = Date.now() + 120_000;
      for (;;) {
        const rows = await db.select().from(publications).where(inArray(publications.submissionId, ids));
        if (rows.every((r) => r.checkedAt)) {
          return rows.map((r) =>
            kind === 'scheduled' ? r.checkedAt!.getTime() - r.checkAt.getTime() : r.checkedAt!.getTime() - recordedAt.get(r.submissionId)!,
          );
        }
        if (Date.now() > deadline) throw new Error(`${kind}: not every check ran within 120 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    const scheduled = await run('scheduled');
    console.log(`${label}: checkAt → reading recorded, ${COUNT} scheduled checks: ${summary(scheduled)}`);
    const due = await run('already due');
    console.log(`${label}: publication recorded → reading, ${COUNT} checks already due: ${summary(due)}`);
  } finally {
    await app.close();
    await youtube.close();
  }
}
