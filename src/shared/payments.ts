/** Payments on the wire (SPEC §2 "Checkout", CONTRACT §6). */

/** SPEC §2: the order id is the last 8 characters of the submission id, upper-cased. */
export const orderIdOf = (submissionId: string): string => submissionId.slice(-8).toUpperCase();

/** Statuses in which the checkout takes a payment (SPEC §4, CONTRACT §6). */
export const PAYABLE_STATUSES: readonly string[] = ['payment_pending', 'payment_failed'];

/** GET /api/payments/{submissionId}/receipt: what /payment-success shows. */
export interface PaymentReceipt {
  submissionId: string;
  orderId: string;
  songTitle: string;
  artistName: string;
  tier: string;
  tierName: string;
  /** Dollars with 2 decimals, from the tier. */
  amount: string;
  currency: string;
  /** pending, failed or succeeded (null for a free submission). */
  paymentStatus: string | null;
  paidAt: string | null;
  paymentId: string | null;
  /** What the plan promises, e.g. "7-day delivery". */
  includes: string[];
}
