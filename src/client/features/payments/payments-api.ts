import { useQuery } from '@tanstack/react-query';
import type { Submission } from '@shared/submission-schemas';
import { apiRequest } from '@client/lib/api';
import type { CreatePaymentIntentInput, PaymentReceipt, PreparedPayment } from '@shared/payments';

export const receiptDownloadUrl = (submissionId: string) =>
  `/api/payments/${encodeURIComponent(submissionId)}/receipt/download`;

/** Where the browser comes back to after paying; the submission id tells the page which payment it was. */
export const successPath = (submissionId: string) => `/payment-success?submission=${encodeURIComponent(submissionId)}`;
export const failurePath = (submissionId: string) => `/payment-failure?submission=${encodeURIComponent(submissionId)}`;

/** GET /api/submissions/{id}; always fresh, since its status decides whether payment is possible. */
export function useCheckoutSubmission(submissionId: string) {
  return useQuery<Submission>({
    queryKey: ['/api/submissions', submissionId],
    refetchOnMount: 'always',
  });
}

/**
 * The payment intent of the submission. A query rather than a mutation: the server hands out the
 * same open intent on every call, so a repeat (a remount, React's strict mode) is harmless.
 */
export function usePaymentIntent(submissionId: string, enabled: boolean) {
  return useQuery<PreparedPayment>({
    queryKey: ['/api/create-payment-intent', submissionId],
    queryFn: () => apiRequest<PreparedPayment>('POST', '/api/create-payment-intent', { submissionId } satisfies CreatePaymentIntentInput),
    enabled,
    gcTime: 0,
  });
}

/** How long /payment-success waits for Stripe's confirmation to reach the server before saying so. */
export const CONFIRMATION_WAIT_MS = 60_000;
const CONFIRMATION_POLL_MS = 2_000;

/**
 * The payment's receipt. Stripe's webhook may reach the server a moment after the browser comes
 * back, so while the payment is still pending the receipt is asked for again every 2 s, for a minute.
 */
export function usePaymentReceipt(submissionId: string | null, startedAt: number) {
  return useQuery<PaymentReceipt>({
    queryKey: ['/api/payments', submissionId ?? '', 'receipt'],
    enabled: submissionId !== null,
    refetchOnMount: 'always',
    refetchInterval: (query) => {
      const status = query.state.data?.paymentStatus;
      return status === 'pending' && Date.now() - startedAt < CONFIRMATION_WAIT_MS ? CONFIRMATION_POLL_MS : false;
    },
  });
}
