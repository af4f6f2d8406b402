import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { BonusEarning } from '@shared/production';
import {
  PAYOUTS_QUERY,
  PAYOUTS_REFRESH,
  PAYOUTS_RETURN,
  PAYOUTS_RETURN_PATH,
  bonusTransferKey,
  type PayoutAccountState,
  type PayoutOnboardingLink,
  type StoredPayoutStatus,
} from '@shared/payouts';
import type { Db } from '../../platform/db/client';
import { bonusEarnings, payoutAccounts, submissions, type UserRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { CURRENCY } from './payment-state';
import { lockOwedEarning, markEarningPaid } from '../../domain/bonus/earning-payment';
import { deductClawbacks } from '../../domain/bonus/withdraw-hit';

/**
 * Bonus payouts through Stripe Connect (CONTRACT §19, docs/decisions/162-bonus-payouts-stripe-connect.md):
 * the artist's Express account and its onboarding link, its state from `account.updated`, and the
 * one transfer that pays an earning.
 */

/**
 * When a connected account can be paid: Stripe lets a transfer reach it (`capabilities.transfers`
 * active) and lets it pay the money out to the artist's bank (`payouts_enabled`). `charges_enabled`
 * plays no part: the artist takes no card payments, and an account with only the transfers
 * capability may never have it.
 */
export function payoutStatusOf(account: Pick<Stripe.Account, 'payouts_enabled' | 'capabilities'>): StoredPayoutStatus {
  return account.capabilities?.transfers === 'active' && account.payouts_enabled === true ? 'active' : 'pending';
}

/** GET /api/payouts/account */
export async function payoutAccountState(db: Db, userId: string): Promise<PayoutAccountState> {
  const [row] = await db.select({ status: payoutAccounts.status }).from(payoutAccounts).where(eq(payoutAccounts.userId, userId));
  return { status: row?.status ?? 'none' };
}

const stripeFailure = (error: unknown, log: FastifyBaseLogger, context: Record<string, unknown>, what: string) => {
  log.error({ err: error, ...context }, what);
  if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeIdempotencyError) {
    return apiError('transfer_refused', `Stripe refused: ${error.message}`);
  }
  return apiError('stripe_unavailable');
};

/**
 * POST /api/payouts/account: the artist's Express account, made once (two requests at the same
 * moment get the same account: Stripe is asked with one idempotency key per artist, and only one
 * row per artist can be stored), then a fresh onboarding link. Account links are single-use and
 * short-lived, so every call makes a new one; the refresh URL brings the artist back to make one.
 */
export async function startPayoutOnboarding(
  db: Db,
  stripe: Stripe,
  user: UserRow,
  publicUrl: URL,
  log: FastifyBaseLogger,
): Promise<PayoutOnboardingLink> {
  if (user.role === 'admin') throw apiError('payouts_for_artists');
  const accountId = await accountIdOf(db, stripe, user, log);
  const back = (value: string) => {
    const url = new URL(PAYOUTS_RETURN_PATH, publicUrl);
    url.searchParams.set(PAYOUTS_QUERY, value);
    return url.toString();
  };
  try {
    const link = await stripe.accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      return_url: back(PAYOUTS_RETURN),
      refresh_url: back(PAYOUTS_REFRESH),
    });
    return { url: link.url };
  } catch (error) {
    throw stripeFailure(error, log, { userId: user.id, accountId }, 'Stripe account link failed');
  }
}

async function accountIdOf(db: Db, stripe: Stripe, user: UserRow, log: FastifyBaseLogger): Promise<string> {
  const [stored] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, user.id));
  if (stored) return stored.stripeAccountId;
  let account: Stripe.Account;
  try {
    account = await stripe.accounts.create(
      {
        type: 'express',
        capabilities: { transfers: { requested: true } },
        ...(user.email ? { email: user.email } : {}),
        metadata: { userId: user.id },
      },
      // One account per artist, also when two requests ask at the same moment.
      { idempotencyKey: `payout-account:${user.id}` },
    );
  } catch (error) {
    throw stripeFailure(error, log, { userId: user.id }, 'Stripe account creation failed');
  }
  await db
    .insert(payoutAccounts)
    .values({ userId: user.id, stripeAccountId: account.id, status: payoutStatusOf(account) })
    .onConflictDoNothing();
  const [row] = await db.select({ id: payoutAccounts.stripeAccountId }).from(payoutAccounts).where(eq(payoutAccounts.userId, user.id));
  if (row!.id !== account.id) log.warn({ userId: user.id, kept: row!.id, unused: account.id }, 'a second Stripe account was made and left unused');
  log.info({ userId: user.id, accountId: row!.id }, 'payout account created');
  return row!.id;
}

