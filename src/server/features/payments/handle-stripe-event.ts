import type { BillingSeller } from '@shared/billing';
import { isPaymentDue } from '@shared/submissions';
import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { TIERS, deliveryDueAt, formatUsd } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { paymentEvents, submissions } from '../../platform/db/schema';
import { applyAccountUpdated } from './payouts';
import { issueBillingDocument } from '../../domain/billing/issue-document';
import { documentGoneSubmissionPayment, refundGoneSubmissionPayment, wasInvoiced } from '../../domain/billing/gone-submission-payment';
import * as paymentState from '../../domain/submission/payment-state';
import { isAllowedPaymentMove } from '../../domain/submission/transition';
import {
  CURRENCY,
  expectedAmount,
  lockSubmission,
  type PaymentSubmission,
} from './payment-reads';

type EventOutcome =
  /** Already handled once: nothing more happens. */
  | 'duplicate'
  /** A type this product does not act on. */
  | 'ignored'
  | 'applied'
  /** Valid, but the submission is already past it (out-of-order or stale event). */
  | 'unchanged'
  | 'unknown_submission'
  /** A payment that succeeded for a submission deleted meanwhile: refunded at once, and documented. */
  | 'refunded_deleted_submission'
  /** `account.updated` for a connected account no artist has. */
  | 'unknown_account'
  | 'amount_mismatch';

const HANDLED_EVENT_TYPES = ['payment_intent.succeeded', 'payment_intent.payment_failed', 'charge.refunded', 'account.updated'] as const;
type HandledEvent = Extract<Stripe.Event, { type: (typeof HANDLED_EVENT_TYPES)[number] }>;
const isHandled = (event: Stripe.Event): event is HandledEvent => (HANDLED_EVENT_TYPES as readonly string[]).includes(event.type);

/**
 * Acts on one verified Stripe event (CONTRACT §6, §21). The event id is recorded in
 * `payment_events` in the same transaction as its effect, so a redelivery changes nothing more and
 * a crash midway leaves the event unrecorded for Stripe to deliver again. The submission row is
 * locked and re-read before anything is decided: events may arrive late, twice or out of order,
 * and a succeeded payment never moves back. Where the event alone cannot tell where the payment
 * stands (a failure that may be older than a later attempt, a refund that may come before its
 * payment's success), the intent is read again from Stripe and the submission follows what Stripe
 * says now (docs/decisions/190-money-events-in-any-order.md).
 */
export async function handleStripeEvent(
  db: Db,
  outbox: EmailQueue,
  stripe: Stripe,
  event: Stripe.Event,
  log: FastifyBaseLogger,
  /** The seller now (the configuration), kept with an invoice or credit note this event issues. */
  seller: BillingSeller,
): Promise<EventOutcome> {
  if (!isHandled(event)) return 'ignored';
  if (event.type === 'charge.refunded') return markRefunded(db, outbox, stripe, event, log, seller);
  // A bonus payout account's state (CONTRACT §19); setting it again changes nothing, so no event record is needed.
  if (event.type === 'account.updated') return applyAccountUpdated(db, stripe, event, log);
  const intent = event.data.object;
  // A failure report may be older than a later attempt on the same intent: ask Stripe where it stands now.
  // Done before the transaction: if Stripe cannot answer, the event stays unrecorded and is redelivered.
  const current = event.type === 'payment_intent.payment_failed' ? await stripe.paymentIntents.retrieve(intent.id) : intent;
  const submissionIdHint = intent.metadata?.submissionId ?? null;
  const context = { eventId: event.id, type: event.type, paymentIntentId: intent.id };

  const outcome = await db.transaction(async (tx): Promise<EventOutcome | 'submission_gone'> => {
    const submission =
      (await lockSubmission(tx, { paymentIntentId: intent.id })) ??
      (submissionIdHint ? await lockSubmission(tx, { id: submissionIdHint }) : undefined);
    // Paid for a submission deleted meanwhile: settled outside this transaction (Stripe is asked to refund first).
    if (!submission && submissionIdHint && event.type === 'payment_intent.succeeded') return 'submission_gone';
    if (!(await recordEvent(tx, event, submissionIdHint))) return 'duplicate';
    if (!submission) {
      log.warn(context, 'Stripe event for a payment of no known submission');
      return 'unknown_submission';
    }

    if (event.type === 'payment_intent.succeeded') {
      // When Stripe recorded the success, not when this delivery of the event arrived: a webhook
      // Stripe retries hours later keeps the same `created`, so the deadline does not move.
      const succeededAt = new Date(event.created * 1000);
      return markPaymentSucceeded(tx, outbox, submission, intent, succeededAt, log, context, seller);
    }
    return markPaymentFailed(tx, submission, current, log, context);
  });
  return outcome === 'submission_gone' ? settleGoneSubmissionPayment(db, outbox, stripe, event, intent.id, { refundedInFull: false }, log, seller) : outcome;
}

