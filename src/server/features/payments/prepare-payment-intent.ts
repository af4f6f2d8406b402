import type { PreparedPayment } from '@shared/payments';
import { isPaymentDue } from '@shared/submissions';
import { and, eq, isNull, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../platform/db/client';
import { submissions } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import {
  CURRENCY,
  expectedAmount,
  findOwnedSubmission,
  lockSubmission,
  type PaymentSubmission,
} from './payment-reads';
import { reopenCheckout } from '../../domain/submission/payment-state';
import { intentMetadata } from '../../domain/billing/gone-submission-payment';


/** Intents in these states can still be confirmed by the card form, so they are handed out again. */
const OPEN_INTENT_STATUSES = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

/**
 * POST /api/create-payment-intent (CONTRACT §6): the one open PaymentIntent of the caller's paid
 * submission, created on first use and reused afterwards. The amount comes from the tier, here;
 * nothing the client sends can change it. A retry after a failed payment reopens the submission
 * (payment_failed → payment_pending).
 */
export async function preparePaymentIntent(
  db: Db,
  stripe: Stripe,
  userId: string,
  submissionId: string,
): Promise<PreparedPayment> {
  const submission = await findOwnedSubmission(db, userId, submissionId);
  const amount = expectedAmount(submission);
  if (amount === null) throw apiError('not_a_paid_tier');
  if (!isPaymentDue(submission.status)) throw apiError('not_awaiting_payment');

  let intent = submission.stripePaymentIntentId
    ? await retrieveIfExists(stripe, submission.stripePaymentIntentId)
    : undefined;
  // Paid, but Stripe's signed event has not arrived yet: only that event may mark the submission paid.
  if (intent?.status === 'succeeded') throw apiError('already_paid');
  if (intent?.status === 'processing') throw apiError('payment_in_progress');

  if (intent && OPEN_INTENT_STATUSES.has(intent.status)) {
    // The metadata follows the submission too: a payment that succeeds after its submission is gone is documented from it.
    const metadata = intentMetadata(submission);
    const stale = (Object.keys(metadata) as (keyof typeof metadata)[]).some((key) => intent!.metadata?.[key] !== metadata[key]);
    if (intent.amount !== amount || intent.currency !== CURRENCY || stale) {
      intent = await stripe.paymentIntents.update(intent.id, { amount, currency: CURRENCY, metadata });
    }
  } else {
    intent = await createIntent(db, stripe, submission, amount);
  }

  await reopenFailedPayment(db, submission.id);
  if (!intent.client_secret) throw new Error(`PaymentIntent ${intent.id} came back without a client secret`);
  return { clientSecret: intent.client_secret, amount: (amount / 100).toFixed(2), currency: CURRENCY };
}

/**
 * A new intent for the submission. The idempotency key names the intent it replaces (none, or a
 * canceled one), so two checkouts opened at once get the same intent from Stripe rather than two.
 */
async function createIntent(db: Db, stripe: Stripe, submission: PaymentSubmission, amount: number) {
  const previous = submission.stripePaymentIntentId;
  const created = await stripe.paymentIntents.create(
    {
      amount,
      currency: CURRENCY,
      allowed_payment_method_types: ['card'],
      description: `Submission ${submission.id} (${submission.pricingTier} plan)`,
      // Who paid for what, kept at Stripe: the submission may be deleted before the payment succeeds (CONTRACT §21).
      metadata: intentMetadata(submission),
    },
    { idempotencyKey: `submission-${submission.id}-replaces-${previous ?? 'none'}` },
  );
  const stored = await db
    .update(submissions)
    .set({ stripePaymentIntentId: created.id, updatedAt: new Date() })
    .where(
      and(
        eq(submissions.id, submission.id),
        or(
          previous === null ? isNull(submissions.stripePaymentIntentId) : eq(submissions.stripePaymentIntentId, previous),
          eq(submissions.stripePaymentIntentId, created.id),
        ),
      ),
    )
    .returning({ id: submissions.id });
  if (stored.length > 0) return created;
  // Another request replaced the intent in the meantime: theirs is the submission's one intent.
  const [current] = await db
    .select({ intentId: submissions.stripePaymentIntentId })
    .from(submissions)
    .where(eq(submissions.id, submission.id));
  if (!current?.intentId) throw new Error(`Submission ${submission.id} lost its payment intent`);
  return stripe.paymentIntents.retrieve(current.intentId);
}

/** The stored intent, or undefined when Stripe no longer knows it (e.g. keys moved to another account). */
async function retrieveIfExists(stripe: Stripe, id: string): Promise<Stripe.PaymentIntent | undefined> {
  try {
    return await stripe.paymentIntents.retrieve(id);
  } catch (error) {
    if ((error as { code?: string }).code === 'resource_missing') return undefined;
    throw error;
  }
}

/** A new attempt after a failed payment: payment_failed → payment_pending, recorded in the history. */
async function reopenFailedPayment(db: Db, submissionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockSubmission(tx, { id: submissionId });
    if (current?.status !== 'payment_failed' || current.paymentStatus === 'succeeded') return;
    await reopenCheckout(tx, current);
  });
}
