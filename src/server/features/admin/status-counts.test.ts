import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AdminSubmissionPage } from '@shared/admin';
import * as schema from '../../platform/db/schema';
import { submissions, submissionStatusCounts, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';

/**
 * The admin dashboard's counts come from counters the `submissions` triggers keep, in shards
 * (decision 186): each transaction writes to one shard, a status's count is their sum.
 */
let t: TestApp;
let admin: UserRow;
let artist: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.db);
  artist = await createArtist(t.db);
});
afterAll(() => t?.close());

async function stats() {
  const res = await t.call('GET', '/api/admin/submissions?pageSize=10', admin);
  expect(res.statusCode).toBe(200);
  return (res.json() as AdminSubmissionPage).stats;
}

describe('the status counts (decision 186)', () => {
  it('stay exact across transactions that land in different shards: inserts, status moves and deletes', async () => {
    // Each row in a transaction of its own: several shards.
    const rows = [];
    for (let i = 0; i < 20; i++) rows.push(await createSubmissionRow(t.db, artist, { songTitle: `Take ${i}` }));
    await t.db.update(submissions).set({ status: 'under_review' }).where(eq(submissions.id, rows[0]!.id));
    await t.db.update(submissions).set({ status: 'approved' }).where(eq(submissions.id, rows[1]!.id));
    await t.db.update(submissions).set({ status: 'approved' }).where(eq(submissions.id, rows[2]!.id));
    await t.db.delete(submissions).where(eq(submissions.id, rows[3]!.id));
    await createSubmissionRow(t.db, artist, { status: 'draft' });

    const shards = await t.db
      .select({ shards: sql<number>`count(distinct ${submissionStatusCounts.shard})::int` })
      .from(submissionStatusCounts)
      .where(eq(submissionStatusCounts.status, 'pending'));
    expect(shards[0]!.shards).toBeGreaterThan(1);
    // Drafts are not counted; 16 pending, one under review, two approved.
    expect(await stats()).toEqual({ total: 19, pending: 16, underReview: 1, approved: 2, awaitingPayment: 0 });
  });
});

// Only a server has transactions at the same moment (the embedded database runs one at a time).
const onPostgres = inject('testDatabase').kind === 'postgres';
(onPostgres ? describe : () => undefined)('the status counts on PostgreSQL (decision 186)', () => {
  it('let two transactions add a submission at the same moment, neither waiting for the other to commit', async () => {
    const url = t.database.connectionString!;
    const first = new pg.Client({ connectionString: url });
    const second = new pg.Client({ connectionString: url });
    await first.connect();
    await second.connect();
    const insert = (client: pg.Client, songTitle: string) => createSubmissionRow(drizzle(client, { schema }), artist, { songTitle });
    try {
      await first.query('begin');
      await insert(first, 'Held open');
      const { rows } = await first.query<{ shard: string }>('select txid_current() % 128 as shard');
      // A transaction in another shard than the open one (transaction ids are the server's, so
      // any other database's work may come in between; a few tries find one).
      for (let tries = 1; ; tries++) {
        await second.query('begin');
        const mine = await second.query<{ shard: string }>('select txid_current() % 128 as shard');
        if (mine.rows[0]!.shard !== rows[0]!.shard) break;
        await second.query('rollback');
        if (tries === 20) throw new Error('20 transactions in a row fell in the open one’s shard');
      }
      // Before decision 186 this waited until `first` committed: the one "pending" counter row was locked.
      await second.query(`set local lock_timeout = '2s'`);
      await insert(second, 'Beside it');
      await second.query('commit');
      await first.query('commit');
    } finally {
      await first.end();
      await second.end();
    }
    const [counted] = await t.db
      .select({ pending: sql<number>`count(*)::int` })
      .from(submissions)
      .where(eq(submissions.status, 'pending'));
    expect((await stats()).pending).toBe(counted!.pending);
  });
});
