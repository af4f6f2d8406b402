import { and, asc, desc, eq, getTableColumns, ilike, or, sql, type SQL } from 'drizzle-orm';
import { displayName } from '@shared/auth';
import type { AdminStats, AdminSubmission } from '@shared/submission-schemas';
import type { Db } from '../../platform/db/client';
import {
  submissionHistory,
  submissions,
  submissionStatusCounts,
  users,
  type SubmissionRow,
  type UserRow,
} from '../../platform/db/schema';
import { notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { toPublicUser } from '../../platform/public-user';
import { toSubmission } from '../submissions/to-submission';
import type { AdminListQuery, AdminSubmissionPage, StatusChangeInput, SubmissionHistoryEntry } from '@shared/admin';

export const SUBMISSION_NOT_FOUND = 'Submission not found';

export function toAdminSubmission(row: SubmissionRow, user: UserRow | null): AdminSubmission {
  return { ...toSubmission(row), adminNotes: row.adminNotes, user: user ? toPublicUser(user) : null };
}

/** `%`, `_` and `\` in a search are literal characters, not LIKE wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The list's filter. The search is a case-insensitive substring of song title, artist name or the
 * submitter's email; each side has a trigram index, and the email side is turned into a list of
 * user ids first so PostgreSQL can OR three index scans together instead of scanning the join.
 */
function listFilter({ status, q }: Pick<AdminListQuery, 'status' | 'q'>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (status) conditions.push(eq(submissions.status, status));
  if (q) {
    const pattern = likePattern(q);
    conditions.push(
      or(
        ilike(submissions.songTitle, pattern),
        ilike(submissions.artistName, pattern),
        sql`${submissions.userId} = any(array(select ${users.id} from ${users} where ${users.email} ilike ${pattern}))`,
      ),
    );
  }
  return and(...conditions);
}

/** Submissions per status, from the trigger-kept counter table (one tiny read, any table size). */
export async function statusCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ status: submissionStatusCounts.status, count: sql<number>`${submissionStatusCounts.count}::int` })
    .from(submissionStatusCounts);
  return new Map(rows.map((r) => [r.status, r.count]));
}

/** The four dashboard counts (CONTRACT §8). */
export function toAdminStats(counts: Map<string, number>): AdminStats {
  let total = 0;
  for (const n of counts.values()) total += n;
  return {
    total,
    pending: counts.get('pending') ?? 0,
    underReview: counts.get('under_review') ?? 0,
    approved: counts.get('approved') ?? 0,
  };
}

/**
 * How many rows a search may count before it stops: counting every match of a broad search
 * costs as much as reading them all, and past this many an A&R person refines the search.
 */
export const SEARCH_COUNT_CAP = 1000;

async function countMatching(
  db: Db,
  query: AdminListQuery,
  counts: Map<string, number>,
  stats: AdminStats,
): Promise<{ total: number; capped: boolean }> {
  // Without a search the counter table holds the answer.
  if (!query.q) return { total: query.status ? (counts.get(query.status) ?? 0) : stats.total, capped: false };
  const matches = db
    .select({ one: sql`1` })
    .from(submissions)
    .where(listFilter(query))
    .limit(SEARCH_COUNT_CAP + 1)
    .as('matches');
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(matches);
  const n = row?.n ?? 0;
  return n > SEARCH_COUNT_CAP ? { total: SEARCH_COUNT_CAP, capped: true } : { total: n, capped: false };
}

const newestFirst = [desc(submissions.createdAt), desc(submissions.id)];

/**
 * GET /api/admin/submissions: one page, newest first, with the submitter and the stats. The
 * page's ids come from the (created_at, id) index alone; only those 50 rows are then read and
 * joined, so a deep page costs an index walk rather than 50,000 joined rows.
 */
export async function listAdminSubmissions(db: Db, query: AdminListQuery): Promise<AdminSubmissionPage> {
  const { page, pageSize } = query;
  const pageIds = db
    .select({ id: submissions.id })
    .from(submissions)
    .where(listFilter(query))
    .orderBy(...newestFirst)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .as('page_ids');
  const rows = await db
    .select({ submission: submissions, user: users })
    .from(pageIds)
    .innerJoin(submissions, eq(submissions.id, pageIds.id))
    .leftJoin(users, eq(users.id, submissions.userId))
    .orderBy(...newestFirst);
  const counts = await statusCounts(db);
  const stats = toAdminStats(counts);
  // A short first page is the whole result: no count needed.
  const { total, capped } =
    page === 1 && rows.length < pageSize ? { total: rows.length, capped: false } : await countMatching(db, query, counts, stats);
  return {
    submissions: rows.map((r) => toAdminSubmission(r.submission, r.user)),
    stats,
    total,
    totalCapped: capped,
    page,
    pageSize,
  };
}

