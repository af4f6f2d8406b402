import { and, asc, eq, sql } from 'drizzle-orm';
import {
  coveredShare,
  mergeRanges,
  TAGS_PER_SUBMISSION_MAX,
  TOO_MANY_TAGS_MESSAGE,
  type SubmissionRatings,
  type Waveform,
} from '@shared/review-desk';
import type { Db } from '../../platform/db/client';
import {
  audioPeaks,
  submissionDesk,
  submissionRatings,
  submissionVersions,
  submissions,
  users,
  type SubmissionDeskRow,
} from '../../platform/db/schema';
import { apiError, HttpError } from '../../platform/errors';
import { uploadIdFromObjectPath } from '@shared/submissions';
import type { Availability } from '@shared/admin';
import { isDeskSubmission, toTeamMember } from './admin-submissions';
import { recordHistory } from '../../domain/submission/history';

/**
 * The review desk's working state of a submission (CONTRACT §14): assignee, tags, ratings and
 * listening. Every function takes a `Db`, which may be a transaction: the bulk route runs them
 * for many submissions inside one.
 */

/** Locks the submission's desk row for this transaction, making it first if needed (404 if no submission). */
async function lockDesk(tx: Db, submissionId: string): Promise<SubmissionDeskRow> {
  const [exists] = await tx.select({ id: submissions.id }).from(submissions).where(isDeskSubmission(submissionId)).for('update');
  if (!exists) throw apiError('submission_not_found');
  await tx.insert(submissionDesk).values({ submissionId }).onConflictDoNothing();
  const [row] = await tx.select().from(submissionDesk).where(eq(submissionDesk.submissionId, submissionId)).for('update');
  return row!;
}

/** A tag change that would leave a submission with more than TAGS_PER_SUBMISSION_MAX tags (400). */
export class TooManyTagsError extends HttpError {
  constructor(readonly tagCount: number) {
    super('too_many_tags', TOO_MANY_TAGS_MESSAGE);
  }
}

/** An assignee must be an admin; anything else is a 400 naming the problem. */
export async function checkAssignee(db: Db, assigneeId: string | null): Promise<void> {
  if (assigneeId === null) return;
  const [user] = await db.select({ role: users.role }).from(users).where(eq(users.id, assigneeId)).limit(1);
  if (user?.role !== 'admin') throw apiError('assignee_not_admin');
}

/** PUT …/assignee and bulk `assign`: one history row when the assignee really changes. */
export async function assignSubmission(db: Db, adminId: string, submissionId: string, assigneeId: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const desk = await lockDesk(tx, submissionId);
    if (desk.assigneeId === assigneeId) return;
    const now = new Date();
    await tx.update(submissionDesk).set({ assigneeId, assignedAt: assigneeId ? now : null, updatedAt: now }).where(eq(submissionDesk.submissionId, submissionId));
    await recordHistory(tx, submissionId, { kind: 'assignee', by: adminId, from: desk.assigneeId, to: assigneeId, at: now });
  });
}

/**
 * PUT …/tags (the whole list) and bulk `tag` (add and remove): one history row when the set of
 * tags really changes, holding the lists before and after, comma-separated. A result of more than
 * TAGS_PER_SUBMISSION_MAX tags is refused (`too_many_tags`, nothing written): the request's own
 * list is bounded by its schema, but tags added in bulk merge with those already there.
 */
export async function changeSubmissionTags(
  db: Db,
  adminId: string,
  submissionId: string,
  change: { set: string[] } | { add: string[]; remove: string[] },
): Promise<void> {
  await db.transaction(async (tx) => {
    const desk = await lockDesk(tx, submissionId);
    const next =
      'set' in change
        ? [...new Set(change.set)]
        : [...new Set([...desk.tags, ...change.add])].filter((tag) => !change.remove.includes(tag));
    if (next.length > TAGS_PER_SUBMISSION_MAX) throw new TooManyTagsError(next.length);
    const same = next.length === desk.tags.length && next.every((tag) => desk.tags.includes(tag));
    if (same) return;
    const now = new Date();
    await tx.update(submissionDesk).set({ tags: next, updatedAt: now }).where(eq(submissionDesk.submissionId, submissionId));
    await recordHistory(tx, submissionId, { kind: 'tags', by: adminId, from: desk.tags.join(', ') || null, to: next.join(', ') || null, at: now });
  });
}

