import { and, desc, eq } from 'drizzle-orm';
import { TIERS, isPaidTier, type PricingTier } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { submissionHistory, submissions, type SubmissionRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';

/** A transaction handle or the database: the functions below work inside or outside one. */
type TxOrDb = Tx | Db;

export const CURRENCY = 'usd';


export type PaymentSubmission = Pick<
  SubmissionRow,
  'id' | 'userId' | 'pricingTier' | 'submissionType' | 'status' | 'paymentStatus' | 'stripePaymentIntentId' | 'songTitle' | 'artistName'
>;

const paymentColumns = {
  id: submissions.id,
  userId: submissions.userId,
  pricingTier: submissions.pricingTier,
  submissionType: submissions.submissionType,
  status: submissions.status,
  paymentStatus: submissions.paymentStatus,
  stripePaymentIntentId: submissions.stripePaymentIntentId,
  songTitle: submissions.songTitle,
  artistName: submissions.artistName,
};

/** The price of a tier in cents, as Stripe counts it; computed on the server only. */
function amountInCents(tier: PricingTier): number {
  return TIERS[tier].priceUsd * 100;
}

/** What the artist pays for this submission: its tier's price, never a stored or sent figure. */
export function expectedAmount(submission: Pick<PaymentSubmission, 'pricingTier'>): number | null {
  return isPaidTier(submission.pricingTier) ? amountInCents(submission.pricingTier) : null;
}


/** The caller's own submission; anyone else's is "not found" (CONTRACT §2). */
export async function findOwnedSubmission(db: Db, userId: string, submissionId: string): Promise<PaymentSubmission> {
  const [row] = await db
    .select(paymentColumns)
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.userId, userId)))
    .limit(1);
  if (!row) throw apiError('submission_not_found');
  return row;
}

/** Locks the submission row for the rest of the transaction, so concurrent events apply one at a time. */
export async function lockSubmission(
  tx: TxOrDb,
  by: { id: string } | { paymentIntentId: string },
): Promise<PaymentSubmission | undefined> {
  const where = 'id' in by ? eq(submissions.id, by.id) : eq(submissions.stripePaymentIntentId, by.paymentIntentId);
  const [row] = await tx.select(paymentColumns).from(submissions).where(where).limit(1).for('update');
  return row;
}

/** When the payment was confirmed: the history row of its move to `succeeded`. */
export async function paidAt(db: Db, submissionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: submissionHistory.createdAt })
    .from(submissionHistory)
    .where(
      and(
        eq(submissionHistory.submissionId, submissionId),
        eq(submissionHistory.field, 'payment_status'),
        eq(submissionHistory.toValue, 'succeeded'),
      ),
    )
    .orderBy(desc(submissionHistory.createdAt))
    .limit(1);
  return row?.at ?? null;
}