/** Records the event as handled, in the transaction of its effect; false when it was handled before. */
async function recordEvent(tx: Tx, event: Stripe.Event, submissionId: string | null): Promise<boolean> {
  const recorded = await tx
    .insert(paymentEvents)
    .values({ id: event.id, type: event.type, submissionId })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return recorded.length > 0;
}

/**
 * A payment of a submission that is gone (CONTRACT §21). One that succeeded after its submission
 * was withdrawn or deleted (a checkout tab still open) is refunded at once through Stripe, then its
 * invoice and credit note are issued for the artist named in the intent's metadata. One invoiced
 * while its submission existed was settled by that deletion (refunded, or kept for delivered
 * work): it is not refunded again, and gets its credit note only if Stripe says it was refunded.
 * The intent is read again from Stripe unless the caller just did: only a payment Stripe has as
 * succeeded is refunded.
 */
async function settleGoneSubmissionPayment(
  db: Db,
  outbox: EmailQueue,
  stripe: Stripe,
  event: Stripe.Event,
  intentId: string,
  known: { intent?: Stripe.PaymentIntent; refundedInFull: boolean },
  log: FastifyBaseLogger,
  seller: BillingSeller,
): Promise<EventOutcome> {
  const [seen] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, event.id)).limit(1);
  if (seen) return 'duplicate';
  const intent = known.intent ?? (await retrieveIntent(stripe, intentId));
  const context = { eventId: event.id, type: event.type, paymentIntentId: intentId, submissionId: intent?.metadata?.submissionId };
  const paidAfterDeletion = intent?.status === 'succeeded' && !(await wasInvoiced(db, intent.id));
  const refunded = paidAfterDeletion ? await refundGoneSubmissionPayment(stripe, intent, log) : known.refundedInFull;
  return db.transaction(async (tx) => {
    if (!(await recordEvent(tx, event, intent?.metadata?.submissionId ?? null))) return 'duplicate';
    if (intent?.status !== 'succeeded') {
      log.warn({ ...context, intentStatus: intent?.status ?? null }, 'Stripe event for a payment Stripe does not have as made, of no known submission');
      return 'unknown_submission';
    }
    if ((await documentGoneSubmissionPayment(tx, outbox, intent, { refunded, seller })) === 'already_documented') {
      log.info(context, 'payment of a deleted submission was settled before');
      return 'unchanged';
    }
    if (!paidAfterDeletion) return 'applied';
    log.warn({ ...context, refunded }, 'payment succeeded for a deleted submission: refunded at once, with its invoice and credit note');
    return 'refunded_deleted_submission';
  });
}

type LogContext = Record<string, unknown>;

