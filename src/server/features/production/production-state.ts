import { eq } from 'drizzle-orm';
import { standingDueAt, type ProductionState } from '@shared/production';
import { TIER_DELIVERY } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { termsTexts, type SubmissionRow } from '../../platform/db/schema';
import { listDeliveries } from './deliveries';
import { findPublication } from './publication';
import { listRevisions } from './revisions';

/** GET /api/submissions/{id}/production: everything after approval, for the owner and the team. */
export async function productionState(db: Db, submission: SubmissionRow, now: Date): Promise<ProductionState> {
  const [deliveries, requests, publication, terms] = await Promise.all([
    listDeliveries(db, submission.id),
    listRevisions(db, submission.id),
    findPublication(db, submission.id),
    submission.termsHash
      ? db.select().from(termsTexts).where(eq(termsTexts.hash, submission.termsHash)).limit(1)
      : Promise.resolve([]),
  ]);
  const licence = terms[0];
  const dueAt = standingDueAt(submission);
  return {
    submissionId: submission.id,
    dueAt: dueAt?.toISOString() ?? null,
    deliveredAt: submission.deliveredAt?.toISOString() ?? null,
    overdue: dueAt !== null && submission.deliveredAt === null && dueAt < now,
    deliveries,
    revisions: { allowed: TIER_DELIVERY[submission.pricingTier].revisions, used: requests.length, requests },
    refund:
      submission.refundReason && submission.refundRequestedAt
        ? {
            status: submission.paymentStatus === 'refunded' ? 'refunded' : 'requested',
            reason: submission.refundReason,
            requestedAt: submission.refundRequestedAt.toISOString(),
          }
        : null,
    publication,
    licence:
      licence && submission.termsAcceptedAt
        ? { version: licence.version, hash: licence.hash, acceptedAt: submission.termsAcceptedAt.toISOString(), text: licence.text }
        : null,
    approvedDeliveryId: submission.approvedDeliveryId,
    cutApprovedAt: submission.cutApprovedAt?.toISOString() ?? null,
  };
}
