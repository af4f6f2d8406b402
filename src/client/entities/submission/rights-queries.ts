import { useMutation, useQuery } from '@tanstack/react-query';
import type { Agreement, RightsState, SigningLinkView } from '@shared/rights';
import { isPublishable } from '@shared/submissions';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

/** Keyed by their API path, so a live submission_changed reads them again (entities/live/live-reads.ts). */
const agreementKey = (id: string) => [`/api/submissions/${id}/agreement`] as const;
const rightsKey = (id: string) => [`/api/admin/submissions/${id}/rights`] as const;
const signingKey = (token: string) => [`/api/sign/${token}`] as const;

export const agreementPdfUrl = (id: string) => `/api/submissions/${id}/agreement.pdf`;
/** A co-owner's copy from the thank-you page, with the link they have just used (for an hour; decision 189). */
export const signedCopyUrl = (token: string) => `/api/sign/${token}/agreement.pdf`;
export const allowlistLetterUrl = (id: string) => `/api/admin/submissions/${id}/allowlist-letter.pdf`;
/** The handover packages (CONTRACT §28): for a distributor, and for a lawyer. */
export const releasePackageUrl = (id: string) => `/api/admin/submissions/${id}/release.zip`;
export const evidencePackUrl = (id: string) => `/api/admin/submissions/${id}/evidence.zip`;

/** The licence agreement of an approved submission (CONTRACT §22); none is asked for before approval, nor while `enabled` is false. */
export function useAgreement(submission: { id: string; status: string }, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<Agreement>({ queryKey: agreementKey(submission.id), enabled: enabled && isPublishable(submission.status) });
}

export function useSignAgreement(id: string) {
  return useMutation({
    mutationFn: (input: { name: string; consent: true; onBehalf?: boolean; disclosureVersion: number }) => apiRequest<Agreement>('POST', `/api/submissions/${id}/agreement/sign`, input),
    onSuccess: (agreement) => {
      queryClient.setQueryData(agreementKey(id), agreement);
      void queryClient.invalidateQueries({ queryKey: rightsKey(id) });
      // The dashboard's list says whether the agreement still waits for the artist (its row's button).
      void queryClient.invalidateQueries({ queryKey: ['/api/submissions'], exact: true });
    },
  });
}

/** The desk's rights step. */
export function useRights(id: string) {
  return useQuery<RightsState>({ queryKey: rightsKey(id) });
}

export function useMarkAllowlist(id: string) {
  return useMutation({
    mutationFn: (done: boolean) => apiRequest<RightsState>('POST', `/api/admin/submissions/${id}/allowlist`, { done }),
    onSuccess: (state) => queryClient.setQueryData(rightsKey(id), state),
  });
}

/** A co-owner's signing link, read without an account; a used or expired link answers 410. */
export function useSigningLink(token: string) {
  return useQuery<SigningLinkView>({ queryKey: signingKey(token), retry: false });
}

export function useSignByLink(token: string) {
  return useMutation({
    mutationFn: (input: { name: string; consent: true; disclosureVersion: number }) => apiRequest<SigningLinkView>('POST', `/api/sign/${token}`, input),
    onSuccess: (view) => queryClient.setQueryData(signingKey(token), view),
  });
}