async function markPaymentSucceeded(
  tx: Tx,
  outbox: EmailQueue,
  submission: PaymentSubmission,
  intent: Stripe.PaymentIntent,
  succeededAt: Date,
  log: FastifyBaseLogger,
  context: LogContext,
  seller: BillingSeller,
): Promise<EventOutcome> {
  const expected = expectedAmount(submission);
  const received = intent.amount_received ?? intent.amount;
  if (expected === null || intent.amount !== expected || received !== expected || intent.currency !== CURRENCY) {
    // Never mark paid for a different sum: the team must look at it (refund or charge the difference).
    log.error(
      { ...context, submissionId: submission.id, expected, amount: intent.amount, received, currency: intent.currency },
      'Stripe payment amount does not match the submission; submission left unchanged',
    );
    return 'amount_mismatch';
  }
  if (submission.paymentStatus === 'succeeded' || submission.paymentStatus === 'refunded') {
    if (submission.stripePaymentIntentId !== intent.id) {
      log.error({ ...context, submissionId: submission.id }, 'second payment for an already paid submission; refund it');
    }
    return 'unchanged';
  }
  const changed = await paymentState.markPaymentSucceeded(tx, submission, {
    // A submission the team has already moved on (e.g. archived) keeps its status; only the payment is recorded.
    joinsQueue: isPaymentDue(submission.status),
    // The intent that was paid is the submission's payment id, also when it was found by its metadata.
    paymentIntentId: intent.id,
    // The tier's delivery promise runs from the moment the payment succeeded (CONTRACT §13).
    dueAt: deliveryDueAt(submission.pricingTier, succeededAt),
  });
  // The invoice is issued with the change that records the payment (CONTRACT §19): for what Stripe
  // charged, numbered in this transaction so that a rollback takes the number back.
  const invoice = await issueBillingDocument(tx, {
    kind: 'invoice',
    submission,
    stripePaymentIntentId: intent.id,
    amountCents: received,
    currency: intent.currency,
    seller,
  });
  // The receipt goes out with the change that records the payment, or not at all.
  await outbox.queue(tx, {
    kind: 'payment_received',
    userId: submission.userId,
    data: {
      submissionId: submission.id,
      songTitle: submission.songTitle,
      tierName: TIERS[submission.pricingTier].name,
      amount: formatUsd(expected / 100),
      paymentIntentId: intent.id,
      paidAt: succeededAt.toISOString(),
      invoiceNumber: invoice.number,
    },
  });
  log.info({ ...context, submissionId: submission.id }, 'payment succeeded');
  return changed ? 'applied' : 'unchanged';
}

async function markPaymentFailed(
  tx: Tx,
  submission: PaymentSubmission,
  current: Stripe.PaymentIntent,
  log: FastifyBaseLogger,
  context: LogContext,
): Promise<EventOutcome> {
  const stale =
    submission.paymentStatus === 'succeeded' ||
    submission.paymentStatus === 'refunded' ||
    submission.stripePaymentIntentId !== current.id ||
    current.status === 'succeeded' ||
    current.status === 'processing';
  if (stale) {
    log.info({ ...context, submissionId: submission.id, intentStatus: current.status }, 'stale payment failure ignored');
    return 'unchanged';
  }
  const changed = await paymentState.markPaymentFailed(tx, submission);
  log.info({ ...context, submissionId: submission.id, changed }, 'payment failed');
  return changed ? 'applied' : 'unchanged';
}

/**
 * `charge.refunded` (CONTRACT §13, §21): a full refund of the submission's payment marks it
 * `refunded`, with its credit note. A partial refund is only logged: the product refunds in full,
 * so one made in Stripe's dashboard is for the team to look at.
 *
 * Stripe does not promise the order of its events: the refund of a payment may arrive before the
 * payment's `payment_intent.succeeded` (the endpoint was down while the team refunded from the
 * dashboard). A refunded charge was a payment taken, so when the submission has not recorded it yet
 * the intent is read again from Stripe and, if it succeeded, its success is recorded first (the
 * invoice, the receipt, the queue) exactly as its own event would, then the refund: whatever the
 * order, the payment ends refunded with its invoice and its credit note, and nothing more to pay.
 */
