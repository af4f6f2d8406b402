import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { deliveries, submissions, type SubmissionRow, type UserRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { recordArtistActivity } from './artist-activity';
import { announceSubmissionChange } from './transition';

/**
 * POST …/deliveries/{deliveryId}/approve: the owner approves this cut (CONTRACT §17). Only the
 * latest delivery can be approved (an earlier one has been replaced); approving again keeps the
 * first time. A delivery made meanwhile is serialized by the submission's row lock.
 * Announces `submission_changed` in the same transaction.
 */
export async function approveCut(db: Db, owner: UserRow, submission: SubmissionRow, deliveryId: string, now: Date): Promise<void> {
  if (owner.role === 'admin' || submission.userId !== owner.id) throw apiError('approval_by_artist_only');
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(submissions).where(eq(submissions.id, submission.id)).for('update');
    if (!locked) throw apiError('submission_not_found');
    const list = await tx
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(eq(deliveries.submissionId, submission.id))
      .orderBy(asc(deliveries.version));
    if (!list.some((d) => d.id === deliveryId)) throw apiError('delivery_not_found');
    if (list.at(-1)!.id !== deliveryId) throw apiError('cut_not_latest');
    if (locked.approvedDeliveryId === deliveryId) return;
    await tx.update(submissions).set({ approvedDeliveryId: deliveryId, cutApprovedAt: now, updatedAt: now }).where(eq(submissions.id, submission.id));
    await recordArtistActivity(tx, { submissionId: submission.id, songTitle: locked.songTitle, kind: 'cut_approved', at: now });
    // The team's open desk reads the submission again (the approval shows there at once), once this commits.
    await announceSubmissionChange(tx, submission.userId, { submissionId: submission.id, status: locked.status });
  });
}
