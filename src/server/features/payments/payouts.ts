import type { FastifyBaseLogger } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { centsOf, dollarsOf, type PayResult } from '@shared/payees';
import {
  PAYOUTS_QUERY,
  PAYOUTS_REFRESH,
  PAYOUTS_RETURN,
  PAYOUTS_RETURN_PATH,
  bonusTransferKey,
  shareTransferKey,
  type PayoutAccountState,
  type PayoutOnboardingLink,
  type StoredPayoutStatus,
} from '@shared/payouts';
import type { Db } from '../../platform/db/client';
import { earningShares, payeePayoutAccounts, payoutAccounts, type PayeeRow, type UserRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { CURRENCY } from './payment-reads';
import { lockOwedEarning, markSharePaid, settleEarning } from '../../domain/bonus/earning-payment';
import { ensureShares, missingOf, readinessOf } from '../../domain/bonus/earning-shares';
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

/** Where Stripe sends a payee back: their page, which finds its link again in the browser (the token never goes to Stripe). */
export const PAYEE_RETURN_PATH = '/payee/return';

/**
 * POST /api/payee/{token}/payout-account (CONTRACT §24): the co-owner's own Express account, made
 * once per payee as §19 makes the artist's, and a fresh onboarding link. The artist's own payee
 * is paid through the artist's account (POST /api/payouts/account).
 */
export async function startPayeeOnboarding(db: Db, stripe: Stripe, payee: PayeeRow, publicUrl: URL, log: FastifyBaseLogger): Promise<PayoutOnboardingLink> {
  let [stored] = await db.select().from(payeePayoutAccounts).where(eq(payeePayoutAccounts.payeeId, payee.id));
  if (!stored) {
    let account: Stripe.Account;
    try {
      account = await stripe.accounts.create(
        { type: 'express', capabilities: { transfers: { requested: true } }, ...(payee.email ? { email: payee.email } : {}), metadata: { payeeId: payee.id } },
        { idempotencyKey: `payee-payout-account:${payee.id}` },
      );
    } catch (error) {
      throw stripeFailure(error, log, { payeeId: payee.id }, 'Stripe account creation failed');
    }
    await db.insert(payeePayoutAccounts).values({ payeeId: payee.id, stripeAccountId: account.id, status: payoutStatusOf(account) }).onConflictDoNothing();
    [stored] = await db.select().from(payeePayoutAccounts).where(eq(payeePayoutAccounts.payeeId, payee.id));
    log.info({ payeeId: payee.id, accountId: stored!.stripeAccountId }, 'payee payout account created');
  }
  const back = (value: string) => {
    const url = new URL(PAYEE_RETURN_PATH, publicUrl);
    url.searchParams.set(PAYOUTS_QUERY, value);
    return url.toString();
  };
  try {
    const link = await stripe.accountLinks.create({ account: stored!.stripeAccountId, type: 'account_onboarding', return_url: back(PAYOUTS_RETURN), refresh_url: back(PAYOUTS_REFRESH) });
    return { url: link.url };
  } catch (error) {
    throw stripeFailure(error, log, { payeeId: payee.id }, 'Stripe account link failed');
  }
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
  const [payeeStored] = stored ? [] : await db.select().from(payeePayoutAccounts).where(eq(payeePayoutAccounts.stripeAccountId, accountId));
  if (!stored && !payeeStored) {
    log.warn({ eventId: event.id, accountId }, 'account.updated for an account of no artist or payee');
    return 'unknown_account';
  }
  const current = await stripe.accounts.retrieve(accountId);
  const status = payoutStatusOf(current);
  if (status === (stored ?? payeeStored)!.status) return 'unchanged';
  if (stored) await db.update(payoutAccounts).set({ status, updatedAt: new Date() }).where(eq(payoutAccounts.stripeAccountId, accountId));
  else await db.update(payeePayoutAccounts).set({ status, updatedAt: new Date() }).where(eq(payeePayoutAccounts.stripeAccountId, accountId));
  log.info({ eventId: event.id, accountId, userId: stored?.userId, payeeId: payeeStored?.payeeId, status }, 'payout account changed');
  return 'applied';
}

/**
 * POST /api/admin/bonus/earnings/{submissionId}/pay (CONTRACT §19, §24): one transfer per unpaid
 * share whose payee has a tax form on file and an active payout account, each recorded through
 * the share's one writer (markSharePaid); the rest wait, and the answer says for what. The
 * earning's row is held locked while Stripe transfers (decision 171): a "mark paid" or a second
 * "pay" at the same moment waits, then finds the shares paid, so each share is paid once; an
 * earning already paid in full is a 409 `already_paid` (CONTRACT §21). A crash after a transfer
 * leaves its share unpaid, and paying again gets the same transfer back from Stripe (idempotency
 * key `bonus:{submissionId}:{ownerId}`), so the money never moves twice.
 *
 * Where a share's transfer is recorded: `markSharePaid` below (an event such as `payout.paid`
 * belongs right after it, in the same transaction).
 *
 * Each share's payee's outstanding clawbacks (CONTRACT §25) are deducted from that share's
 * transfer in the same transaction, never below zero; what is left stays outstanding. A share the
 * clawbacks take whole is paid without a transfer.
 */
export async function payEarning(
  db: Db,
  stripe: Stripe,
  input: { adminId: string; submissionId: string; now: Date },
  log: FastifyBaseLogger,
): Promise<PayResult> {
  const { submissionId } = input;
  return db.transaction(async (tx) => {
    await ensureShares(tx, submissionId);
    const earning = await lockOwedEarning(tx, submissionId);
    if (!(centsOf(earning.amount) > 0)) throw apiError('nothing_to_transfer');
    const shares = await tx.select().from(earningShares).where(eq(earningShares.submissionId, submissionId)).orderBy(asc(earningShares.ownerId));
    const ready = await readinessOf(tx, shares.flatMap((s) => (s.payeeId ? [s.payeeId] : [])));
    const result: PayResult = { paid: [], waiting: [] };
    for (const share of shares) {
      if (share.status !== 'unpaid') continue;
      const missing = missingOf(share, ready);
      if (missing.length > 0) {
        result.waiting.push({ ownerId: share.ownerId, missing });
        continue;
      }
      const accountId = ready.get(share.payeeId!)!.stripeAccountId!;
      const key = shareTransferKey(submissionId, share.ownerId);
      let transferId: string | null = null;
      const deducted = await deductClawbacks(tx, { whose: share.payeeId!, amountCents: share.amountCents, from: submissionId, now: input.now });
      const amount = share.amountCents - deducted;
      // A share of $0.00 (a tiny share of a tiny earning, or one clawbacks took whole) moves no money: it is paid without a transfer.
      if (amount > 0) {
        try {
          const transfer = await stripe.transfers.create(
            {
              amount,
              currency: CURRENCY,
              destination: accountId,
              description: deducted > 0 ? 'Viral bonus, less bonus taken back' : 'Viral bonus',
              transfer_group: bonusTransferKey(submissionId),
              metadata: { submissionId, ownerId: String(share.ownerId), payeeId: share.payeeId!, userId: earning.userId, ...(deducted > 0 ? { deductedCents: String(deducted) } : {}) },
            },
            { idempotencyKey: key },
          );
          transferId = transfer.id;
        } catch (error) {
          throw stripeFailure(error, log, { submissionId, ownerId: share.ownerId, accountId }, 'Stripe transfer failed');
        }
      }
      const paid = await markSharePaid(tx, { submissionId, ownerId: share.ownerId, by: input.adminId, transferId, now: input.now });
      if (!paid) continue;
      result.paid.push({ ownerId: share.ownerId, amount: dollarsOf(amount), transferId: transferId ?? '' });
      log.info({ submissionId, ownerId: share.ownerId, payeeId: share.payeeId, transferId, amount, deducted, adminId: input.adminId }, 'bonus share paid by transfer');
    }
    await settleEarning(tx, { submissionId, by: input.adminId, now: input.now });
    return result;
  });
}
