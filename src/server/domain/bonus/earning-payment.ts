import { and, eq, isNull, ne } from 'drizzle-orm';
import type { EarningStatus } from '@shared/production';
import type { Tx } from '../../platform/db/client';
import { bonusEarnings } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { queueWebhookEvent } from '../webhook/queue-webhook-event';

type EarningRow = typeof bonusEarnings.$inferSelect;

/** What the loser of "paid twice" is told: who paid it first (CONTRACT §21). */
const ALREADY_PAID_MESSAGE = {
  byTransfer: 'This earning is already paid by a Stripe transfer.',
  byHand: 'This earning is already marked paid, so no transfer is made.',
};

const alreadyPaid = (earning: Pick<EarningRow, 'transferId' | 'status'>) =>
  // A void earning (CONTRACT §25) is never paid.
  earning.status === 'void' ? apiError('earning_void') : apiError('already_paid', earning.transferId ? ALREADY_PAID_MESSAGE.byTransfer : ALREADY_PAID_MESSAGE.byHand);

/**
 * The owed earning, locked for the rest of `tx`: the Stripe payout holds it while it transfers, so
 * a "mark paid" at the same moment waits and then finds it paid. Paid already → 409 `already_paid`.
 */
export async function lockOwedEarning(tx: Tx, submissionId: string): Promise<EarningRow> {
  const [earning] = await tx.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId)).for('update');
  if (!earning) throw apiError('earning_not_found');
  if (earning.status !== 'owed') throw alreadyPaid(earning);
  return earning;
}

/**
 * THE writer of an earning's paid state (CONTRACT §13, §19, §21): the Stripe payout (with its
 * transfer) and the team's "mark paid" (without) both call it. Only an owed earning becomes paid,
 * in one conditional UPDATE, so of two payments at once the one that commits first wins and the
 * other is a 409 `already_paid`, on PostgreSQL's row lock as on PGlite's one connection.
 */
export async function markEarningPaid(tx: Tx, input: { submissionId: string; by: string; transferId: string | null; now: Date }): Promise<EarningRow> {
  const [row] = await tx
    .update(bonusEarnings)
    .set({ status: 'paid' satisfies EarningStatus, paidAt: input.now, paidBy: input.by, transferId: input.transferId })
    .where(and(eq(bonusEarnings.submissionId, input.submissionId), eq(bonusEarnings.status, 'owed')))
    .returning();
  if (row) {
    // `payout.paid` (CONTRACT §28): by a Stripe transfer, or marked paid by hand (transferId null).
    await queueWebhookEvent(
      tx,
      'payout.paid',
      { submissionId: row.submissionId, amount: row.amount, currency: 'usd', transferId: row.transferId, paidAt: input.now.toISOString() },
      input.now,
    );
    return row;
  }
  const [earning] = await tx.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, input.submissionId));
  if (!earning) throw apiError('earning_not_found');
  throw alreadyPaid(earning);
}

/**
 * The team takes back a "mark paid" made by mistake: the earning is owed again. One a Stripe
 * transfer paid keeps its record (CONTRACT §19): the money has moved.
 */
export async function markEarningOwed(tx: Tx, submissionId: string): Promise<EarningRow> {
  const [row] = await tx
    .update(bonusEarnings)
    .set({ status: 'owed' satisfies EarningStatus, paidAt: null, paidBy: null })
    .where(and(eq(bonusEarnings.submissionId, submissionId), isNull(bonusEarnings.transferId), ne(bonusEarnings.status, 'void' satisfies EarningStatus)))
    .returning();
  if (row) return row;
  const [byTransfer] = await tx.select({ status: bonusEarnings.status }).from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId));
  if (byTransfer?.status === 'void') throw apiError('earning_void');
  throw apiError(byTransfer ? 'earning_paid_by_transfer' : 'earning_not_found');
}

/**
 * A hit the second look withdrew (CONTRACT §25): an earning it made possible that is still owed
 * becomes `void` with the reason. Only an owed one: a paid earning is clawed back instead
 * (withdraw-hit.ts), never unpaid.
 */
export async function markEarningVoid(tx: Tx, input: { submissionId: string; reason: string; now: Date }): Promise<void> {
  await tx
    .update(bonusEarnings)
    .set({ status: 'void' satisfies EarningStatus, voidReason: input.reason, voidedAt: input.now })
    .where(and(eq(bonusEarnings.submissionId, input.submissionId), eq(bonusEarnings.status, 'owed')));
}
