import { eq } from 'drizzle-orm';
import type { StatusChangeReason } from '@shared/admin';
import { isPaidTier, type PaymentStatus, type PricingTier, type SubmissionStatus } from '@shared/submissions';
import type { Tx } from '../../platform/db/client';
import { submissions } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { queueWebhookEvent } from '../webhook/queue-webhook-event';
import { recordHistory } from './history';
import { ALLOWED_PAYMENT_MOVES, isAllowedPaymentMove, transitionSubmissions, type PaymentMove } from './transition';

/** A submission whose payment is about to move, as the caller read it locked FOR UPDATE in `tx`. */
export interface PaymentTarget {
  id: string;
  userId: string;
  status: SubmissionStatus;
  paymentStatus: PaymentStatus | null;
}

/** A submission sent to the label starts owing its plan's price, or nothing on the free plan (CONTRACT §12). */
export function initialPaymentState(tier: PricingTier): { paymentStatus: PaymentStatus | null } {
  return { paymentStatus: isPaidTier(tier) ? 'pending' : null };
}

/** The status that moves with a payment's move, and why (ALLOWED_STATUS_MOVES). */
interface StatusMove {
  to: SubmissionStatus;
  reason: StatusChangeReason;
}

/**
 * The one way a submission's payment state is written (ARCHITECTURE "one writer per fact"): checks
 * the move against ALLOWED_PAYMENT_MOVES, moves the status with it through the one transition when
 * asked, writes the payment's columns, and records a `payment_status` history row when it really
 * changed. Answers whether anything changed. The verbs below name each move; nothing else in the
 * server assigns `paymentStatus` (a test scans the tree).
 */
async function movePayment(
  tx: Tx,
  target: PaymentTarget,
  move: PaymentMove,
  input: { by: string | null; now: Date; status?: StatusMove; columns?: Partial<Pick<typeof submissions.$inferInsert, 'stripePaymentIntentId' | 'dueAt' | 'pricingTier' | 'amount'>> },
): Promise<boolean> {
  if (!isAllowedPaymentMove(move, target.paymentStatus)) {
    throw apiError('conflict', `A payment cannot move from ${target.paymentStatus ?? 'none'} (${move})`);
  }
  const to = ALLOWED_PAYMENT_MOVES[move].to;
  const paymentMoves = target.paymentStatus !== to;
  const statusMoves = input.status !== undefined && input.status.to !== target.status;
  const columns = Object.fromEntries(Object.entries(input.columns ?? {}).filter(([, value]) => value !== undefined));
  if (!paymentMoves && !statusMoves && Object.keys(columns).length === 0) return false;
  if (statusMoves) await transitionSubmissions(tx, [target], { to: input.status!.to, reason: input.status!.reason, by: input.by, now: input.now });
  await tx
    .update(submissions)
    .set({ ...columns, paymentStatus: to, updatedAt: input.now })
    .where(eq(submissions.id, target.id));
  if (paymentMoves) await recordHistory(tx, target.id, { kind: 'payment_status', by: input.by, from: target.paymentStatus, to, at: input.now });
  // The label's other tools hear the money move in the same transaction (CONTRACT §28).
  if (paymentMoves && (to === 'succeeded' || to === 'refunded')) {
    await queueWebhookEvent(
      tx,
      to === 'succeeded' ? 'payment.succeeded' : 'refund.created',
      async () => {
        const [row] = await tx
          .select({ amount: submissions.amount, pricingTier: submissions.pricingTier, paymentIntentId: submissions.stripePaymentIntentId, refundId: submissions.stripeRefundId })
          .from(submissions)
          .where(eq(submissions.id, target.id));
        return {
          submissionId: target.id,
          amount: row?.amount ?? null,
          currency: 'usd',
          pricingTier: row?.pricingTier ?? null,
          paymentIntentId: row?.paymentIntentId ?? null,
          ...(to === 'refunded' ? { refundId: row?.refundId ?? null } : {}),
          at: input.now.toISOString(),
        };
      },
      input.now,
    );
  }
  return true;
}

/**
 * Stripe confirmed the payment (CONTRACT §6, §13): `succeeded`, with the intent that was paid and
 * the delivery deadline; a submission still awaiting payment joins the team's queue.
 */
export function markPaymentSucceeded(
  tx: Tx,
  target: PaymentTarget,
  input: { paymentIntentId: string; dueAt: Date | null; joinsQueue: boolean; now?: Date },
): Promise<boolean> {
  return movePayment(tx, target, 'succeeded', {
    by: null,
    now: input.now ?? new Date(),
    status: input.joinsQueue ? { to: 'pending', reason: 'payment_succeeded' } : undefined,
    columns: { stripePaymentIntentId: input.paymentIntentId, dueAt: input.dueAt },
  });
}

/** Stripe reported the payment failed (CONTRACT §6): a submission awaiting it shows the failure. */
export function markPaymentFailed(tx: Tx, target: PaymentTarget, now = new Date()): Promise<boolean> {
  return movePayment(tx, target, 'failed', {
    by: null,
    now,
    status: target.status === 'payment_pending' ? { to: 'payment_failed', reason: 'payment_failed' } : undefined,
  });
}

/**
 * The payment went back to the card (CONTRACT §13, §19, §21): Stripe answered the refund, or its
 * `charge.refunded` event arrived, whichever came first; the second finds it refunded already.
 */
export function markPaymentRefunded(tx: Tx, target: PaymentTarget, input: { by: string | null; now: Date }): Promise<boolean> {
  return movePayment(tx, target, 'refunded', input);
}

/** The artist opens the checkout again after a failed payment (CONTRACT §6). */
export function reopenCheckout(tx: Tx, target: PaymentTarget, now = new Date()): Promise<boolean> {
  return movePayment(tx, target, 'checkout_reopened', { by: null, now, status: { to: 'payment_pending', reason: 'checkout_reopened' } });
}

/**
 * The artist picks another plan while the payment is due (CONTRACT §12). A paid plan only changes
 * the price to pay; the free one sends the submission to the label and leaves nothing owed.
 */
export async function changePlan(
  tx: Tx,
  target: PaymentTarget,
  input: { tier: PricingTier; amount: string | null; paid: boolean; by: string; now: Date },
): Promise<void> {
  const plan = { pricingTier: input.tier, amount: input.amount };
  if (input.paid) {
    await tx.update(submissions).set({ ...plan, updatedAt: input.now }).where(eq(submissions.id, target.id));
    return;
  }
  await movePayment(tx, target, 'plan_changed', { by: input.by, now: input.now, status: { to: 'pending', reason: 'tier_changed' }, columns: plan });
}
