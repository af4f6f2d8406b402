import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { centsOf, splitCents, type ShareMissing } from '@shared/payees';
import { ownersOf, shareHundredths } from '@shared/rights';
import type { Db, Tx } from '../../platform/db/client';
import { bonusEarnings, earningShares, payeePayoutAccounts, payees, payoutAccounts, submissions, taxForms, type PayeeRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import type { EmailQueue } from '../email/email-kinds';

/**
 * An earning's shares and their payees (CONTRACT §24, decision 194): written once, with the
 * earning, from the split sheet as it stands then. The artist is the payee of owner 0; every other
 * owner with an email is the payee of that address (one across all their songs).
 */

/** The artist's own payee, made the first time they earn (or file a tax form). */
export async function artistPayee(tx: Tx | Db, userId: string, name: string): Promise<PayeeRow> {
  await tx.insert(payees).values({ id: newId(), userId, name }).onConflictDoNothing();
  const [row] = await tx.select().from(payees).where(eq(payees.userId, userId));
  return row!;
}

/** The payee of a co-owner's address, one per address (lower case) whatever the songs. */
export async function emailPayee(tx: Tx | Db, email: string, name: string): Promise<PayeeRow> {
  const address = email.toLowerCase();
  await tx.insert(payees).values({ id: newId(), email: address, name }).onConflictDoNothing();
  const [row] = await tx.select().from(payees).where(eq(payees.email, address));
  return row!;
}

/**
 * Queues a payee's link (payee-links.ts mints it as it goes out). The outbox files every email
 * under an account: the artist's whose song the payee co-owns; it goes to the payee's address.
 */
export async function queuePayeeLink(tx: Tx, outbox: EmailQueue, payeeId: string, reason: 'earned' | 'fresh'): Promise<boolean> {
  const [row] = await tx
    .select({ payee: payees, userId: submissions.userId, artistName: submissions.artistName, songTitle: submissions.songTitle })
    .from(payees)
    .innerJoin(earningShares, eq(earningShares.payeeId, payees.id))
    .innerJoin(submissions, eq(submissions.id, earningShares.submissionId))
    .where(eq(payees.id, payeeId))
    .orderBy(asc(earningShares.createdAt))
    .limit(1);
  if (!row || !row.payee.email) return false;
  await outbox.queue(tx, {
    kind: 'payee_link',
    userId: row.userId,
    toAddress: row.payee.email,
    data: { payeeId, name: row.payee.name, artistName: row.artistName, songTitle: row.songTitle, reason },
    dedupeKey: `payee-link:${payeeId}`,
  });
  return true;
}

/**
 * Writes an earning's shares (CONTRACT §24): the earning split by the owners' shares in cents,
 * largest remainder, ties to the artist first then owner order. A co-owner whose first share this
 * is gets their link by email. Called in the transaction that records the earning.
 */
export async function recordEarningShares(tx: Tx, outbox: EmailQueue, submissionId: string, now: Date): Promise<void> {
  const [row] = await tx
    .select({ earning: bonusEarnings, owners: submissions.owners, artistName: submissions.artistName })
    .from(bonusEarnings)
    .innerJoin(submissions, eq(submissions.id, bonusEarnings.submissionId))
    .where(eq(bonusEarnings.submissionId, submissionId));
  if (!row) return;
  const owners = ownersOf({ owners: row.owners, artistName: row.artistName });
  const parts = splitCents(centsOf(row.earning.amount), owners.map((o) => shareHundredths(o.share)));
  const invite: string[] = [];
  for (const [ownerId, owner] of owners.entries()) {
    let payeeId: string | null = null;
    if (ownerId === 0) payeeId = (await artistPayee(tx, row.earning.userId, owner.name)).id;
    else if (owner.email) {
      const payee = await emailPayee(tx, owner.email, owner.name);
      const [before] = await tx.select({ n: count() }).from(earningShares).where(eq(earningShares.payeeId, payee.id));
      if ((before?.n ?? 0) === 0) invite.push(payee.id);
      payeeId = payee.id;
    }
    await tx
      .insert(earningShares)
      .values({ submissionId, ownerId, payeeId, name: owner.name, role: owner.role, share: owner.share.toFixed(2), amountCents: parts[ownerId]!, createdAt: now })
      .onConflictDoNothing();
  }
  for (const payeeId of invite) await queuePayeeLink(tx, outbox, payeeId, 'earned');
}

/** What each payee lacks before a transfer: the tax form and an active payout account. */
export interface PayeeReadiness {
  taxForm: boolean;
  payoutAccount: 'none' | 'pending' | 'active';
  stripeAccountId: string | null;
}

export async function readinessOf(tx: Tx | Db, payeeIds: string[]): Promise<Map<string, PayeeReadiness>> {
  const ready = new Map<string, PayeeReadiness>();
  if (payeeIds.length === 0) return ready;
  const rows = await tx
    .select({
      id: payees.id,
      form: taxForms.payeeId,
      artistAccount: payoutAccounts.stripeAccountId,
      artistStatus: payoutAccounts.status,
      ownAccount: payeePayoutAccounts.stripeAccountId,
      ownStatus: payeePayoutAccounts.status,
    })
    .from(payees)
    .leftJoin(taxForms, eq(taxForms.payeeId, payees.id))
    .leftJoin(payoutAccounts, eq(payoutAccounts.userId, payees.userId))
    .leftJoin(payeePayoutAccounts, eq(payeePayoutAccounts.payeeId, payees.id))
    .where(inArray(payees.id, payeeIds));
  for (const r of rows) {
    // The artist is paid through their account's payout account (CONTRACT §19), a co-owner through their payee's.
    const accountId = r.artistAccount ?? r.ownAccount;
    const status = r.artistAccount ? r.artistStatus : r.ownStatus;
    ready.set(r.id, { taxForm: r.form !== null, payoutAccount: status ?? 'none', stripeAccountId: accountId });
  }
  return ready;
}

/** What an unpaid share waits for: an email (no payee), then the payee's tax form and payout account. */
export function missingOf(share: { status: string; payeeId: string | null }, ready: Map<string, PayeeReadiness>): ShareMissing[] {
  if (share.status !== 'unpaid') return [];
  if (!share.payeeId) return ['email'];
  const r = ready.get(share.payeeId);
  const missing: ShareMissing[] = [];
  if (!r?.taxForm) missing.push('tax_form');
  if (r?.payoutAccount !== 'active') missing.push('payout_account');
  return missing;
}

/**
 * PUT /api/submissions/{id}/owners/{ownerId}/email: an owner who had no email gets one after
 * approval; the split sheet keeps it, and their unpaid shares (and link) follow.
 */
export async function giveOwnerEmail(
  tx: Tx,
  outbox: EmailQueue,
  input: { submissionId: string; ownerId: number; email: string; owners: { name: string }[] },
): Promise<{ payeeId: string; invited: boolean }> {
  const owner = input.owners[input.ownerId]!;
  const payee = await emailPayee(tx, input.email, owner.name);
  const [before] = await tx.select({ n: count() }).from(earningShares).where(eq(earningShares.payeeId, payee.id));
  const linked = await tx
    .update(earningShares)
    .set({ payeeId: payee.id })
    .where(and(eq(earningShares.submissionId, input.submissionId), eq(earningShares.ownerId, input.ownerId)))
    .returning({ ownerId: earningShares.ownerId });
  const invited = linked.length > 0 && (before?.n ?? 0) === 0 ? await queuePayeeLink(tx, outbox, payee.id, 'earned') : false;
  return { payeeId: payee.id, invited };
}

/**
 * An earning recorded without shares (before migration 0032 ran, which gave each one; or written
 * by an older instance during a rolling update) is the artist's alone: one 100% share of the
 * artist, paid as the earning was. Written before the earning is paid or marked, so every payment
 * goes through a share.
 */
export async function ensureShares(tx: Tx, submissionId: string): Promise<void> {
  const [some] = await tx.select({ ownerId: earningShares.ownerId }).from(earningShares).where(eq(earningShares.submissionId, submissionId)).limit(1);
  if (some) return;
  const [row] = await tx
    .select({ earning: bonusEarnings, artistName: submissions.artistName })
    .from(bonusEarnings)
    .innerJoin(submissions, eq(submissions.id, bonusEarnings.submissionId))
    .where(eq(bonusEarnings.submissionId, submissionId));
  if (!row) return;
  const payee = await artistPayee(tx, row.earning.userId, row.artistName);
  const paid = row.earning.status === 'paid';
  await tx
    .insert(earningShares)
    .values({
      submissionId,
      ownerId: 0,
      payeeId: payee.id,
      name: row.artistName,
      role: 'artist',
      share: '100.00',
      amountCents: centsOf(row.earning.amount),
      status: paid ? 'paid' : 'unpaid',
      paidAt: row.earning.paidAt,
      paidBy: row.earning.paidBy,
      transferId: row.earning.transferId,
      createdAt: row.earning.createdAt,
    })
    .onConflictDoNothing();
}
