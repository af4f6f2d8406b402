import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import type { DeliveryComment } from '@shared/production';
import type { Db } from '../../platform/db/client';
import { deliveries, deliveryComments, deliveryFiles, submissionDesk, users, type SubmissionRow, type UserRow } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { commentAuthorColumns, toDeliveryComment } from '../../domain/production/to-delivery-comment';
import { recordArtistActivity } from '../../domain/submission/artist-activity';

/**
 * Comments on a delivery (CONTRACT §17): the submission's owner and the team, at a moment of one
 * of its video or audio files or on the whole cut, with replies and a resolved mark. The caller
 * has already found the submission visible to the user (access.ts); everything here is scoped to
 * that submission's id. Decision 158.
 */

/** The delivery, if it is one of this submission's. */
async function findDelivery(db: Db, submissionId: string, deliveryId: string) {
  const [row] = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.id, deliveryId), eq(deliveries.submissionId, submissionId)))
    .limit(1);
  if (!row) throw apiError('delivery_not_found');
  return row;
}

/** Who is told of a comment: the owner and every admin (the other side, and the author's side's other tabs). */
export async function commentAudience(db: Db, ownerId: string): Promise<string[]> {
  const admins = await db.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
  return [ownerId, ...admins.map((a) => a.id)];
}

/**
 * Who is emailed about an unread comment: the owner for the team's comments; for the owner's,
 * the submission's assignee, or the whole team when nobody is assigned.
 */
async function emailRecipients(db: Db, submission: SubmissionRow, authorRole: UserRow['role']): Promise<string[]> {
  if (authorRole === 'admin') return [submission.userId];
  const [desk] = await db
    .select({ assigneeId: submissionDesk.assigneeId })
    .from(submissionDesk)
    .innerJoin(users, eq(users.id, submissionDesk.assigneeId))
    .where(and(eq(submissionDesk.submissionId, submission.id), eq(users.role, 'admin'), isNull(users.deletedAt)))
    .limit(1);
  if (desk?.assigneeId) return [desk.assigneeId];
  const admins = await db.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
  return admins.map((a) => a.id);
}

export async function addDeliveryComment(
  db: Db,
  outbox: EmailQueue,
  author: UserRow,
  submission: SubmissionRow,
  deliveryId: string,
  input: { text: string; atSeconds: number | null; fileId: string | null; replyTo: string | null },
  emailDelayS: number,
): Promise<DeliveryComment> {
  const delivery = await findDelivery(db, submission.id, deliveryId);
  if (input.fileId) {
    const [file] = await db
      .select({ id: deliveryFiles.uploadId })
      .from(deliveryFiles)
      .where(and(eq(deliveryFiles.uploadId, input.fileId), eq(deliveryFiles.deliveryId, delivery.id)))
      .limit(1);
    if (!file) throw apiError('comment_target_invalid', 'fileId must be a file of this delivery', [{ path: 'fileId', message: 'Not a file of this delivery' }]);
  }
  if (input.replyTo) {
    const [parent] = await db
      .select({ id: deliveryComments.id })
      .from(deliveryComments)
      .where(and(eq(deliveryComments.id, input.replyTo), eq(deliveryComments.deliveryId, delivery.id)))
      .limit(1);
    if (!parent) throw apiError('comment_target_invalid', 'replyTo must be a comment of this delivery', [{ path: 'replyTo', message: 'Not a comment of this delivery' }]);
  }
  const recipients = await emailRecipients(db, submission, author.role);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(deliveryComments)
      .values({
        id: newId(),
        deliveryId: delivery.id,
        submissionId: submission.id,
        fileId: input.fileId,
        atSeconds: input.atSeconds,
        text: input.text,
        replyTo: input.replyTo,
        authorId: author.id,
        authorRole: author.role,
      })
      .returning();
    // The team hears the artist live, not only by the email below (issue 33 part 4).
    if (author.role !== 'admin') {
      await recordArtistActivity(tx, {
        submissionId: submission.id,
        songTitle: submission.songTitle,
        kind: input.replyTo ? 'reply' : 'delivery_comment',
        at: inserted!.createdAt,
      });
    }
    // Emailed only if still unread after the delay; while one such email waits, later comments
    // join it (delivery-comments-email.ts decides what it says when it goes).
    for (const userId of recipients) {
      if (userId === author.id) continue;
      await outbox.queue(tx, {
        kind: 'delivery_comments',
        userId,
        dedupeKey: `delivery_comments:${userId}:${submission.id}`,
        sendAfter: new Date(inserted!.createdAt.getTime() + emailDelayS * 1000),
        data: { submissionId: submission.id, songTitle: submission.songTitle, comments: [], total: 0 },
      });
    }
    return inserted!;
  });
  return toDeliveryComment(row, author);
}

/** One comment as pushed to other instances (the hub's loader for a payload too large to NOTIFY). */
export async function loadDeliveryComment(db: Db, commentId: string): Promise<{ comment: DeliveryComment; submissionId: string } | null> {
  const [row] = await db
    .select({ comment: deliveryComments, author: commentAuthorColumns })
    .from(deliveryComments)
    .leftJoin(users, eq(users.id, deliveryComments.authorId))
    .where(eq(deliveryComments.id, commentId))
    .limit(1);
  return row ? { comment: toDeliveryComment(row.comment, row.author), submissionId: row.comment.submissionId } : null;
}

/**
 * GET …/deliveries/{deliveryId}/comments: oldest first. Loading them is reading them: the other
 * side's comments are marked read, so no email goes out for them.
 */
export async function listDeliveryComments(db: Db, reader: UserRow, submission: SubmissionRow, deliveryId: string, now: Date): Promise<DeliveryComment[]> {
  const delivery = await findDelivery(db, submission.id, deliveryId);
  const rows = await db
    .select({ comment: deliveryComments, author: commentAuthorColumns })
    .from(deliveryComments)
    .leftJoin(users, eq(users.id, deliveryComments.authorId))
    .where(eq(deliveryComments.deliveryId, delivery.id))
    .orderBy(asc(deliveryComments.createdAt), asc(deliveryComments.id));
  if (rows.some((r) => r.comment.authorRole !== reader.role && r.comment.readAt === null)) {
    await db
      .update(deliveryComments)
      .set({ readAt: now })
      .where(and(eq(deliveryComments.deliveryId, delivery.id), ne(deliveryComments.authorRole, reader.role), isNull(deliveryComments.readAt)));
  }
  return rows.map((r) => toDeliveryComment(r.comment, r.author));
}

/** PATCH …/comments/{commentId} {resolved}: either side; the route pushes the comment as it now stands. */
export async function resolveDeliveryComment(db: Db, submission: SubmissionRow, deliveryId: string, commentId: string, resolved: boolean): Promise<DeliveryComment> {
  const delivery = await findDelivery(db, submission.id, deliveryId);
  const [updated] = await db
    .update(deliveryComments)
    .set({ resolved })
    .where(and(eq(deliveryComments.id, commentId), eq(deliveryComments.deliveryId, delivery.id)))
    .returning();
  if (!updated) throw apiError('delivery_comment_not_found');
  const loaded = await loadDeliveryComment(db, updated.id);
  return loaded!.comment;
}
