// Billing: Stripe's events, payment records, invoices and credit notes with their numbering. One area of the schema (index.ts, decision 200).
import { index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from './columns';
import { users } from './accounts';
import { submissions } from './submissions';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { BILLING_DOCUMENT_KINDS, type BillingSeller } from '../../../../shared/billing';
import { PAYMENT_STATUSES, PRICING_TIERS } from '../../../../shared/submissions';

/** Stripe events already handled, so a redelivered event changes nothing more (CONTRACT §6). */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  submissionId: text('submission_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What stays of a payment when the submission it paid for is deleted with its account
 * (CONTRACT §11): the label's accounting record, with no personal data and no link to a person.
 */
export const paymentRecords = pgTable(
  'payment_records',
  {
    stripePaymentIntentId: text('stripe_payment_intent_id').primaryKey(),
    /** The deleted submission's id, kept only to match Stripe's own records. */
    submissionId: text('submission_id').notNull(),
    pricingTier: text('pricing_tier', { enum: PRICING_TIERS }).notNull(),
    amount: numeric('amount', { precision: 10, scale: 2 }),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('payment_records_pricing_tier_check', t.pricingTier, PRICING_TIERS),
    oneOf('payment_records_payment_status_check', t.paymentStatus, PAYMENT_STATUSES),
  ],
);

/**
 * Invoices and credit notes (CONTRACT §19), each a record that does not change once issued: the
 * buyer, plan and amount as they were at issue. Kept when the submission or account goes
 * (accounting records): the links then turn null.
 */
export const billingDocuments = pgTable(
  'billing_documents',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: BILLING_DOCUMENT_KINDS }).notNull(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    /** INV-2026-000001 / CN-2026-000001 (documentNumber in src/shared/billing.ts). */
    number: text('number').notNull(),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    pricingTier: text('pricing_tier', { enum: PRICING_TIERS }).notNull(),
    songTitle: text('song_title').notNull(),
    /** What Stripe charged (or refunded), in the currency's smallest unit. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    buyerName: text('buyer_name'),
    buyerEmail: text('buyer_email'),
    buyerCountry: text('buyer_country'),
    /** On a credit note: the invoice it cancels. */
    invoiceNumber: text('invoice_number'),
    /** The seller and VAT rate as at issue; null on documents issued before they were kept (migration 0024). */
    seller: jsonb('seller').$type<BillingSeller>(),
  },
  (t) => [
    uniqueIndex('billing_documents_number_key').on(t.number),
    uniqueIndex('billing_documents_kind_year_sequence_key').on(t.kind, t.year, t.sequence),
    uniqueIndex('billing_documents_submission_kind_key').on(t.submissionId, t.kind),
    index('billing_documents_user_idx').on(t.userId, t.issuedAt),
    oneOf('billing_documents_kind_check', t.kind, BILLING_DOCUMENT_KINDS),
    oneOf('billing_documents_pricing_tier_check', t.pricingTier, PRICING_TIERS),
  ],
);

/** The last number issued per kind and year; bumped in the transaction that issues the next one. */
export const billingDocumentCounters = pgTable(
  'billing_document_counters',
  {
    kind: text('kind', { enum: BILLING_DOCUMENT_KINDS }).notNull(),
    year: integer('year').notNull(),
    lastSequence: integer('last_sequence').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.year] }), oneOf('billing_document_counters_kind_check', t.kind, BILLING_DOCUMENT_KINDS)],
);

export type BillingDocumentRow = typeof billingDocuments.$inferSelect;
