/**
 * Email (issue 12), on the embedded database and on PostgreSQL:
 *  - latency: the time from a status change (the domain function the PATCH route calls) to its
 *    email arriving at a local SMTP server (smtp-server on loopback); p50 and p99 of 60 changes
 *    made one after another;
 *  - throughput: 300 emails queued in one transaction, and how many per second the worker hands
 *    to the SMTP server until the last one has arrived;
 *  - the main thread's event-loop delay (p99 and max) while those 300 are rendered and sent: how
 *    long a request arriving meanwhile could wait behind the email work (issue 37: the rendering
 *    happens on a worker thread, decision 180).
 * PostgreSQL is a scratch database on BENCH_DATABASE_URL (else postgres://postgres@127.0.0.1:5432/test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { changeSubmissionStatus } from '../src/server/features/admin/admin-submissions';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { submissions, users } from '../src/server/platform/db/schema';
import { newId, newToken } from '../src/server/platform/ids';
import { startTestSmtpServer } from '../src/server/test/smtp-test-server';

const CHANGES = 60;
const BATCH = 300;
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export default async function (): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-email-'));
  try {
    const embedded = await openDatabase({ pgliteDir: path.join(tmp, 'db') });
    try {
      await scenario('embedded database (PGlite)', tmp, embedded);
    } finally {
      await embedded.close();
    }
    const name = `bench_email_${newToken(6).toLowerCase().replace(/[^a-z0-9]/g, '')}`;
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

async function scenario(label: string, dir: string, database: Database): Promise<void> {
  const smtp = await startTestSmtpServer();
  const config = loadConfig({
    DATA_DIR: dir,
    PUBLIC_URL: 'http://localhost:5000',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0',
    LOG_LEVEL: 'silent',
    SMTP_URL: smtp.url,
  });
  const app = await buildApp({ config, database, client: 'none', logger: false });
  await app.ready();
  const { db } = database;
  try {
    const adminId = newId();
    const artistId = newId();
    await db.insert(users).values([
      { id: adminId, email: `admin-${adminId}@example.com`, role: 'admin' },
      { id: artistId, email: `artist-${artistId}@example.com` },
    ]);
    const submissionId = newId();
    await db.insert(submissions).values({
      id: submissionId,
      userId: artistId,
      submissionMethod: 'link',
      musicUrl: 'https://example.com/t',
      releaseStatus: 'unreleased',
      artistName: 'Bench',
      songTitle: 'Bench Song',
      hasLyrics: false,
      aiUsage: false,
      videoStyle: 'non-custom',
      pricingTier: 'free',
      termsAccepted: true,
      status: 'pending',
      amount: '0.00',
    });

    const latencies: number[] = [];
    const statuses = ['under_review', 'approved'] as const;
    for (let i = 0; i < CHANGES; i++) {
      const before = smtp.received.length;
      const started = performance.now();
      await changeSubmissionStatus(db, app.outbox, adminId, submissionId, { status: statuses[i % 2]!, review: `Review ${i}` });
      await smtp.waitFor((e) => smtp.received.indexOf(e) >= before && (e.mail.text ?? '').includes(`Review ${i}`), 30_000);
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(0);
    console.log(`${label}: change → SMTP server p50 ${pct(50)} ms, p99 ${pct(99)} ms (${CHANGES} status changes)`);

    const already = smtp.received.length;
    await db.transaction(async (tx) => {
      for (let i = 0; i < BATCH; i++) {
        await app.outbox.queue(tx, {
          kind: 'status_changed',
          userId: artistId,
          data: { submissionId, songTitle: 'Bench Song', statusLabel: 'Approved', review: `Batch ${i}` },
        });
      }
    });
    const started = performance.now();
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const deadline = Date.now() + 300_000;
    while (smtp.received.length - already < BATCH && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    loopDelay.disable();
    const seconds = (performance.now() - started) / 1000;
    const sent = smtp.received.length - already;
    console.log(`${label}: worker throughput ${(sent / seconds).toFixed(1)} emails/s (${sent} emails in ${seconds.toFixed(1)} s)`);
    const ms = (ns: number) => (ns / 1e6).toFixed(0);
    console.log(`${label}: main thread's event-loop delay while sending them p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms`);
  } finally {
    await app.close();
    await smtp.close();
  }
}
