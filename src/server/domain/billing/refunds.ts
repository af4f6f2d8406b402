import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, isNotNull, isNull, lt, ne } from 'drizzle-orm';
import Stripe from 'stripe';
import { formatUsd } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { submissions, type SubmissionRow } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError } from '../../platform/errors';
import { recordHistory } from '../submission/history';
import { markPaymentRefunded } from '../submission/payment-state';
import { invoiceOf, issueBillingDocument } from './issue-document';

import type { BillingSeller } from '@shared/billing';
import type { RefundReason } from '@shared/submissions';

export type { RefundReason };

/**
 * The names of the scheduled refunds (declared by features/billing/refund-jobs.ts): rejections not
 * refunded at once, and late deliveries. Their names predate that module and are kept: the queue
 * knows its schedules by name.
 */
export const REJECTION_REFUND_JOB = 'production.rejection-refunds';
export const LATE_REFUND_JOB = 'production.late-delivery-refunds';

/**
 * A full refund of the submission's payment through Stripe's refunds API (CONTRACT §13).
 *
 * Safe twice, one after the other or at the same moment: Stripe is asked with an idempotency
 * key made from the submission, so two calls get the same refund, and only the call whose
 * conditional update finds no refund recorded yet writes the history and emails the artist.
 * A charge Stripe reports as already refunded (say from its dashboard) is recorded as refunded.
 * `paymentStatus` turns `refunded` when Stripe answers that the refund succeeded, or when its
 * `charge.refunded` event arrives, whichever comes first.
 *
 * Given a transaction holding the submission's row lock (the removal of paid work,
 * domain/submission/remove-submission.ts), Stripe is asked inside it, with `stripeOptions`
 * bounding how long the lock is held, and the refund is recorded in a savepoint of it.
 */
export async function refundSubmission(
  db: Db | Tx,
  stripe: Stripe,
  outbox: EmailQueue,
  input: { submissionId: string; reason: RefundReason; actorId: string | null; now: Date; seller: BillingSeller },
  log: FastifyBaseLogger,
  stripeOptions: Stripe.RequestOptions = {},
  /** The submission's row as the caller's lock holds it (the removal's): not read again. */
  locked?: SubmissionRow,
): Promise<'refunded' | 'already_refunded'> {
  const [submission] = locked && locked.id === input.submissionId ? [locked] : await db.select().from(submissions).where(eq(submissions.id, input.submissionId)).limit(1);
  if (!submission || submission.status === 'draft') throw apiError('submission_not_found');
  if (submission.refundRequestedAt || submission.paymentStatus === 'refunded') return 'already_refunded';
  if (submission.paymentStatus !== 'succeeded' || !submission.stripePaymentIntentId) {
    throw apiError('not_refundable', 'Only a payment that went through can be refunded');
  }

  // A submission the label turned down is refunded because of that, never "for a late delivery"
  // (CONTRACT §19): the sweep may reach one whose rejection refund has not gone through yet.
  const reason: RefundReason = input.reason === 'late_delivery' && submission.status === 'rejected' ? 'rejected' : input.reason;

  let refund: Stripe.Refund | null = null;
  try {
    refund = await stripe.refunds.create(
      {
        payment_intent: submission.stripePaymentIntentId,
        reason: 'requested_by_customer',
        metadata: { submissionId: submission.id, reason },
      },
      { ...stripeOptions, idempotencyKey: `refund:${submission.id}` },
    );
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded')) {
      log.error({ err: error, submissionId: submission.id }, 'Stripe refund failed');
      if (error instanceof Stripe.errors.StripeInvalidRequestError) throw apiError('not_refundable', error.message);
      throw apiError('stripe_unavailable');
    }
  }

  const settled = refund === null || refund.status === 'succeeded';
  const recorded = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(submissions)
      .set({ refundReason: reason, refundRequestedAt: input.now, stripeRefundId: refund?.id ?? null, updatedAt: input.now })
      .where(and(eq(submissions.id, submission.id), isNull(submissions.refundRequestedAt)))
      .returning({ id: submissions.id, userId: submissions.userId, status: submissions.status, paymentStatus: submissions.paymentStatus });
    if (!row) return false;
    await recordHistory(tx, submission.id, { kind: 'refund', by: input.actorId, to: reason, at: input.now });
    if (settled) await markPaymentRefunded(tx, row, { by: input.actorId, now: input.now });
    // The credit note is issued with the refund's record (CONTRACT §19), for the invoice's amount.
    const invoice = await invoiceOf(tx, submission.id);
    const creditNote = await issueBillingDocument(tx, {
      kind: 'credit_note',
      submission,
      stripePaymentIntentId: submission.stripePaymentIntentId,
      amountCents: refund?.amount ?? invoice?.amountCents ?? Math.round(Number(submission.amount ?? 0) * 100),
      currency: refund?.currency ?? invoice?.currency ?? 'usd',
      seller: input.seller,
    });
    await outbox.queue(tx, {
      kind: 'refund_issued',
      userId: submission.userId,
      data: {
        submissionId: submission.id,
        songTitle: submission.songTitle,
        amount: formatUsd(submission.amount ?? 0),
        reason,
        creditNoteNumber: creditNote.number,
      },
    });
    return true;
  });
  log.info({ submissionId: submission.id, reason, refundId: refund?.id, recorded }, 'payment refunded');
  return recorded ? 'refunded' : 'already_refunded';
}

