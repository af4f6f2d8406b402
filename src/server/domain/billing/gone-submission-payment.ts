import type { FastifyBaseLogger } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { UNTITLED_WITHDRAWN_SUBMISSION, type BillingDocumentKind, type BillingSeller } from '@shared/billing';
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
 * Before the transaction, and only for a payment never invoiced (wasInvoiced): the money of a
 * payment that succeeded for a submission that is gone (withdrawn or deleted while a checkout tab
 * was still open, CONTRACT §21) goes back at once, through Stripe. Whatever was refunded already
 * stays (a refund from Stripe's dashboard, or a redelivery of the same event): Stripe refunds what
 * is left, or answers that nothing is. Answers whether the payment is now refunded in full. A
 * Stripe that cannot be reached throws, so the event stays unrecorded and Stripe delivers it again;
 * a refund Stripe refuses (say a disputed charge) is logged for the team and answered false.
 */
export async function refundGoneSubmissionPayment(stripe: Stripe, intent: Stripe.PaymentIntent, log: FastifyBaseLogger): Promise<boolean> {
  try {
    const refund = await stripe.refunds.create(
      { payment_intent: intent.id, reason: 'requested_by_customer', metadata: { submissionId: intent.metadata?.submissionId ?? '', reason: 'withdrawn' } },
      // Per intent, not per submission: the deletion's own refund (refund:{submission}) had other parameters.
      { idempotencyKey: `refund-gone:${intent.id}` },
    );
    log.info({ paymentIntentId: intent.id, refundId: refund.id }, 'payment of a deleted submission refunded');
    return true;
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    if (error.code === 'charge_already_refunded') return true;
    log.error({ err: error, paymentIntentId: intent.id }, 'Stripe refused to refund the payment of a deleted submission; refund it from the dashboard');
    return false;
  }
}

/**
 * In the event's transaction: the documents of a payment whose submission is gone, each issued
 * once per intent and kept under the artist's `GET /api/billing` (documents outlive their
 * submission, §21). A payment never invoiced gets its invoice for what was charged; a payment
 * refunded in full gets its credit note (also one invoiced while its submission existed and
 * refunded from Stripe's dashboard after the deletion). The artist is told when the money of a
 * payment made after its submission was gone is back. A second call finds the documents and does
 * nothing more.
 */
export async function documentGoneSubmissionPayment(
  tx: Tx,
  outbox: EmailQueue,
  intent: Stripe.PaymentIntent,
  input: { refunded: boolean; seller: BillingSeller },
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
  const common = { submission: about, stripePaymentIntentId: intent.id, amountCents, currency: intent.currency, seller: input.seller };
  const paidAfterDeletion = !(await wasInvoiced(tx, intent.id));
  const credited = await hasDocument(tx, intent.id, 'credit_note');
  if (!paidAfterDeletion && (credited || !input.refunded)) return 'already_documented';
  if (paidAfterDeletion) await issueBillingDocument(tx, { kind: 'invoice', ...common });
  if (!input.refunded || credited) return 'documented';
  const creditNote = await issueBillingDocument(tx, { kind: 'credit_note', ...common });
  if (paidAfterDeletion && artist) {
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
 * documentGoneSubmissionPayment. Either way it is not refunded again here.
 */
export function wasInvoiced(db: Tx | Db, intentId: string): Promise<boolean> {
  return hasDocument(db, intentId, 'invoice');
}

async function hasDocument(db: Tx | Db, intentId: string, kind: BillingDocumentKind): Promise<boolean> {
  const [document] = await db
    .select({ id: billingDocuments.id })
    .from(billingDocuments)
    .where(and(eq(billingDocuments.stripePaymentIntentId, intentId), eq(billingDocuments.kind, kind)))
    .limit(1);
  return document !== undefined;
}

/** The advisory lock class of a deleted submission's payment (a fixed number no other lock uses). */
const GONE_PAYMENT_LOCK = 190_021;
