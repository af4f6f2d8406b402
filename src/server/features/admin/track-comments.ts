import { and, asc, eq } from 'drizzle-orm';
import type { TrackComment } from '@shared/review-desk';
import type { Db } from '../../platform/db/client';
import { submissions, trackComments, users, type TrackCommentRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { isDeskSubmission, toTeamMember } from './admin-submissions';

/**
 * Comments pinned to a moment of a submission's track (CONTRACT §14). Internal to the team
 * unless marked visible to the artist; the artist never sees who on the team wrote one.
 */

const authorColumns = { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, artistName: users.artistName };

function toComment(row: TrackCommentRow, author: Parameters<typeof toTeamMember>[0] | null, withAuthor: boolean): TrackComment {
  return {
    id: row.id,
    atSeconds: row.atSeconds,
    text: row.text,
    visibleToArtist: row.visibleToArtist,
    round: row.round,
    createdAt: row.createdAt.toISOString(),
    author: withAuthor && author?.id ? toTeamMember(author) : null,
  };
}

export async function addTrackComment(
  db: Db,
  adminId: string,
  submissionId: string,
  input: { atSeconds: number; text: string; visibleToArtist: boolean; round?: number | undefined },
): Promise<TrackComment> {
  return db.transaction(async (tx) => {
    const [exists] = await tx.select({ id: submissions.id, round: submissions.round }).from(submissions).where(isDeskSubmission(submissionId)).for('share');
    if (!exists) throw apiError('submission_not_found');
    // A comment is about one version (CONTRACT §27): the current one unless an earlier one is named.
    const round = input.round ?? exists.round;
    if (round > exists.round) throw apiError('validation_failed', `This submission has no round ${round} yet`, [{ path: 'round', message: `This submission has no round ${round} yet` }]);
    const [row] = await tx
      .insert(trackComments)
      .values({ id: newId(), submissionId, authorId: adminId, atSeconds: input.atSeconds, text: input.text, visibleToArtist: input.visibleToArtist, round })
      .returning();
    const [author] = await tx.select(authorColumns).from(users).where(eq(users.id, adminId));
    return toComment(row!, author ?? null, true);
  });
}

/** GET /api/admin/submissions/{id}/comments: every comment, by round, then in track order. */
export async function listTeamComments(db: Db, submissionId: string): Promise<TrackComment[]> {
  const [exists] = await db.select({ id: submissions.id }).from(submissions).where(isDeskSubmission(submissionId)).limit(1);
  if (!exists) throw apiError('submission_not_found');
  const rows = await db
    .select({ comment: trackComments, author: authorColumns })
    .from(trackComments)
    .leftJoin(users, eq(users.id, trackComments.authorId))
    .where(eq(trackComments.submissionId, submissionId))
    .orderBy(asc(trackComments.round), asc(trackComments.atSeconds), asc(trackComments.createdAt));
  return rows.map((r) => toComment(r.comment, r.author, true));
}

/** GET /api/submissions/{id}/comments: the visible ones, for the submission's owner only (else 404). */
export async function listArtistComments(db: Db, ownerId: string, submissionId: string): Promise<TrackComment[]> {
  const [owned] = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.userId, ownerId)))
    .limit(1);
  if (!owned) throw apiError('submission_not_found');
  const rows = await db
    .select()
    .from(trackComments)
    .where(and(eq(trackComments.submissionId, submissionId), eq(trackComments.visibleToArtist, true)))
    .orderBy(asc(trackComments.round), asc(trackComments.atSeconds), asc(trackComments.createdAt));
  return rows.map((row) => toComment(row, null, false));
}