/**
 * THE refund rule (CONTRACT §19, §21): paid work the label turns down, or that its artist
 * withdraws (or the team deletes), before anything was delivered is refunded in full. A payment
 * that went through and was not refunded yet, of a submission with no delivery.
 */
export function isRefundOwed(submission: Pick<SubmissionRow, 'paymentStatus' | 'refundRequestedAt' | 'deliveredAt' | 'stripePaymentIntentId'>): boolean {
  return submission.paymentStatus === 'succeeded' && submission.refundRequestedAt === null && submission.deliveredAt === null && submission.stripePaymentIntentId !== null;
}

/** The same rule as a query's condition, for the sweeps that look for what is owed. */
export const refundOwedCondition = () =>
  and(eq(submissions.paymentStatus, 'succeeded'), isNull(submissions.refundRequestedAt), isNull(submissions.deliveredAt), isNotNull(submissions.stripePaymentIntentId));

/** How many late submissions one run refunds; the next run (5 minutes later) takes the rest. */
const SWEEP_BATCH = 50;

/**
 * LATE_DELIVERY_REFUND=auto: the scheduled job refunds every paid submission not delivered by
 * its `dueAt` and tells the artist. One failing refund does not stop the others.
 */
export async function refundLateDeliveries(
  db: Db,
  stripe: Stripe,
  outbox: EmailQueue,
  input: { now: Date; seller: BillingSeller },
  log: FastifyBaseLogger,
): Promise<number> {
  const { now, seller } = input;
  const late = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        isNotNull(submissions.dueAt),
        lt(submissions.dueAt, now),
        refundOwedCondition(),
        // Turned down: refunded for that reason (refundRejected), not as late.
        ne(submissions.status, 'rejected'),
      ),
    )
    .orderBy(asc(submissions.dueAt))
    .limit(SWEEP_BATCH);
  let refunded = 0;
  for (const { id } of late) {
    try {
      if ((await refundSubmission(db, stripe, outbox, { submissionId: id, reason: 'late_delivery', actorId: null, now, seller }, log)) === 'refunded') {
        refunded++;
      }
    } catch (error) {
      log.error({ err: error, submissionId: id }, 'late-delivery refund failed; the next run tries again');
    }
  }
  return refunded;
}

/**
 * CONTRACT §19: a paid submission the label turned down before delivering anything is refunded in
 * full, with the reason `rejected`. Called after the rejection is committed, with the submissions
 * it turned down (or, by the backstop job, with none: it then finds them itself), so a Stripe
 * outage at that moment leaves the refund to the next run rather than undoing the rejection. Safe
 * twice and twice at once: refundSubmission makes one refund and one credit note.
 */
export async function refundRejected(
  db: Db,
  stripe: Stripe,
  outbox: EmailQueue,
  input: { submissionIds?: readonly string[]; actorId: string | null; now: Date; seller: BillingSeller },
  log: FastifyBaseLogger,
): Promise<number> {
  if (input.submissionIds && input.submissionIds.length === 0) return 0;
  const owed = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(
      and(
        input.submissionIds ? inArray(submissions.id, [...input.submissionIds]) : undefined,
        eq(submissions.status, 'rejected'),
        refundOwedCondition(),
      ),
    )
    .orderBy(asc(submissions.updatedAt))
    .limit(SWEEP_BATCH);
  let refunded = 0;
  for (const { id } of owed) {
    try {
      const outcome = await refundSubmission(db, stripe, outbox, { submissionId: id, reason: 'rejected', actorId: input.actorId, now: input.now, seller: input.seller }, log);
      if (outcome === 'refunded') refunded++;
    } catch (error) {
      log.error({ err: error, submissionId: id }, 'refund of a rejected submission failed; the backstop job tries again');
    }
  }
  return refunded;
}
