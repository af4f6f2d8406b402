import { PassThrough, pipeline, Readable } from 'node:stream';
import { and, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { SOCIAL_FIELDS } from '@shared/auth';
import { displayName } from '@shared/users';
import { statusLabel, type SubmissionStatus } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { submissionDesk, submissions, users } from '../../platform/db/schema';
import { listFilter, newestFirst, type ListFilter } from './admin-submissions';

/**
 * GET /api/admin/submissions.csv (CONTRACT §14): every submission matching the list's filters,
 * newest first, streamed. Rows are read in keyset batches of BATCH_ROWS, each turned into CSV text
 * (csvLine) and written as one chunk with back-pressure, so memory stays flat however many
 * rows there are, on PostgreSQL and on the embedded PGlite alike
 * (docs/decisions/111-csv-export-streaming.md).
 */

/** Rows a batch reads: each batch has a fixed cost of its own (two queries, a plan), so few large ones. */
export const CSV_BATCH_ROWS = 5_000;

const ASSIGNEES = 'assignees';
const assignees = alias(users, ASSIGNEES);

const CSV_COLUMNS = [
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
  'type',
  'music_link',
  'music_file',
  'video_link',
  'video_file',
  ...SOCIAL_FIELDS.map(socialColumn),
];

/** A social field's column: instagramHandle → instagram, otherPlatforms → other_platforms. */
function socialColumn(field: (typeof SOCIAL_FIELDS)[number]): string {
  return field.replace(/Handle$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

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

/** One submission as the batch query sends it: a JSON array in this order (see readBatch). */
type BatchRow = [
  id: string,
  createdAtText: string,
  songTitle: string,
  artistName: string,
  email: string | null,
  status: SubmissionStatus,
  tier: string,
  amount: string | null,
  paymentStatus: string | null,
  assigneeId: string | null,
  assigneeEmail: string | null,
  assigneeFirstName: string | null,
  assigneeLastName: string | null,
  assigneeArtistName: string | null,
  tags: string[] | null,
  ratingAverage: number | null,
  ratingCount: number | null,
  listenedShare: number | null,
  genre: string | null,
  mood: string | null,
  dueAt: string | null,
  deliveredAt: string | null,
  termsHash: string | null,
  termsAcceptedAt: string | null,
  submissionType: string,
  musicUrl: string | null,
  musicFileUrl: string | null,
  videoUrl: string | null,
  videoFileUrl: string | null,
  ...social: (string | null)[],
];

/**
 * One batch. Its ids come first from an index walk on (created_at, id) alone, as the list's pages
 * do (decision 040); only those rows are then read, by primary key, and joined. The ids are
 * handed over as `id = any(array(…))`: joined as a subquery instead, the planner hash-joined them
 * against a sequential scan of every submission, so each batch cost as much as the whole table.
 *
 * The whole batch comes back as one JSON text (`json_agg`), not as rows: the embedded PGlite
 * decodes every value of every row in JavaScript, which cost 4.5 s of a 100,000-row export
 * (20 values a row), while one JSON.parse per batch costs milliseconds
 * (docs/decisions/111-csv-export-streaming.md).
 */
async function readBatch(db: Db, adminId: string, filter: ListFilter, cursor: Cursor | null): Promise<BatchRow[]> {
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
  const result = await db.execute<{ batch: string }>(sql`
    select coalesce(json_agg(json_build_array(
        ${submissions.id}, ${submissions.createdAt}::text, ${submissions.songTitle}, ${submissions.artistName}, ${users.email},
        ${submissions.status}, ${submissions.pricingTier}, ${submissions.amount}::text, ${submissions.paymentStatus},
        ${assignees.id}, ${assignees.email}, ${assignees.firstName}, ${assignees.lastName}, ${assignees.artistName},
        ${submissionDesk.tags}, ${submissionDesk.ratingAverage}, ${submissionDesk.ratingCount}, ${submissionDesk.listenedShare},
        ${submissions.genre}, ${submissions.mood}, ${submissions.dueAt}, ${submissions.deliveredAt}, ${submissions.termsHash},
        ${submissions.termsAcceptedAt}, ${submissions.submissionType}, ${submissions.musicUrl}, ${submissions.musicFileUrl},
        ${submissions.videoUrl}, ${submissions.videoFileUrl}, ${sql.join(
          SOCIAL_FIELDS.map((f) => sql`${users[f]}`),
          sql`, `,
        )}
      ) order by ${submissions.createdAt} desc, ${submissions.id} desc), '[]')::text as batch
    from ${submissions}
    left join ${users} on ${users.id} = ${submissions.userId}
    left join ${submissionDesk} on ${submissionDesk.submissionId} = ${submissions.id}
    left join ${users} as ${sql.identifier(ASSIGNEES)} on ${assignees.id} = ${submissionDesk.assigneeId}
    where ${submissions.id} = any(array(${batchIds}))`);
  const [row] = (result as unknown as { rows: { batch: string }[] }).rows;
  return JSON.parse(row!.batch) as BatchRow[];
}

/**
 * One CSV line (RFC 4180): a cell holding a comma, a quote, CR or LF is quoted, its quotes
 * doubled; every other cell goes as it is. Written here rather than with csv-stringify, whose
 * per-cell option checks were a third of a 100,000-row export.
 */
function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',') + '\n';
}

/** A timestamp as the JSON of the batch has it (ISO 8601 with an offset), as UTC ISO text. */
const isoOf = (value: string | null) => (value === null ? '' : new Date(value).toISOString());

/** One submission's cells, in CSV_COLUMNS order; stored files as links the team can open (signed in). */
function toRecord(r: BatchRow, origin: string): string[] {
  const [id, createdAt, songTitle, artistName, email, status, tier, amount, paymentStatus, assigneeId, assigneeEmail, firstName, lastName] = r;
  const [, , , , , , , , , , , , , assigneeArtistName, tags, ratingAverage, ratingCount, listenedShare, genre, mood, dueAt, deliveredAt, termsHash, termsAcceptedAt] = r;
  const [, , , , , , , , , , , , , , , , , , , , , , , , submissionType, musicUrl, musicFileUrl, videoUrl, videoFileUrl, ...social] = r;
  const fileLink = (path: string | null) => (path ? `${origin}${path}` : '');
  const assignee = { email: assigneeEmail ?? '', firstName, lastName, artistName: assigneeArtistName };
  return [
    id,
    isoOf(createdAt),
    spreadsheetSafe(songTitle),
    spreadsheetSafe(artistName),
    spreadsheetSafe(email ?? ''),
    statusLabel(status),
    tier,
    amount ?? '',
    paymentStatus ?? '',
    assigneeId ? spreadsheetSafe(displayName(assignee) || assigneeEmail || '') : '',
    spreadsheetSafe((tags ?? []).join(', ')),
    ratingAverage == null ? '' : ratingAverage.toFixed(1),
    String(ratingCount ?? 0),
    String(Math.round((listenedShare ?? 0) * 100)),
    spreadsheetSafe(genre ?? ''),
    spreadsheetSafe(mood ?? ''),
    isoOf(dueAt),
    isoOf(deliveredAt),
    termsHash ?? '',
    isoOf(termsAcceptedAt),
    submissionType,
    spreadsheetSafe(musicUrl ?? ''),
    fileLink(musicFileUrl),
    spreadsheetSafe(videoUrl ?? ''),
    fileLink(videoFileUrl),
    ...social.map((value) => spreadsheetSafe(value ?? '')),
  ];
}

/**
 * The CSV text, one chunk per batch: the header line, then BATCH_ROWS lines at a time. A chunk
 * per batch rather than per row keeps the response to ~100 writes for 100,000 rows instead of
 * 100,000 (each a stream hop and a chunk of the HTTP response), which is what made the export slow.
 */
async function* csvChunks(db: Db, adminId: string, filter: ListFilter, origin: string): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  let cursor: Cursor | null = null;
  for (;;) {
    const batch = await readBatch(db, adminId, filter, cursor);
    if (batch.length) yield batch.map((row) => csvLine(toRecord(row, origin))).join('');
    if (batch.length < CSV_BATCH_ROWS) return;
    const last = batch.at(-1)!;
    cursor = { createdAt: last[1], id: last[0] };
  }
}

/**
 * The CSV as a byte stream. Readable.from pulls the next batch only when the response has taken
 * the previous one (back-pressure); pipeline destroys every stage on a failure, so a database
 * error ends the response instead of hanging it.
 */
export function exportSubmissionsCsv(db: Db, adminId: string, filter: ListFilter, origin: string, onError: (error: Error) => void): Readable {
  const out = new PassThrough();
  pipeline(Readable.from(csvChunks(db, adminId, filter, origin), { objectMode: false }), out, (error) => {
    if (error) onError(error);
  });
  return out;
}
