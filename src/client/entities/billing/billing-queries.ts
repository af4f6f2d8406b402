import { useQuery } from '@tanstack/react-query';
import type { BillingPayment, BillingResponse } from '@shared/billing';

/** GET /api/billing: the artist's payments and their invoices and credit notes (CONTRACT §19). */
export function useBilling(enabled = true) {
  return useQuery<BillingResponse>({ queryKey: ['/api/billing'], enabled, refetchOnMount: 'always' });
}

/** The payment of one submission, as the billing list has it; undefined while loading or when it has none. */
export function useSubmissionBilling(submissionId: string, enabled = true): BillingPayment | undefined {
  return useBilling(enabled).data?.payments.find((p) => p.submissionId === submissionId);
}
