import type { PaymentStatus, PricingTier, RefundReason } from './submissions';

/**
 * Invoices and credit notes (CONTRACT §19): one invoice per succeeded payment, one credit note
 * per refund, numbered gaplessly per kind and calendar year (UTC) of issue.
 */
export const BILLING_DOCUMENT_KINDS = ['invoice', 'credit_note'] as const;
export type BillingDocumentKind = (typeof BILLING_DOCUMENT_KINDS)[number];

/**
 * Who sells, as a document shows it (LABEL_LEGAL_NAME, LABEL_ADDRESS, LABEL_TAX_ID, VAT_RATE):
 * kept with each document when it is issued, so a later change of address or VAT rate never
 * rewrites a document already issued (decision 169).
 */
export interface BillingSeller {
  legalName?: string | undefined;
  address?: string | undefined;
  taxId?: string | undefined;
  /** The VAT included in the prices, as a percentage. */
  vatRatePercent?: number | undefined;
}

export const BILLING_DOCUMENT_PREFIX: Record<BillingDocumentKind, string> = { invoice: 'INV', credit_note: 'CN' };
export const BILLING_DOCUMENT_TITLE: Record<BillingDocumentKind, string> = { invoice: 'Invoice', credit_note: 'Credit note' };

/** INV-2026-000001: the prefix, the year of issue and the sequence within that year, six digits. */
export function documentNumber(kind: BillingDocumentKind, year: number, sequence: number): string {
  return `${BILLING_DOCUMENT_PREFIX[kind]}-${year}-${String(sequence).padStart(6, '0')}`;
}

/** The URL path segment of each document's download (GET /api/submissions/{id}/invoice.pdf …). */
export const BILLING_DOCUMENT_FILE: Record<BillingDocumentKind, string> = { invoice: 'invoice.pdf', credit_note: 'credit-note.pdf' };

export const billingDocumentUrl = (submissionId: string, kind: BillingDocumentKind) =>
  `/api/submissions/${encodeURIComponent(submissionId)}/${BILLING_DOCUMENT_FILE[kind]}`;

/** GET /api/billing: the caller's payments, newest first, with their documents. */
export interface BillingDocumentSummary {
  kind: BillingDocumentKind;
  number: string;
  issuedAt: string;
  url: string;
}

export interface BillingPayment {
  submissionId: string;
  songTitle: string;
  tier: PricingTier;
  tierName: string;
  /** The amount charged, in the currency's major unit ("49.00"). */
  amount: string;
  currency: string;
  paymentStatus: PaymentStatus;
  paidAt: string | null;
  refundReason: RefundReason | null;
  documents: BillingDocumentSummary[];
}

export interface BillingResponse {
  payments: BillingPayment[];
}

/** A payment's status as the billing page names it. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Awaiting payment',
  succeeded: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
};

/** Why a submission's payment was refunded, as the artist reads it (details, email, billing). */
export const REFUND_REASON_TEXT: Record<RefundReason, string> = {
  admin: 'The label refunded your payment.',
  late_delivery: 'We missed the delivery date, so your payment was refunded in full.',
  rejected: 'The label turned down this submission before anything was delivered, so your payment was refunded in full.',
};

/** Why a payment was refunded, as the team's desk and history name it. */
export const REFUND_REASON_TEAM_LABEL: Record<RefundReason, string> = {
  admin: 'by the team',
  late_delivery: 'late delivery, automatically',
  rejected: 'rejected before delivery, automatically',
};

/** Said on the plan step, before the artist pays, and in the Terms (one text). */
export const REJECTION_REFUND_PROMISE =
  'If the label turns down a paid submission before delivering anything, your payment is refunded in full.';

/** The 404 of a document that does not exist yet. */
export const NO_DOCUMENT_MESSAGE: Record<BillingDocumentKind, string> = {
  invoice: 'No invoice yet: an invoice is issued when the payment succeeds',
  credit_note: 'No credit note: one is issued when the payment is refunded',
};

/**
 * The VAT a price includes at `ratePercent`, in cents, rounded to the cent: total − total / (1 + rate).
 * The invoice's VAT line and the checkout's "VAT included" say the same figure.
 */
export function includedVatCents(totalCents: number, ratePercent: number): number {
  return Math.round(totalCents - totalCents / (1 + ratePercent / 100));
}
