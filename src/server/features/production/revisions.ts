import { asc, count, eq } from 'drizzle-orm';
import type { RevisionRequest } from '@shared/production';
import { PRODUCTION_TEXTS } from '@shared/production-texts';
import { TIER_DELIVERY } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { revisionRequests, submissions } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { lockOwnSubmission } from '../../domain/submission/lock-own-submission';
import { newId } from '../../platform/ids';
import { recordHistory } from '../../domain/submission/history';

const toRevision = (row: typeof revisionRequests.$inferSelect): RevisionRequest => ({
  id: row.id,
  note: row.note,
  createdAt: row.createdAt.toISOString(),
});

/**
 * POST /api/submissions/{id}/revisions (CONTRACT §13): the owner asks for a change after a
 * delivery, within the tier's allowance (professional 3, others 0). The submission row is locked
 * and each request numbered uniquely, so two requests at the same moment cannot both take the
 * last one.
 */
export async function requestRevision(db: Db, userId: string, submissionId: string, note: string, now: Date): Promise<RevisionRequest> {
  return db.transaction(async (tx) => {
    const columns = { id: submissions.id, pricingTier: submissions.pricingTier, deliveredAt: submissions.deliveredAt, status: submissions.status };
    const submission = await lockOwnSubmission(tx, userId, submissionId, columns);
    if (submission.status === 'draft') throw apiError('submission_not_found');
    const allowed = TIER_DELIVERY[submission.pricingTier].revisions;
    const [used] = await tx.select({ n: count() }).from(revisionRequests).where(eq(revisionRequests.submissionId, submissionId));
    const number = (used?.n ?? 0) + 1;
    if (number > allowed) throw apiError('revisions_exhausted', PRODUCTION_TEXTS.revisionsExhausted(allowed));
    if (!submission.deliveredAt) throw apiError('not_delivered_yet', PRODUCTION_TEXTS.revisionBeforeDelivery);
    const [row] = await tx.insert(revisionRequests).values({ id: newId(), submissionId, number, note, createdAt: now }).returning();
    await recordHistory(tx, submissionId, { kind: 'revision', by: userId, from: `${number} of ${allowed}`, to: note, at: now });
    await tx.update(submissions).set({ updatedAt: now }).where(eq(submissions.id, submissionId));
    return toRevision(row!);
  });
}

export async function listRevisions(db: Db, submissionId: string): Promise<RevisionRequest[]> {
  const rows = await db
    .select()
    .from(revisionRequests)
    .where(eq(revisionRequests.submissionId, submissionId))
    .orderBy(asc(revisionRequests.number));
  return rows.map(toRevision);
}
