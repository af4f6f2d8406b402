import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { dollarsOf, type EarningShare, type PayeePage, type PayeeShare, type PayeeSummary, type StatementYear, type TaxFormSummary } from '@shared/payees';
import { type TaxForm } from '@shared/payee-schemas';
import type { Db, Tx } from '../../platform/db/client';
import { earningShares, payeeLinks, payees, payoutAccounts, payeePayoutAccounts, submissions, taxForms, users, type EarningShareRow, type PayeeRow, type TaxFormRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { sealToken } from '../../platform/token-box';
import { hashToken } from '../email/emailed-links';
import type { EmailQueue } from '../email/email-kinds';
import { artistPayee, missingOf, queuePayeeLink, readinessOf } from './earning-shares';

/**
 * Payees, their tax forms and statements (CONTRACT §24, decision 194). A payee's link is only
 * ever looked up by its token's hash; a TIN is sealed as it arrives and only its last four are
 * read back, anywhere.
 */

/** The payee a `/payee/{token}` link is for; unknown or expired → 410. */
export async function payeeByToken(db: Db, token: string, now: Date): Promise<PayeeRow> {
  if (token.length < 16 || token.length > 128) throw apiError('payee_link_gone');
  const [row] = await db
    .select({ payee: payees })
    .from(payeeLinks)
    .innerJoin(payees, eq(payees.id, payeeLinks.payeeId))
    .where(and(eq(payeeLinks.tokenHash, hashToken(token)), gt(payeeLinks.expiresAt, now)));
  if (!row) throw apiError('payee_link_gone');
  return row.payee;
}

/** The artist's own payee (made on first use: filing a tax form before any earning). */
export async function payeeOfArtist(db: Db, user: { id: string; artistName: string | null; firstName: string | null; lastName: string | null; email: string | null }): Promise<PayeeRow> {
  const name = user.artistName || [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email || 'Artist';
  return db.transaction((tx) => artistPayee(tx, user.id, name));
}

export async function existingArtistPayee(db: Db, userId: string): Promise<PayeeRow | null> {
  const [row] = await db.select().from(payees).where(eq(payees.userId, userId));
  return row ?? null;
}

export function shareView(row: EarningShareRow, missing: EarningShare['missing']): EarningShare {
  return {
    ownerId: row.ownerId,
    payeeId: row.payeeId,
    name: row.name,
    role: row.role,
    share: Number(row.share),
    amount: dollarsOf(row.amountCents),
    status: row.status,
    paidAt: row.paidAt?.toISOString() ?? null,
    transferId: row.transferId,
    missing,
  };
}

/** Every share of these earnings, by earning, each with what it waits for. */
export async function sharesOfEarnings(db: Db | Tx, submissionIds: string[]): Promise<Map<string, EarningShare[]>> {
  const bySubmission = new Map<string, EarningShare[]>();
  if (submissionIds.length === 0) return bySubmission;
  const rows = await db.select().from(earningShares).where(inArray(earningShares.submissionId, submissionIds)).orderBy(asc(earningShares.ownerId));
  const ready = await readinessOf(db, [...new Set(rows.flatMap((r) => (r.payeeId ? [r.payeeId] : [])))]);
  for (const row of rows) {
    const list = bySubmission.get(row.submissionId) ?? [];
    list.push(shareView(row, missingOf(row, ready)));
    bySubmission.set(row.submissionId, list);
  }
  return bySubmission;
}

export function taxFormSummary(form: TaxFormRow | undefined): TaxFormSummary {
  if (!form) return { status: 'missing', kind: null, tinLast4: null, legalName: null, country: null, signedAt: null };
  return { status: 'on_file', kind: form.kind, tinLast4: form.tinLast4, legalName: form.legalName, country: form.country, signedAt: form.signedAt.toISOString() };
}

export async function taxFormOf(db: Db, payeeId: string): Promise<TaxFormRow | undefined> {
  const [form] = await db.select().from(taxForms).where(eq(taxForms.payeeId, payeeId));
  return form;
}

async function payeeShares(db: Db, payeeId: string): Promise<PayeeShare[]> {
  const rows = await db
    .select({ share: earningShares, songTitle: submissions.songTitle })
    .from(earningShares)
    .innerJoin(submissions, eq(submissions.id, earningShares.submissionId))
    .where(eq(earningShares.payeeId, payeeId))
    .orderBy(desc(earningShares.createdAt));
  const ready = await readinessOf(db, [payeeId]);
  return rows.map((r) => ({
    ...shareView(r.share, missingOf(r.share, ready)),
    submissionId: r.share.submissionId,
    songTitle: r.songTitle,
    earnedAt: r.share.createdAt.toISOString(),
  }));
}

const sumCents = (shares: PayeeShare[], status: 'unpaid' | 'paid') =>
  dollarsOf(shares.filter((s) => s.status === status).reduce((sum, s) => sum + Math.round(Number(s.amount) * 100), 0));

/** GET /api/payee/{token}: what the payee earned, their tax form (masked) and payout account. */
export async function payeePage(db: Db, payee: PayeeRow): Promise<PayeePage> {
  const shares = await payeeShares(db, payee.id);
  const ready = (await readinessOf(db, [payee.id])).get(payee.id);
  return {
    name: payee.name,
    email: payee.email ?? '',
    shares,
    taxForm: taxFormSummary(await taxFormOf(db, payee.id)),
    payoutAccount: { status: ready?.payoutAccount ?? 'none' },
    owed: sumCents(shares, 'unpaid'),
    paid: sumCents(shares, 'paid'),
  };
}

/**
 * POST /api/payouts/tax-form, POST /api/payee/{token}/tax-form: the form as signed, replacing the
 * one on file. The TIN is sealed with the token key at once; only its last four are kept apart.
 */
export async function fileTaxForm(
  db: Db,
  key: Buffer,
  input: { payeeId: string; form: TaxForm; by: string | null; ip: string; userAgent: string | null; now: Date },
): Promise<TaxFormSummary> {
  const { form } = input;
  const values = {
    kind: form.kind,
    legalName: form.legalName,
    country: form.country,
    address: form.address,
    tinSealed: form.tin ? sealToken(key, form.tin) : null,
    tinLast4: form.tin ? form.tin.slice(-4) : null,
    signedName: form.signature.name,
    signedAt: input.now,
    signedBy: input.by,
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
  };
  await db.insert(taxForms).values({ payeeId: input.payeeId, ...values }).onConflictDoUpdate({ target: taxForms.payeeId, set: values });
  return taxFormSummary(await taxFormOf(db, input.payeeId));
}

/** POST /api/payee/link: a fresh link only where the address is a payee's; the caller answers 202 either way. */
export async function requestPayeeLink(db: Db, outbox: EmailQueue, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [payee] = await tx.select({ id: payees.id }).from(payees).where(eq(payees.email, email.toLowerCase()));
    if (payee) await queuePayeeLink(tx, outbox, payee.id, 'fresh');
  });
}

