import { z } from 'zod';
import type { PaymentStatus } from './submissions';

/** Payments on the wire (SPEC §2 "Checkout", CONTRACT §6). */

/** SPEC §2: the order id is the last 8 characters of the submission id, upper-cased. */
export const orderIdOf = (submissionId: string): string => submissionId.slice(-8).toUpperCase();

/** POST /api/create-payment-intent (CONTRACT §6). */
export const createPaymentIntentSchema = z.object({
  submissionId: z.string({ message: 'submissionId is required' }).trim().min(1, 'submissionId is required').max(100),
});
export type CreatePaymentIntentInput = z.infer<typeof createPaymentIntentSchema>;

/** Its answer: the open PaymentIntent's secret for the card form, and what it will charge. */
export interface PreparedPayment {
  clientSecret: string;
  /** What will be charged, in dollars with 2 decimals, for the order summary. */
  amount: string;
  currency: string;
}

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
  /** Null for a free submission. */
  paymentStatus: PaymentStatus | null;
  paidAt: string | null;
  paymentId: string | null;
  /** What the plan promises, e.g. "7-day delivery". */
  includes: string[];
}