async function markRefunded(
  db: Db,
  outbox: EmailQueue,
  stripe: Stripe,
  event: Stripe.ChargeRefundedEvent,
  log: FastifyBaseLogger,
  seller: BillingSeller,
): Promise<EventOutcome> {
  const charge = event.data.object;
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null);
  const context = { eventId: event.id, type: event.type, chargeId: charge.id, paymentIntentId: intentId };
  // Asked before the transaction, so a Stripe that cannot answer leaves the event to be redelivered;
  // not asked when the submission has the payment recorded already (the usual order).
  const intent = intentId && !(await isRecordedAsPaid(db, intentId)) ? await retrieveIntent(stripe, intentId) : undefined;
  const submissionIdHint = intent?.metadata?.submissionId ?? charge.metadata?.submissionId ?? null;

  const outcome = await db.transaction(async (tx): Promise<EventOutcome | 'submission_gone'> => {
    const submission = intentId
      ? ((await lockSubmission(tx, { paymentIntentId: intentId })) ??
        (intent && submissionIdHint ? await lockSubmission(tx, { id: submissionIdHint }) : undefined))
      : undefined;
    if (!submission && intent?.status === 'succeeded' && submissionIdHint) return 'submission_gone';
    if (!(await recordEvent(tx, event, submissionIdHint))) return 'duplicate';
    if (!submission) {
      log.warn(context, 'refund of a payment of no known submission');
      return 'unknown_submission';
    }
    let target = submission;
    if (intent?.status === 'succeeded' && submission.paymentStatus !== 'succeeded' && submission.paymentStatus !== 'refunded') {
      // The refund came first: record the payment's success as its own event would have, dated by its charge.
      const succeededAt = new Date((charge.created ?? event.created) * 1000);
      const paid = await markPaymentSucceeded(tx, outbox, submission, intent, succeededAt, log, context, seller);
      if (paid === 'amount_mismatch') return paid;
      target = (await lockSubmission(tx, { id: submission.id }))!;
    }
    if (target.stripePaymentIntentId !== intentId) {
      log.warn({ ...context, submissionId: target.id }, 'refund of a payment that is not the submission’s left as it is');
      return 'unchanged';
    }
    if (!charge.refunded || charge.amount_refunded < charge.amount) {
      log.warn({ ...context, submissionId: target.id, amountRefunded: charge.amount_refunded }, 'partial refund left as it is');
      return 'unchanged';
    }
    if (!isAllowedPaymentMove('refunded', target.paymentStatus)) {
      log.warn({ ...context, submissionId: target.id, paymentStatus: target.paymentStatus }, 'refund of a payment never recorded as made left as it is');
      return 'unchanged';
    }
    const changed = await paymentState.markPaymentRefunded(tx, target, { by: null, now: new Date() });
    // A refund made outside the product (Stripe's dashboard) gets its credit note here; one made
    // through refundSubmission has it already, and this finds it.
    if (target.paymentStatus === 'succeeded' || target.paymentStatus === 'refunded') {
      await issueBillingDocument(tx, {
        kind: 'credit_note',
        submission: target,
        stripePaymentIntentId: intentId,
        amountCents: charge.amount_refunded,
        currency: charge.currency,
        seller,
      });
    }
    log.info({ ...context, submissionId: target.id }, 'payment refunded');
    return changed ? 'applied' : 'unchanged';
  });
  if (outcome !== 'submission_gone') return outcome;
  const refundedInFull = charge.refunded && charge.amount_refunded >= charge.amount;
  return settleGoneSubmissionPayment(db, outbox, stripe, event, intentId!, { intent, refundedInFull }, log, seller);
}

/** Whether a submission holds this intent as its payment, succeeded or refunded already. */
async function isRecordedAsPaid(db: Db, intentId: string): Promise<boolean> {
  const [row] = await db.select({ paymentStatus: submissions.paymentStatus }).from(submissions).where(eq(submissions.stripePaymentIntentId, intentId)).limit(1);
  return row?.paymentStatus === 'succeeded' || row?.paymentStatus === 'refunded';
}

/** The intent as Stripe has it now; undefined when Stripe does not know it (e.g. keys moved to another account). */
async function retrieveIntent(stripe: Stripe, id: string): Promise<Stripe.PaymentIntent | undefined> {
  try {
    return await stripe.paymentIntents.retrieve(id);
  } catch (error) {
    if ((error as { code?: string }).code === 'resource_missing') return undefined;
    throw error;
  }
}