/** POST /api/admin/payees/{payeeId}/invite: the team sends a fresh link. */
export async function invitePayee(db: Db, outbox: EmailQueue, payeeId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [payee] = await tx.select().from(payees).where(eq(payees.id, payeeId));
    if (!payee) throw apiError('payee_not_found');
    if (!payee.email || !(await queuePayeeLink(tx, outbox, payee.id, 'fresh'))) throw apiError('no_email_to_invite');
  });
}

/** GET /api/admin/payees: every payee, their papers and what they are owed and were paid. */
export async function allPayees(db: Db): Promise<PayeeSummary[]> {
  const rows = await db
    .select({
      payee: payees,
      accountEmail: users.email,
      form: taxForms.kind,
      artistStatus: payoutAccounts.status,
      ownStatus: payeePayoutAccounts.status,
      owed: sql<number>`coalesce((select sum(${earningShares.amountCents}) from ${earningShares} where ${earningShares.payeeId} = ${payees.id} and ${earningShares.status} = 'unpaid'), 0)::int`,
      paid: sql<number>`coalesce((select sum(${earningShares.amountCents}) from ${earningShares} where ${earningShares.payeeId} = ${payees.id} and ${earningShares.status} = 'paid'), 0)::int`,
    })
    .from(payees)
    .leftJoin(users, eq(users.id, payees.userId))
    .leftJoin(taxForms, eq(taxForms.payeeId, payees.id))
    .leftJoin(payoutAccounts, eq(payoutAccounts.userId, payees.userId))
    .leftJoin(payeePayoutAccounts, eq(payeePayoutAccounts.payeeId, payees.id))
    .orderBy(asc(payees.name));
  return rows.map((r) => ({
    id: r.payee.id,
    name: r.payee.name,
    email: r.payee.email ?? r.accountEmail ?? null,
    artist: r.payee.userId !== null,
    taxForm: { status: r.form ? 'on_file' : 'missing', kind: r.form ?? null },
    payoutAccount: { status: r.artistStatus ?? r.ownStatus ?? 'none' },
    owed: dollarsOf(Number(r.owed)),
    paid: dollarsOf(Number(r.paid)),
  }));
}

