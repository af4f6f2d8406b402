// Bonuses and payees: earnings, clawbacks, payout accounts, payees, their shares and tax forms. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { oneOf } from './columns';
import { users } from './accounts';
import { submissions } from './submissions';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { OWNER_ROLES } from '../../../../shared/rights';
import { EARNING_STATUSES } from '../../../../shared/production';
import { STORED_PAYOUT_STATUSES } from '../../../../shared/payouts';
import { SHARE_STATUSES, TAX_FORM_KINDS } from '../../../../shared/payees';

/** The bonus ledger: one earning per published track after the artist's third hit. */
export const bonusEarnings = pgTable(
  'bonus_earnings',
  {
    submissionId: text('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: numeric('amount', { precision: 10, scale: 2 }).notNull(),
    status: text('status', { enum: EARNING_STATUSES }).notNull().default('owed'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidBy: text('paid_by').references(() => users.id, { onDelete: 'set null' }),
    /** The Stripe transfer that paid it (CONTRACT §19); null when unpaid or marked paid by hand. One earning, one transfer. */
    transferId: text('transfer_id').unique('bonus_earnings_transfer_id_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** CONTRACT §25: the hit this earning depended on was withdrawn before it was paid. */
    voidReason: text('void_reason'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (t) => [
    index('bonus_earnings_user_idx').on(t.userId, t.createdAt),
    oneOf('bonus_earnings_status_check', t.status, EARNING_STATUSES),
  ],
);

/**
 * A paid earning taken back (CONTRACT §25): written only by domain/bonus/withdraw-hit.ts, deducted
 * from the payee's next payouts (never charged to a card). A deduction that covers part of a line
 * splits it: the deducted part records where it went, the rest stays outstanding as a new line.
 */
export const bonusClawbacks = pgTable(
  'bonus_clawbacks',
  {
    id: text('id').primaryKey(),
    /** The earning clawed back. */
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** Whose next earnings it is deducted from: the payee of the share taken back (CONTRACT §24). */
    payeeId: text('payee_id')
      .notNull()
      .references(() => payees.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deductedAt: timestamp('deducted_at', { withTimezone: true }),
    /** The earning whose payout deducted it. */
    deductedFrom: text('deducted_from'),
  },
  (t) => [
    index('bonus_clawbacks_outstanding_idx').on(t.payeeId, t.createdAt).where(sql`${t.deductedAt} is null`),
    index('bonus_clawbacks_submission_idx').on(t.submissionId),
    check('bonus_clawbacks_amount_check', sql`${t.amountCents} > 0`),
  ],
);

/**
 * The artist's Stripe Connect Express account for bonus payouts (CONTRACT §19): one per artist,
 * its state kept current by `account.updated` (docs/decisions/162-bonus-payouts-stripe-connect.md).
 */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeAccountId: text('stripe_account_id').notNull().unique('payout_accounts_stripe_account_id_unique'),
    status: text('status', { enum: STORED_PAYOUT_STATUSES }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [oneOf('payout_accounts_status_check', t.status, STORED_PAYOUT_STATUSES)],
);

/**
 * Who a share of an earning is paid to (CONTRACT §24, decision 194): the submitting artist's own
 * (`userId`, paid through their account), or a co-owner by email (lower case, one payee however
 * many songs they co-own), who has no account. Kept when the artist's account is deleted: the tax
 * papers it holds are the label's to keep.
 */
export const payees = pgTable(
  'payees',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .unique('payees_user_id_unique')
      .references(() => users.id, { onDelete: 'set null' }),
    email: text('email').unique('payees_email_unique'),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('payees_email_lower_check', sql`${t.email} = lower(${t.email})`)],
);

export type PayeeRow = typeof payees.$inferSelect;

/** A payee's emailed link `/payee/{token}`: only the token's SHA-256, valid 30 days (decision 081). */
export const payeeLinks = pgTable(
  'payee_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    payeeId: text('payee_id')
      .notNull()
      .references(() => payees.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payee_links_payee_idx').on(t.payeeId)],
);

/**
 * One owner's part of an earning (CONTRACT §24): written with the earning from the split sheet
 * as it was then, in cents that add up to the earning. Its paid state has one writer
 * (domain/bonus/earning-payment.ts); one transfer per share.
 */
export const earningShares = pgTable(
  'earning_shares',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => bonusEarnings.submissionId, { onDelete: 'cascade' }),
    /** The owner's place on the split sheet; 0 is the submitting artist. */
    ownerId: integer('owner_id').notNull(),
    payeeId: text('payee_id').references(() => payees.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    role: text('role', { enum: OWNER_ROLES }).notNull(),
    share: numeric('share', { precision: 5, scale: 2 }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: SHARE_STATUSES }).notNull().default('unpaid'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidBy: text('paid_by').references(() => users.id, { onDelete: 'set null' }),
    transferId: text('transfer_id').unique('earning_shares_transfer_id_unique'),
    voidReason: text('void_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.ownerId], name: 'earning_shares_submission_id_owner_id_pk' }),
    index('earning_shares_payee_idx').on(t.payeeId, t.paidAt),
    oneOf('earning_shares_status_check', t.status, SHARE_STATUSES),
    oneOf('earning_shares_role_check', t.role, OWNER_ROLES),
    check('earning_shares_amount_check', sql`${t.amountCents} >= 0`),
  ],
);

export type EarningShareRow = typeof earningShares.$inferSelect;

/**
 * A payee's tax form as signed (CONTRACT §24): the TIN sealed with the token key (token-box.ts),
 * its last four kept apart to be shown; the rest as typed. A new form replaces the one on file.
 */
export const taxForms = pgTable(
  'tax_forms',
  {
    payeeId: text('payee_id')
      .primaryKey()
      .references(() => payees.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TAX_FORM_KINDS }).notNull(),
    legalName: text('legal_name').notNull(),
    country: text('country').notNull(),
    address: text('address').notNull(),
    tinSealed: text('tin_sealed'),
    tinLast4: text('tin_last4'),
    signedName: text('signed_name').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    signedBy: text('signed_by').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [oneOf('tax_forms_kind_check', t.kind, TAX_FORM_KINDS)],
);

export type TaxFormRow = typeof taxForms.$inferSelect;

/** A co-owner payee's Stripe Connect Express account (as the artist's `payout_accounts`, CONTRACT §19). */
export const payeePayoutAccounts = pgTable(
  'payee_payout_accounts',
  {
    payeeId: text('payee_id')
      .primaryKey()
      .references(() => payees.id, { onDelete: 'cascade' }),
    stripeAccountId: text('stripe_account_id').notNull().unique('payee_payout_accounts_stripe_account_id_unique'),
    status: text('status', { enum: STORED_PAYOUT_STATUSES }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [oneOf('payee_payout_accounts_status_check', t.status, STORED_PAYOUT_STATUSES)],
);
