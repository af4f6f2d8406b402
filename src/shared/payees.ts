import type { PayoutAccountStatus } from './payouts';
import { OWNER_ROLES, type OwnerRole } from './rights-texts';

/**
 * Every owner paid, with papers (CONTRACT §24, decision 194): an earning's shares, the payees
 * they are paid to, their tax forms and yearly statements. One source for the states, the wire
 * shapes, the limits and the texts, on both sides.
 */

export const SHARE_STATUSES = ['unpaid', 'paid', 'void'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

/** What a share waits for before a transfer can pay it, in the order it is asked for. */
export const SHARE_MISSING = ['email', 'tax_form', 'payout_account'] as const;
export type ShareMissing = (typeof SHARE_MISSING)[number];

export const SHARE_MISSING_TEXT: Record<ShareMissing, string> = {
  email: 'No email: the artist can add one',
  tax_form: 'Tax form not filed',
  payout_account: 'Payout account not connected',
};

export const TAX_FORM_KINDS = ['w9', 'w8ben'] as const;
export type TaxFormKind = (typeof TAX_FORM_KINDS)[number];
export const TAX_FORM_LABELS: Record<TaxFormKind, string> = { w9: 'W-9 (United States)', w8ben: 'W-8BEN (other countries)' };
export const TAX_FORM_STATUSES = ['missing', 'on_file'] as const;
export type TaxFormStatus = (typeof TAX_FORM_STATUSES)[number];

/** A payee's link: 30 days from sending, like a signing link (CONTRACT §24). */
export const PAYEE_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The parts of `totalCents` for shares given in hundredths of a percent (adding up to 100_00):
 * each gets the floor of its exact part, and the cents left over go one each to the largest
 * remainders; equal remainders go to the lower index first (the artist is index 0, then owner
 * order). The parts add up to the total exactly (decision 194).
 */
export function splitCents(totalCents: number, shareHundredths: readonly number[]): number[] {
  if (!Number.isInteger(totalCents) || totalCents < 0) throw new RangeError('totalCents must be a whole number of cents, 0 or more');
  const whole = shareHundredths.reduce((sum, s) => sum + s, 0);
  if (whole <= 0 || shareHundredths.some((s) => !Number.isInteger(s) || s < 0)) throw new RangeError('shares must be whole hundredths above 0');
  // Integer arithmetic throughout: exact = totalCents * share / whole.
  const parts = shareHundredths.map((s) => Math.floor((totalCents * s) / whole));
  const remainders = shareHundredths.map((s, i) => ({ i, rest: (totalCents * s) % whole }));
  let left = totalCents - parts.reduce((sum, p) => sum + p, 0);
  remainders.sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of remainders) {
    if (left === 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

export const centsOf = (amount: string) => Math.round(Number(amount) * 100);
export const dollarsOf = (cents: number) => (cents / 100).toFixed(2);

/** One owner's part of an earning (GET /api/bonus, GET /api/admin/bonus, the payee's page). */
export interface EarningShare {
  /** The owner's place on the split sheet: 0 is the submitting artist. */
  ownerId: number;
  payeeId: string | null;
  name: string;
  role: OwnerRole;
  /** The percentage, as on the split sheet. */
  share: number;
  /** US dollars with 2 decimals. */
  amount: string;
  status: ShareStatus;
  paidAt: string | null;
  transferId: string | null;
  /** What a transfer waits for; empty once paid or ready. */
  missing: ShareMissing[];
}

/** A share on the payee's own page: with the song it is a share of. */
export interface PayeeShare extends EarningShare {
  submissionId: string;
  songTitle: string;
  earnedAt: string;
}

export interface TaxFormSummary {
  status: TaxFormStatus;
  kind: TaxFormKind | null;
  /** The TIN's last four digits, never more; null without one. */
  tinLast4: string | null;
  legalName: string | null;
  country: string | null;
  signedAt: string | null;
}

/** GET /api/payee/{token} */
export interface PayeePage {
  name: string;
  email: string;
  shares: PayeeShare[];
  taxForm: TaxFormSummary;
  payoutAccount: { status: PayoutAccountStatus };
  owed: string;
  paid: string;
}

/** GET /api/admin/payees */
export interface PayeeSummary {
  id: string;
  name: string;
  email: string | null;
  /** The submitting artist's own payee: paid through their account. */
  artist: boolean;
  taxForm: { status: TaxFormStatus; kind: TaxFormKind | null };
  payoutAccount: { status: PayoutAccountStatus };
  owed: string;
  paid: string;
}

/** POST /api/admin/bonus/earnings/{submissionId}/pay */
export interface PayResult {
  paid: { ownerId: number; amount: string; transferId: string }[];
  waiting: { ownerId: number; missing: ShareMissing[] }[];
}

/** GET /api/payouts/statements, GET /api/payee/{token}/statements */
export interface StatementYear {
  year: number;
  total: string;
  currency: string;
}

export const isOwnerRole = (v: string): v is OwnerRole => (OWNER_ROLES as readonly string[]).includes(v);

export const PAYEE_TEXTS = {
  title: 'Your share of the viral bonus',
  intro: 'You co-own songs released by the label. Your share of each bonus is paid to you once your tax form is filed and your payouts are connected. No account is needed.',
  earned: 'What you earned',
  owed: 'Owed to you',
  paid: 'Paid to you',
  taxForm: 'Tax form',
  taxFormOnFile: 'On file',
  taxFormMissing: 'Needed before your first payout',
  payouts: 'Payouts',
  connect: 'Connect payouts with Stripe',
  statements: 'Yearly statements',
  noShares: 'Nothing earned yet.',
  gone: 'This link has expired or is not valid. Ask for a fresh one below.',
  askLink: 'Send me a fresh link',
  linkSent: 'If that address is a payee’s, a fresh link is on its way.',
  taxFormSaved: 'Tax form filed',
  signConsent: 'I sign this form electronically: under penalties of perjury, the information on it is true, correct and complete.',
  keptNote: 'Tax papers (forms and statements) are kept for 7 years after the last payment, as a tax authority may ask for them.',
} as const;

export const TAX_REPORTING_THRESHOLD_DEFAULT_USD = 2000;
/** How long the label keeps a payee's tax form and statements after their last payment (decision 194). */
export const TAX_PAPERS_KEPT_YEARS = 7;