/**
 * `account.updated`: the account's state is asked of Stripe rather than read from the event, so an
 * event delivered late or out of order cannot turn an active account back to pending.
 */
export async function applyAccountUpdated(
  db: Db,
  stripe: Stripe,
  event: Stripe.AccountUpdatedEvent,
  log: FastifyBaseLogger,
): Promise<'applied' | 'unchanged' | 'unknown_account'> {
  const accountId = event.data.object.id;
  const [stored] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.stripeAccountId, accountId));
  if (!stored) {
    log.warn({ eventId: event.id, accountId }, 'account.updated for an account of no artist');
    return 'unknown_account';
  }
  const current = await stripe.accounts.retrieve(accountId);
  const status = payoutStatusOf(current);
  if (status === stored.status) return 'unchanged';
  await db.update(payoutAccounts).set({ status, updatedAt: new Date() }).where(eq(payoutAccounts.stripeAccountId, accountId));
  log.info({ eventId: event.id, accountId, userId: stored.userId, status }, 'payout account changed');
  return 'applied';
}

async function earningView(db: Db, submissionId: string): Promise<BonusEarning> {
  const [row] = await db
    .select({ earning: bonusEarnings, songTitle: submissions.songTitle })
    .from(bonusEarnings)
    .innerJoin(submissions, eq(submissions.id, bonusEarnings.submissionId))
    .where(eq(bonusEarnings.submissionId, submissionId));
  if (!row) throw apiError('earning_not_found');
  const { earning } = row;
  return {
    submissionId: earning.submissionId,
    songTitle: row.songTitle,
    amount: earning.amount,
    status: earning.status,
    createdAt: earning.createdAt.toISOString(),
    paidAt: earning.paidAt?.toISOString() ?? null,
    transferId: earning.transferId,
    voidReason: earning.voidReason,
  };
}

/**
 * POST /api/admin/bonus/earnings/{submissionId}/pay: one transfer of the earning's amount to the
 * artist's connected account, recorded through the earning's one writer. The earning's row is held
 * locked while Stripe transfers (decision 171): a "mark paid" or a second "pay" at the same moment
 * waits, then finds it paid → 409 `already_paid`; whichever commits first wins (CONTRACT §21). A
 * crash after the transfer leaves it owed, and paying again gets the same transfer back from
 * Stripe (idempotency key `bonus:{submissionId}`), so the money never moves twice.
 *
 * The artist's outstanding clawbacks (CONTRACT §25) are deducted from the transfer in the same
 * transaction, never below zero; what is left stays outstanding. An earning the clawbacks take
 * whole is paid without a transfer.
 */
export async function payEarning(
  db: Db,
  stripe: Stripe,
  input: { adminId: string; submissionId: string; now: Date },
  log: FastifyBaseLogger,
): Promise<BonusEarning> {
  const { submissionId } = input;
  await db.transaction(async (tx) => {
    const earning = await lockOwedEarning(tx, submissionId);
    const earned = Math.round(Number(earning.amount) * 100);
    if (!(earned > 0)) throw apiError('nothing_to_transfer');
    const [account] = await tx.select().from(payoutAccounts).where(eq(payoutAccounts.userId, earning.userId));
    if (!account || account.status !== 'active') throw apiError('payout_account_not_active');
    const deducted = await deductClawbacks(tx, { whose: earning.userId, amountCents: earned, from: submissionId, now: input.now });
    const amount = earned - deducted;
    if (amount === 0) {
      await markEarningPaid(tx, { submissionId, by: input.adminId, transferId: null, now: input.now });
      log.info({ submissionId, deducted, adminId: input.adminId }, 'bonus settled by clawbacks: no transfer');
      return;
    }

    let transfer: Stripe.Transfer;
    try {
      transfer = await stripe.transfers.create(
        {
          amount,
          currency: CURRENCY,
          destination: account.stripeAccountId,
          description: deducted > 0 ? 'Viral bonus, less bonus taken back' : 'Viral bonus',
          transfer_group: bonusTransferKey(submissionId),
          metadata: { submissionId, userId: earning.userId, ...(deducted > 0 ? { deductedCents: String(deducted) } : {}) },
        },
        { idempotencyKey: bonusTransferKey(submissionId) },
      );
    } catch (error) {
      throw stripeFailure(error, log, { submissionId, accountId: account.stripeAccountId }, 'Stripe transfer failed');
    }
    await markEarningPaid(tx, { submissionId, by: input.adminId, transferId: transfer.id, now: input.now });
    log.info({ submissionId, transferId: transfer.id, amount, deducted, adminId: input.adminId }, 'bonus paid by transfer');
  });
  return earningView(db, submissionId);
}