/** GET /api/admin/submissions/{id}. */
export async function findAdminSubmission(db: Db, id: string): Promise<AdminSubmission> {
  const [row] = await db
    .select({ submission: submissions, user: users })
    .from(submissions)
    .leftJoin(users, eq(users.id, submissions.userId))
    .where(eq(submissions.id, id))
    .limit(1);
  if (!row) throw notFound(SUBMISSION_NOT_FOUND);
  return toAdminSubmission(row.submission, row.user);
}

type HistoryInsert = typeof submissionHistory.$inferInsert;

/**
 * PATCH .../status: sets the status and, when given, the review the artist reads; records who
 * reviewed and when, and one history row per field that actually changed.
 */
export async function changeSubmissionStatus(
  db: Db,
  adminId: string,
  id: string,
  input: { status: NonNullable<StatusChangeInput['status']>; review?: string | null | undefined },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: submissions.status, review: submissions.adminReview })
      .from(submissions)
      .where(eq(submissions.id, id))
      .for('update');
    if (!current) throw notFound(SUBMISSION_NOT_FOUND);
    const now = new Date();
    const reviewChanged = input.review !== undefined && input.review !== current.review;
    await tx
      .update(submissions)
      .set({
        status: input.status,
        ...(reviewChanged ? { adminReview: input.review } : {}),
        adminReviewedAt: now,
        adminReviewedBy: adminId,
        updatedAt: now,
      })
      .where(eq(submissions.id, id));
    const history: HistoryInsert[] = [];
    const entry = (field: HistoryInsert['field'], fromValue: string | null, toValue: string | null) =>
      history.push({ id: newId(), submissionId: id, actorId: adminId, field, fromValue, toValue, createdAt: now });
    if (current.status !== input.status) entry('status', current.status, input.status);
    if (reviewChanged) entry('review', current.review, input.review ?? null);
    if (history.length) await tx.insert(submissionHistory).values(history);
  });
}

/** PATCH .../notes: the team's internal notes, with a history row when they change. */
export async function saveSubmissionNotes(db: Db, adminId: string, id: string, notes: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ notes: submissions.adminNotes })
      .from(submissions)
      .where(eq(submissions.id, id))
      .for('update');
    if (!current) throw notFound(SUBMISSION_NOT_FOUND);
    if (current.notes === notes) return;
    const now = new Date();
    await tx.update(submissions).set({ adminNotes: notes, updatedAt: now }).where(eq(submissions.id, id));
    await tx.insert(submissionHistory).values({
      id: newId(),
      submissionId: id,
      actorId: adminId,
      field: 'notes',
      fromValue: current.notes,
      toValue: notes,
      createdAt: now,
    });
  });
}

/** The submitter of a submission, or "not found". */
export async function submissionOwnerId(db: Db, id: string): Promise<string> {
  const [row] = await db.select({ userId: submissions.userId }).from(submissions).where(eq(submissions.id, id)).limit(1);
  if (!row) throw notFound(SUBMISSION_NOT_FOUND);
  return row.userId;
}

/** GET .../history: every recorded change of the submission, oldest first. */
export async function listSubmissionHistory(db: Db, id: string): Promise<SubmissionHistoryEntry[]> {
  await submissionOwnerId(db, id);
  const { password: _p, googleId: _g, ...actorColumns } = getTableColumns(users);
  const rows = await db
    .select({ entry: submissionHistory, actor: actorColumns })
    .from(submissionHistory)
    .leftJoin(users, eq(users.id, submissionHistory.actorId))
    .where(eq(submissionHistory.submissionId, id))
    .orderBy(asc(submissionHistory.createdAt), asc(submissionHistory.id));
  return rows.map(({ entry, actor }) => ({
    id: entry.id,
    field: entry.field,
    fromValue: entry.fromValue,
    toValue: entry.toValue,
    createdAt: entry.createdAt.toISOString(),
    actor: actor?.id ? { id: actor.id, name: displayName(actor) || actor.email || 'Unknown' } : null,
  }));
}
