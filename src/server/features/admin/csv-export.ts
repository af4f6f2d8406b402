import { PassThrough, pipeline, Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { stringify as stringifySync } from 'csv-stringify/sync';
import { displayName } from '@shared/users';
import { statusLabel } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { submissionDesk, submissions, users } from '../../platform/db/schema';
import { listFilter, newestFirst, type ListFilter } from './admin-submissions';

/**
 * GET /api/admin/submissions.csv (CONTRACT §14): every submission matching the list's filters,
 * newest first, streamed. Rows are read in keyset batches of BATCH_ROWS, each turned into CSV text
 * by csv-stringify and written as one chunk with back-pressure, so memory stays flat however many
 * rows there are, on PostgreSQL and on the embedded PGlite alike
 * (docs/decisions/111-csv-export-streaming.md).
 */

export const CSV_BATCH_ROWS = 1_000;

const assignees = alias(users, 'assignees');

export const CSV_COLUMNS = [
  'id',
  'submitted_at',
  'song_title',
  'artist_name',
  'email',
  'status',
  'tier',
  'amount',
  'payment_status',
  'assignee',
  'tags',
  'rating_average',
  'ratings',
  'listened_percent',
  'genre',
  'mood',
  'due_at',
  'delivered_at',
  'terms_sha256',
  'terms_accepted_at',
] as const;

/**
 * A cell an artist controls may start with =, +, -, @, tab or CR, which a spreadsheet would run
 * as a formula (CSV injection): such cells get a leading apostrophe, the OWASP recommendation.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Where the previous batch ended: created_at as text (full microseconds, unlike a JavaScript Date) and id. */
interface Cursor {
  createdAt: string;
  id: string;
}

/**
 * One batch. Its ids come first from an index walk on (created_at, id) alone, as the list's pages
 * do (decision 040); only those rows are then read, by primary key, and joined. The ids are
 * handed over as `id = any(array(…))`: joined as a subquery instead, the planner hash-joined them
 * against a sequential scan of every submission, so each batch cost as much as the whole table
 * (100 batches × 100,000 rows for a full export).
 */
function readBatch(db: Db, adminId: string, filter: ListFilter, cursor: Cursor | null) {
  const batchIds = db
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        listFilter(filter, adminId),
        cursor ? sql`(${submissions.createdAt}, ${submissions.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})` : undefined,
      ),
    )
    .orderBy(...newestFirst)
    .limit(CSV_BATCH_ROWS);
  return db
    .select({
      id: submissions.id,
      createdAtText: sql<string>`${submissions.createdAt}::text`,
      createdAt: submissions.createdAt,
      songTitle: submissions.songTitle,
      artistName: submissions.artistName,
      email: users.email,
      status: submissions.status,
      tier: submissions.pricingTier,
      amount: submissions.amount,
      paymentStatus: submissions.paymentStatus,
      assignee: { id: assignees.id, email: assignees.email, firstName: assignees.firstName, lastName: assignees.lastName, artistName: assignees.artistName },
      tags: submissionDesk.tags,
      ratingAverage: submissionDesk.ratingAverage,
      ratingCount: submissionDesk.ratingCount,
      listenedShare: submissionDesk.listenedShare,
      genre: submissions.genre,
      mood: submissions.mood,
      dueAt: submissions.dueAt,
      deliveredAt: submissions.deliveredAt,
      termsHash: submissions.termsHash,
      termsAcceptedAt: submissions.termsAcceptedAt,
    })
    .from(submissions)
    .leftJoin(users, eq(users.id, submissions.userId))
    .leftJoin(submissionDesk, eq(submissionDesk.submissionId, submissions.id))
    .leftJoin(assignees, eq(assignees.id, submissionDesk.assigneeId))
    .where(sql`${submissions.id} = any(array(${batchIds}))`)
    .orderBy(...newestFirst);
}

/** One submission's cells, in CSV_COLUMNS order. */
function toRecord(r: Awaited<ReturnType<typeof readBatch>>[number]): string[] {
  return [
    r.id,
    r.createdAt.toISOString(),
    spreadsheetSafe(r.songTitle),
    spreadsheetSafe(r.artistName),
    spreadsheetSafe(r.email ?? ''),
    statusLabel(r.status),
    r.tier,
    r.amount ?? '',
    r.paymentStatus ?? '',
    r.assignee?.id ? spreadsheetSafe(displayName(r.assignee) || r.assignee.email || '') : '',
    spreadsheetSafe((r.tags ?? []).join(', ')),
    r.ratingAverage == null ? '' : r.ratingAverage.toFixed(1),
    String(r.ratingCount ?? 0),
    String(Math.round((r.listenedShare ?? 0) * 100)),
    spreadsheetSafe(r.genre ?? ''),
    spreadsheetSafe(r.mood ?? ''),
    r.dueAt?.toISOString() ?? '',
    r.deliveredAt?.toISOString() ?? '',
    r.termsHash ?? '',
    r.termsAcceptedAt?.toISOString() ?? '',
  ];
}

/**
 * The CSV text, one chunk per batch: the header line, then BATCH_ROWS lines at a time. A chunk
 * per batch rather than per row keeps the response to ~100 writes for 100,000 rows instead of
 * 100,000 (each a stream hop and a chunk of the HTTP response), which is what made the export slow.
 */
async function* csvChunks(db: Db, adminId: string, filter: ListFilter): AsyncGenerator<string> {
  yield stringifySync([[...CSV_COLUMNS]]);
  let cursor: Cursor | null = null;
  for (;;) {
    const batch = await readBatch(db, adminId, filter, cursor);
    if (batch.length) yield stringifySync(batch.map(toRecord));
    if (batch.length < CSV_BATCH_ROWS) return;
    const last = batch.at(-1)!;
    cursor = { createdAt: last.createdAtText, id: last.id };
  }
}

/**
 * The CSV as a byte stream. Readable.from pulls the next batch only when the response has taken
 * the previous one (back-pressure); pipeline destroys every stage on a failure, so a database
 * error ends the response instead of hanging it.
 */
export function exportSubmissionsCsv(db: Db, adminId: string, filter: ListFilter, onError: (error: Error) => void): Readable {
  const out = new PassThrough();
  pipeline(Readable.from(csvChunks(db, adminId, filter), { objectMode: false }), out, (error) => {
    if (error) onError(error);
  });
  return out;
}
