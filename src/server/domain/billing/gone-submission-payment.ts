import type { FastifyBaseLogger } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { UNTITLED_WITHDRAWN_SUBMISSION, type BillingSeller } from '@shared/billing';
import { PRICING_TIERS, formatUsd, type PricingTier } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { billingDocuments, users } from '../../platform/db/schema';
import type { EmailQueue } from '../email/email-kinds';
import { issueBillingDocument } from './issue-document';

/**
 * What a PaymentIntent carries about its submission (set when the checkout creates it), so that a
 * payment can still be documented when its submission is gone: the artist, the title and the plan.
 */
export const INTENT_METADATA_KEYS = ['submissionId', 'pricingTier', 'userId', 'songTitle', 'artistName'] as const;

/** Stripe keeps a metadata value of at most 500 characters. */
const METADATA_VALUE_MAX = 500;

export function intentMetadata(submission: { id: string; pricingTier: PricingTier; userId: string; songTitle: string; artistName: string }): Record<(typeof INTENT_METADATA_KEYS)[number], string> {
  return {
    submissionId: submission.id,
    pricingTier: submission.pricingTier,
    userId: submission.userId,
    songTitle: submission.songTitle.slice(0, METADATA_VALUE_MAX),
    artistName: submission.artistName.slice(0, METADATA_VALUE_MAX),
  };
}

/**
 * Before the transaction, and only for a payment never invoiced (wasInvoiced): the money of a payment that succeeded for a submission that is gone
 * (withdrawn or deleted while a checkout tab was still open, CONTRACT §21) goes back at once,
 * through Stripe. Whatever was refunded already stays (a refund from Stripe's dashboard, or a
 * redelivery of the same event): Stripe refunds what is left, or answers that nothing is. A Stripe
 * that cannot be reached throws, so the event stays unrecorded and Stripe delivers it again.
 */
export async function refundGoneSubmissionPayment(stripe: Stripe, intent: Stripe.PaymentIntent, log: FastifyBaseLogger): Promise<void> {
  try {
    const refund = await stripe.refunds.create(
      { payment_intent: intent.id, reason: 'requested_by_customer', metadata: { submissionId: intent.metadata?.submissionId ?? '', reason: 'withdrawn' } },
      // Per intent, not per submission: the deletion's own refund (refund:{submission}) had other parameters.
      { idempotencyKey: `refund-gone:${intent.id}` },
    );
    log.info({ paymentIntentId: intent.id, refundId: refund.id }, 'payment of a deleted submission refunded');
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded') return;
    throw error;
  }
}

/**
 * In the event's transaction, after the refund: the invoice for what was charged and the credit
 * note for what went back, issued once per intent and kept under the artist's `GET /api/billing`
 * (documents outlive their submission, §21), and the artist is told the money is back. A second
 * call (another event of the same payment) finds both documents and does nothing more.
 */
export async function documentGoneSubmissionPayment(
  tx: Tx,
  outbox: EmailQueue,
  intent: Stripe.PaymentIntent,
  seller: BillingSeller,
): Promise<'documented' | 'already_documented'> {
  // Two events of one payment (its success and the refund's own charge.refunded) queue here.
  await tx.execute(sql`select pg_advisory_xact_lock(${GONE_PAYMENT_LOCK}, hashtext(${intent.id}))`);
  const metadata = intent.metadata ?? {};
  const submissionId = metadata.submissionId ?? null;
  const [artist] = metadata.userId ? await tx.select({ id: users.id }).from(users).where(eq(users.id, metadata.userId)).limit(1) : [];
  const pricingTier = (PRICING_TIERS as readonly string[]).includes(metadata.pricingTier ?? '') ? (metadata.pricingTier as PricingTier) : 'basic';
  const about = {
    id: null,
    userId: artist?.id ?? null,
    pricingTier,
    songTitle: metadata.songTitle || UNTITLED_WITHDRAWN_SUBMISSION,
    artistName: metadata.artistName ?? '',
  };
  const amountCents = intent.amount_received ?? intent.amount;
  const common = { submission: about, stripePaymentIntentId: intent.id, amountCents, currency: intent.currency, seller };
  if (await wasInvoiced(tx, intent.id)) return 'already_documented';
  await issueBillingDocument(tx, { kind: 'invoice', ...common });
  const creditNote = await issueBillingDocument(tx, { kind: 'credit_note', ...common });
  if (artist) {
    await outbox.queue(tx, {
      kind: 'refund_issued',
      userId: artist.id,
      data: {
        submissionId: submissionId ?? '',
        songTitle: about.songTitle,
        amount: formatUsd(amountCents / 100),
        // The submission was taken back before its payment went through: its billing page, not the submission, is linked.
        reason: 'withdrawn',
        creditNoteNumber: creditNote.number,
      },
    });
  }
  return 'documented';
}

/**
 * Whether the payment has its invoice: issued with its success while its submission existed (then
 * the deletion decided what to refund, CONTRACT §21, say nothing for delivered work), or by
 * documentGoneSubmissionPayment. Either way nothing is refunded or issued for it here.
 */
export async function wasInvoiced(db: Tx | Db, intentId: string): Promise<boolean> {
  const [invoice] = await db
    .select({ id: billingDocuments.id })
    .from(billingDocuments)
    .where(and(eq(billingDocuments.stripePaymentIntentId, intentId), eq(billingDocuments.kind, 'invoice')))
    .limit(1);
  return invoice !== undefined;
}

/** The advisory lock class of a deleted submission's payment (a fixed number no other lock uses). */
const GONE_PAYMENT_LOCK = 190_021;