/** GET …/ratings: every admin's rating, best first, with the average. */
export async function listRatings(db: Db, submissionId: string): Promise<SubmissionRatings> {
  const [exists] = await db.select({ id: submissions.id }).from(submissions).where(isDeskSubmission(submissionId)).limit(1);
  if (!exists) throw apiError('submission_not_found');
  const rows = await db
    .select({
      rating: submissionRatings,
      admin: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, artistName: users.artistName },
    })
    .from(submissionRatings)
    .innerJoin(users, eq(users.id, submissionRatings.adminId))
    .where(eq(submissionRatings.submissionId, submissionId))
    .orderBy(asc(submissionRatings.createdAt));
  const ratings = rows.map(({ rating, admin }) => ({
    admin: toTeamMember(admin),
    score: rating.score,
    comment: rating.comment,
    updatedAt: rating.updatedAt.toISOString(),
  }));
  const average = ratings.length ? Math.round((ratings.reduce((sum, r) => sum + r.score, 0) / ratings.length) * 10) / 10 : null;
  return { ratings, average };
}

/**
 * PUT …/rating: the admin's own 1–5 with a comment (a second call replaces the first). The
 * list's average is recomputed in the same transaction, so it is never out of step.
 */
export async function rateSubmission(
  db: Db,
  adminId: string,
  submissionId: string,
  input: { score: number; comment: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockDesk(tx, submissionId);
    const now = new Date();
    await tx
      .insert(submissionRatings)
      .values({ submissionId, adminId, score: input.score, comment: input.comment, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [submissionRatings.submissionId, submissionRatings.adminId],
        set: { score: input.score, comment: input.comment, updatedAt: now },
      });
    const [summary] = await tx
      .select({ average: sql<number>`avg(${submissionRatings.score})::real`, count: sql<number>`count(*)::int` })
      .from(submissionRatings)
      .where(eq(submissionRatings.submissionId, submissionId));
    await tx
      .update(submissionDesk)
      .set({ ratingAverage: summary!.average, ratingCount: summary!.count, updatedAt: now })
      .where(eq(submissionDesk.submissionId, submissionId));
  });
}


/** The stored waveform of the submission's uploaded track, if its upload has one. */
export async function findWaveform(db: Db, submissionId: string, round?: number): Promise<Waveform | null> {
  const [row] = await db
    .select({ musicFileUrl: submissions.musicFileUrl, round: submissions.round })
    .from(submissions)
    .where(isDeskSubmission(submissionId))
    .limit(1);
  if (!row) throw apiError('submission_not_found');
  // An earlier version (CONTRACT §27): its own upload, as kept in the versions.
  let objectPath = row.musicFileUrl;
  if (round !== undefined && round !== row.round) {
    const [version] = await db
      .select({ objectPath: submissionVersions.objectPath })
      .from(submissionVersions)
      .where(and(eq(submissionVersions.submissionId, submissionId), eq(submissionVersions.round, round)))
      .limit(1);
    objectPath = version?.objectPath ?? null;
  }
  const uploadId = objectPath ? uploadIdFromObjectPath(objectPath) : null;
  if (!uploadId) return null;
  const [peaks] = await db
    .select({ durationSeconds: audioPeaks.durationSeconds, peaks: audioPeaks.peaks })
    .from(audioPeaks)
    .where(eq(audioPeaks.uploadId, uploadId))
    .limit(1);
  return peaks ?? null;
}

/**
 * POST …/listening: a stretch the team's player played. Ranges from every admin merge into one
 * covered set; the share is measured against the stored waveform's duration when there is one,
 * else the duration the player reported.
 */
export async function recordListening(
  db: Db,
  submissionId: string,
  input: { from: number; to: number; durationSeconds?: number | undefined },
): Promise<{ listenedShare: number }> {
  const waveform = await findWaveform(db, submissionId);
  const duration = waveform?.durationSeconds ?? input.durationSeconds;
  return db.transaction(async (tx) => {
    const desk = await lockDesk(tx, submissionId);
    const end = duration ? Math.min(input.to, duration) : input.to;
    const ranges = mergeRanges([...desk.listenedRanges, [input.from, end]]);
    const listenedShare = duration ? coveredShare(ranges, duration) : desk.listenedShare;
    await tx
      .update(submissionDesk)
      .set({ listenedRanges: ranges, listenedShare, updatedAt: new Date() })
      .where(and(eq(submissionDesk.submissionId, submissionId)));
    return { listenedShare };
  });
}

/** GET /api/admin/me/availability: whether the admin is away (CONTRACT §26). */
export async function availabilityOf(db: Db, adminId: string): Promise<Availability> {
  const [row] = await db.select({ awayAt: users.awayAt }).from(users).where(eq(users.id, adminId)).limit(1);
  return { away: row?.awayAt != null };
}

/** PUT /api/admin/me/availability: away (fair assignment skips them) or back; the first moment away is kept. */
export async function setAvailability(db: Db, adminId: string, { away }: Availability): Promise<Availability> {
  await db
    .update(users)
    .set({ awayAt: away ? sql`coalesce(${users.awayAt}, now())` : null })
    .where(eq(users.id, adminId));
  return { away };
}