export async function payeeById(db: Db, payeeId: string): Promise<PayeeRow> {
  const [payee] = await db.select().from(payees).where(eq(payees.id, payeeId));
  if (!payee) throw apiError('payee_not_found');
  return payee;
}

const yearRange = (year: number) => ({ from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) });

/** GET …/statements: each year in which the payee was paid, with its total. */
export async function statementYears(db: Db, payeeId: string): Promise<StatementYear[]> {
  const rows = await db
    .select({ year: sql<number>`extract(year from ${earningShares.paidAt} at time zone 'UTC')::int`, cents: sql<number>`sum(${earningShares.amountCents})::int` })
    .from(earningShares)
    .where(and(eq(earningShares.payeeId, payeeId), eq(earningShares.status, 'paid'), isNotNull(earningShares.paidAt)))
    .groupBy(sql`1`)
    .orderBy(sql`1 desc`);
  return rows.map((r) => ({ year: Number(r.year), total: dollarsOf(Number(r.cents)), currency: 'usd' }));
}

export interface StatementLine {
  paidAt: Date;
  songTitle: string;
  role: string;
  share: string;
  amountCents: number;
  transferId: string | null;
}

/** Every share paid to the payee in the year (UTC), oldest first. */
export async function statementLines(db: Db, payeeId: string, year: number): Promise<StatementLine[]> {
  const { from, to } = yearRange(year);
  const rows = await db
    .select({ share: earningShares, songTitle: submissions.songTitle })
    .from(earningShares)
    .innerJoin(submissions, eq(submissions.id, earningShares.submissionId))
    .where(and(eq(earningShares.payeeId, payeeId), eq(earningShares.status, 'paid'), gte(earningShares.paidAt, from), lt(earningShares.paidAt, to)))
    .orderBy(asc(earningShares.paidAt));
  return rows.map((r) => ({ paidAt: r.share.paidAt!, songTitle: r.songTitle, role: r.share.role, share: Number(r.share.share).toFixed(2), amountCents: r.share.amountCents, transferId: r.share.transferId }));
}

const csvCell = (value: string) => {
  // A cell a spreadsheet would run as a formula is quoted with a leading apostrophe.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export const ACCOUNTANT_CSV_HEADER = ['legal_name', 'email', 'country', 'form_kind', 'tin_last4', 'total_paid_usd', 'reportable'] as const;

/**
 * GET /api/admin/payouts/{year}.csv: one row per payee paid in the year. `reportable` is true for a
 * W-9 payee paid at least the threshold (TAX_REPORTING_THRESHOLD_USD): the label owes them a 1099.
 */
export async function accountantCsv(db: Db, year: number, thresholdUsd: number): Promise<string> {
  const { from, to } = yearRange(year);
  const rows = await db
    .select({
      payee: payees,
      accountEmail: users.email,
      form: taxForms,
      cents: sql<number>`sum(${earningShares.amountCents})::int`,
    })
    .from(earningShares)
    .innerJoin(payees, eq(payees.id, earningShares.payeeId))
    .leftJoin(users, eq(users.id, payees.userId))
    .leftJoin(taxForms, eq(taxForms.payeeId, payees.id))
    .where(and(eq(earningShares.status, 'paid'), gte(earningShares.paidAt, from), lt(earningShares.paidAt, to)))
    .groupBy(payees.id, users.email, taxForms.payeeId)
    .orderBy(asc(payees.name));
  const lines = [ACCOUNTANT_CSV_HEADER.join(',')];
  for (const r of rows) {
    const cents = Number(r.cents);
    const reportable = r.form?.kind === 'w9' && cents >= Math.round(thresholdUsd * 100);
    lines.push(
      [
        r.form?.legalName ?? r.payee.name,
        r.payee.email ?? r.accountEmail ?? '',
        r.form?.country ?? '',
        r.form?.kind ?? '',
        r.form?.tinLast4 ?? '',
        dollarsOf(cents),
        String(reportable),
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
