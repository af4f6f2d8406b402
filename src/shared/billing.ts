import { formatUsd, type PaymentStatus, type PricingTier, type RefundReason } from './submissions';

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
/** The line item of a document whose submission was deleted before its payment succeeded and whose title Stripe did not keep. */
export const UNTITLED_WITHDRAWN_SUBMISSION = 'Withdrawn submission';

/** INV-2026-000001: the prefix, the year of issue and the sequence within that year, six digits. */
export function documentNumber(kind: BillingDocumentKind, year: number, sequence: number): string {
  return `${BILLING_DOCUMENT_PREFIX[kind]}-${year}-${String(sequence).padStart(6, '0')}`;
}

/** The URL path segment of each document's download (GET /api/submissions/{id}/invoice.pdf …). */
export const BILLING_DOCUMENT_FILE: Record<BillingDocumentKind, string> = { invoice: 'invoice.pdf', credit_note: 'credit-note.pdf' };

export const billingDocumentUrl = (submissionId: string, kind: BillingDocumentKind) =>
  `/api/submissions/${encodeURIComponent(submissionId)}/${BILLING_DOCUMENT_FILE[kind]}`;

/**
 * GET /api/billing/documents/{number}.pdf (CONTRACT §21): a document by its number, which outlives
 * its submission and its artist's account; the link every email and the billing page use.
 */
export const billingDocumentNumberUrl = (number: string) => `/api/billing/documents/${encodeURIComponent(number)}.pdf`;

/** INV-2026-000001 or CN-2026-000001, as a path may name it. */
export const DOCUMENT_NUMBER_PATTERN = /^(INV|CN)-\d{4}-\d{6,}$/;

/** One of the artist's documents, also of a submission since deleted (submissionId null). */
export interface BillingDocumentListItem {
  id: string;
  kind: BillingDocumentKind;
  number: string;
  issuedAt: string;
  /** In the currency's major unit ("99.00"); negative never: a credit note states what it refunds. */
  amount: string;
  currency: string;
  songTitle: string;
  submissionId: string | null;
  url: string;
}

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
  /** Every invoice and credit note issued to the caller, newest first, kept after a deletion (CONTRACT §21). */
  documents: BillingDocumentListItem[];
}

/**
 * A document's amount as a list of documents shows it: a credit note takes the money back, so it
 * reads negative and says it is a refund ("-$49.00 refunded"), as its PDF does; "$49.00" beside an
 * invoice's "$49.00" read as a second charge (issue 43).
 */
export function formatDocumentAmount(document: Pick<BillingDocumentListItem, 'kind' | 'amount' | 'currency'>): string {
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: document.currency.toUpperCase() });
  const amount = Number(document.amount);
  return document.kind === 'credit_note' ? `${money.format(-amount)} refunded` : money.format(amount);
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
  withdrawn: 'You withdrew this submission, so your payment was refunded in full.',
  late_decision: 'We did not give you a decision by the date we promised, so your payment was refunded in full. Your submission stays in review: you will still get our answer.',
};

/** Why a payment was refunded, as the team's desk and history name it. */
export const REFUND_REASON_TEAM_LABEL: Record<RefundReason, string> = {
  admin: 'by the team',
  late_delivery: 'late delivery, automatically',
  rejected: 'rejected before delivery, automatically',
  withdrawn: 'withdrawn by the artist',
  late_decision: 'no decision by the promised date, automatically',
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
 * The refund rule as both sides read it (CONTRACT §19, §21): a payment that went through, is not
 * refunded and paid for work not delivered yet is refunded in full when the work is rejected,
 * withdrawn or deleted. The amount refunded ("$99.00"), or null when nothing would be.
 */
type RefundRuleInput = {
  paymentStatus: PaymentStatus | null;
  refundRequestedAt: string | Date | null;
  deliveredAt: string | Date | null;
  amount: string | null;
};

export function isRefundOwedFor(submission: RefundRuleInput): boolean {
  return submission.paymentStatus === 'succeeded' && !submission.refundRequestedAt && !submission.deliveredAt;
}

export function refundOwedOf(submission: RefundRuleInput): string | null {
  return isRefundOwedFor(submission) ? formatUsd(submission.amount ?? 0) : null;
}

/** What the product's own confirmations say before money moves (CONTRACT §21): one text each. */
export const MONEY_CONFIRM_TEXTS = {
  withdrawTitle: (songTitle: string) => `Delete "${songTitle}"?`,
  withdrawBody: 'The submission and its files are deleted. This cannot be undone.',
  withdrawRefund: (amount: string) => `You will be refunded ${amount}.`,
  withdrawConfirm: 'Delete submission',
  rejectRefund: (amount: string) => `Rejecting refunds ${amount} to the artist`,
  rejectRefundMany: (amount: string, count: number) => `Rejecting refunds ${amount} in all to the artists of ${count} paid submissions`,
  rejectRefundConfirm: 'Reject and Refund',
  rejectedAndRefunded: (amount: string) => `${amount} is refunded to the artist through Stripe.`,
  refundTitle: 'Refund the payment?',
  refundBody: (amount: string) => `${amount} goes back to the artist's card through Stripe, and a credit note is issued. This cannot be undone.`,
  refundConfirm: 'Refund',
  payBonusTitle: 'Pay this bonus with Stripe?',
  payBonusBody: (amount: string, owners: string) => `${amount} is transferred to the Stripe payout accounts of ${owners}, each their share. This cannot be undone.`,
  payBonusConfirm: 'Pay with Stripe',
  disconnectTitle: 'Disconnect the channel?',
  disconnectBody: 'Publishing on YouTube and reading its views stop until the channel is connected again.',
  disconnectConfirm: 'Disconnect',
} as const;

/**
 * The VAT a price includes at `ratePercent`, in cents, rounded to the cent: total − total / (1 + rate).
 * The invoice's VAT line and the checkout's "VAT included" say the same figure.
 */
export function includedVatCents(totalCents: number, ratePercent: number): number {
  return Math.round(totalCents - totalCents / (1 + ratePercent / 100));
}
