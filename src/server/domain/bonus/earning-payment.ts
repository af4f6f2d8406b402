import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import type { ShareStatus } from '@shared/payees';
import type { EarningStatus } from '@shared/production';
import type { Tx } from '../../platform/db/client';
import { bonusEarnings, earningShares, type EarningShareRow } from '../../platform/db/schema';
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
 * THE writer of an earning's paid state (CONTRACT §13, §19, §21, §24), by hand: the team's "mark
 * paid" marks every unpaid share paid (without a transfer) and the earning with them. Only an owed
 * earning becomes paid, in one conditional UPDATE, so of a "mark paid" and a Stripe payout at once
 * the one that commits first wins and the other is a 409 `already_paid`, on PostgreSQL's row lock
 * as on PGlite's one connection.
 */
export async function markEarningPaid(tx: Tx, input: { submissionId: string; by: string; transferId: string | null; now: Date }): Promise<EarningRow> {
  const [row] = await tx
    .update(bonusEarnings)
    .set({ status: 'paid' satisfies EarningStatus, paidAt: input.now, paidBy: input.by, transferId: input.transferId })
    .where(and(eq(bonusEarnings.submissionId, input.submissionId), eq(bonusEarnings.status, 'owed')))
    .returning();
  if (row) {
    await tx
      .update(earningShares)
      .set({ status: 'paid' satisfies ShareStatus, paidAt: input.now, paidBy: input.by })
      .where(and(eq(earningShares.submissionId, input.submissionId), eq(earningShares.status, 'unpaid')));
    // `payout.paid` (CONTRACT §28), marked paid by hand: no transfer.
    await queueWebhookEvent(
      tx,
      'payout.paid',
      { submissionId: row.submissionId, amount: row.amount, currency: 'usd', transferId: null, paidAt: input.now.toISOString() },
      input.now,
    );
    return row;
  }
  const [earning] = await tx.select().from(bonusEarnings).where(eq(bonusEarnings.submissionId, input.submissionId));
  if (!earning) throw apiError('earning_not_found');
  throw alreadyPaid(earning);
}

/**
 * THE writer of a share's paid state by a transfer (CONTRACT §24): only an unpaid share becomes
 * paid, in one conditional UPDATE; null when it was not unpaid (paid already, or void). The caller
 * holds the earning locked (lockOwedEarning), so two payments at once pay each share once.
 */
export async function markSharePaid(
  tx: Tx,
  input: { submissionId: string; ownerId: number; by: string; transferId: string | null; now: Date },
): Promise<EarningShareRow | null> {
  const [row] = await tx
    .update(earningShares)
    .set({ status: 'paid' satisfies ShareStatus, paidAt: input.now, paidBy: input.by, transferId: input.transferId })
    .where(and(eq(earningShares.submissionId, input.submissionId), eq(earningShares.ownerId, input.ownerId), eq(earningShares.status, 'unpaid')))
    .returning();
  if (!row) return null;
  // `payout.paid` (CONTRACT §28): one event per share a transfer paid.
  await queueWebhookEvent(
    tx,
    'payout.paid',
    {
      submissionId: row.submissionId,
      ownerId: row.ownerId,
      amount: (row.amountCents / 100).toFixed(2),
      currency: 'usd',
      transferId: row.transferId,
      paidAt: input.now.toISOString(),
    },
    input.now,
  );
  return row;
}

/**
 * An earning's status is the summary of its shares: once no share is unpaid (void ones aside) it
 * is paid, with the transfer of its one share when it has only one (CONTRACT §19's `transferId`).
 */
export async function settleEarning(tx: Tx, input: { submissionId: string; by: string; now: Date }): Promise<EarningRow | null> {
  const shares = await tx.select().from(earningShares).where(eq(earningShares.submissionId, input.submissionId));
  if (shares.some((s) => s.status === 'unpaid')) return null;
  const counted = shares.filter((s) => s.status !== 'void');
  const [row] = await tx
    .update(bonusEarnings)
    .set({
      status: 'paid' satisfies EarningStatus,
      paidAt: input.now,
      paidBy: input.by,
      transferId: counted.length === 1 ? counted[0]!.transferId : null,
    })
    .where(and(eq(bonusEarnings.submissionId, input.submissionId), eq(bonusEarnings.status, 'owed')))
    .returning();
  return row ?? null;
}

/**
 * The team takes back a "mark paid" made by mistake: the shares it marked are unpaid again and the
 * earning owed. A share a Stripe transfer paid keeps its record (CONTRACT §19): the money has moved;
 * an earning whose every share a transfer paid is a 409.
 */
export async function markEarningOwed(tx: Tx, submissionId: string): Promise<EarningRow> {
  const [current] = await tx.select({ status: bonusEarnings.status }).from(bonusEarnings).where(eq(bonusEarnings.submissionId, submissionId));
  if (!current) throw apiError('earning_not_found');
  // A void earning stays void (CONTRACT §25): nothing of it is owed.
  if (current.status === 'void') throw apiError('earning_void');
  const reopened = await tx
    .update(earningShares)
    .set({ status: 'unpaid' satisfies ShareStatus, paidAt: null, paidBy: null })
    .where(and(eq(earningShares.submissionId, submissionId), eq(earningShares.status, 'paid'), isNull(earningShares.transferId)))
    .returning({ ownerId: earningShares.ownerId });
  const [byTransfer] = await tx
    .select({ ownerId: earningShares.ownerId })
    .from(earningShares)
    .where(and(eq(earningShares.submissionId, submissionId), isNotNull(earningShares.transferId), ne(earningShares.status, 'void')))
    .limit(1);
  if (reopened.length === 0 && byTransfer) throw apiError('earning_paid_by_transfer');
  const [row] = await tx
    .update(bonusEarnings)
    .set({ status: 'owed' satisfies EarningStatus, paidAt: null, paidBy: null, transferId: null })
    .where(eq(bonusEarnings.submissionId, submissionId))
    .returning();
  if (row) return row;
  throw apiError('earning_not_found');
}

/**
 * A hit the second look withdrew (CONTRACT §25): an earning it made possible that is still owed
 * becomes `void` with the reason, and so do its unpaid shares (§24); a share paid already is
 * clawed back from its payee instead (withdraw-hit.ts), never unpaid. True when it was voided.
 */
export async function markEarningVoid(tx: Tx, input: { submissionId: string; reason: string; now: Date }): Promise<boolean> {
  const [row] = await tx
    .update(bonusEarnings)
    .set({ status: 'void' satisfies EarningStatus, voidReason: input.reason, voidedAt: input.now })
    .where(and(eq(bonusEarnings.submissionId, input.submissionId), eq(bonusEarnings.status, 'owed')))
    .returning({ id: bonusEarnings.submissionId });
  if (!row) return false;
  await tx
    .update(earningShares)
    .set({ status: 'void' satisfies ShareStatus, voidReason: input.reason })
    .where(and(eq(earningShares.submissionId, input.submissionId), eq(earningShares.status, 'unpaid')));
  return true;
}
