import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { PAYMENT_DUE_STATUSES, isPaidTier, isPaymentDue, tierAmount, type PricingTier } from '@shared/submissions';
import { plansFor } from '@shared/plans';
import type { Db } from '../../platform/db/client';
import { submissions } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { findOwnedSubmission } from './payment-reads';
import { changePlan } from '../../domain/submission/payment-state';

/**
 * POST /api/submissions/{id}/tier (CONTRACT §12): while the payment is due the owner may choose
 * another plan. The open PaymentIntent is cancelled first, at Stripe, so no card can pay the old
 * price afterwards; an intent that is already paid or being paid wins, and the plan stays. Free
 * sends the submission to the label at once (status pending, no payment). A paid plan keeps it
 * awaiting payment: the checkout then makes a new intent for the new price (it replaces the
 * cancelled one, whose id the row keeps for that).
 *
 * Without Stripe configured there is nothing to cancel here or to pay with, so the change goes
 * ahead; that is how an artist leaves a paid plan when payments are unavailable.
 */
export async function changeSubmissionTier(
  db: Db,
  stripe: Stripe | undefined,
  userId: string,
  submissionId: string,
  tier: PricingTier,
): Promise<void> {
  const submission = await findOwnedSubmission(db, userId, submissionId);
  if (!(PAYMENT_DUE_STATUSES as readonly string[]).includes(submission.status)) throw apiError('tier_change_not_allowed');
  // A finished video takes the Free plan only (decision 154).
  if (!plansFor(submission.submissionType).includes(tier)) throw apiError('plan_not_offered');
  if (submission.stripePaymentIntentId && stripe) await cancelIntent(stripe, submission.stripePaymentIntentId);

  const paid = isPaidTier(tier);
  await db.transaction(async (tx) => {
    const now = new Date();
    const [before] = await tx
      .select({ id: submissions.id, userId: submissions.userId, status: submissions.status, paymentStatus: submissions.paymentStatus })
      .from(submissions)
      .where(eq(submissions.id, submissionId))
      .for('update');
    // The payment may have completed meanwhile (a webhook between the read and here): then nothing changes.
    if (!before || !isPaymentDue(before.status)) throw apiError('tier_change_not_allowed');
    // Free sends it to the label: the status through the one transition, the plan with it (the payment state's verb).
    await changePlan(tx, before, { tier, amount: tierAmount(tier), paid, by: userId, now });
  });
}

/** Cancels the intent at Stripe; one that is already cancelled or gone is fine, a paid one is not. */
async function cancelIntent(stripe: Stripe, intentId: string): Promise<void> {
  try {
    await stripe.paymentIntents.cancel(intentId);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'resource_missing') return;
    if (code !== 'payment_intent_unexpected_state') throw error;
    const intent = await stripe.paymentIntents.retrieve(intentId);
    if (intent.status === 'canceled') return;
    if (intent.status === 'succeeded') throw apiError('already_paid');
    throw apiError('payment_in_progress');
  }
}
