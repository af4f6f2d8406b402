import type { PayResult } from '@shared/payees';
import { useMutation, useQuery } from '@tanstack/react-query';
import { DELIVERABLE_MAX_BYTES } from '@shared/production-texts';
import type { ArtistLedger, BonusEarning, BonusState, Delivery, EarningStatus, ProductionState, ViralReviewInput, PublicationInput, RevisionRequest } from '@shared/production';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';
import { uploadResumable } from '@client/lib/resumable-upload';
import type { RightsOverride } from './rights-override';

/** After approval (CONTRACT §13): queries both the artist's and the team's screens use. */

const productionKey = (submissionId: string) => ['/api/submissions', submissionId, 'production'];
const BONUS_KEY = ['/api/bonus'];
const LEDGERS_KEY = ['/api/admin/bonus'];

export function useProduction(submissionId: string) {
  return useQuery<ProductionState>({ queryKey: productionKey(submissionId) });
}

export function useBonus() {
  return useQuery<BonusState>({ queryKey: BONUS_KEY });
}

export function useLedgers() {
  return useQuery<ArtistLedger[]>({ queryKey: LEDGERS_KEY });
}

const refresh = (submissionId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: productionKey(submissionId) }),
    queryClient.invalidateQueries({ queryKey: ['/api/admin/submissions'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/submissions'] }),
  ]);

export function useRequestRevision(submissionId: string) {
  return useMutation({
    mutationFn: (note: string) => apiRequest<RevisionRequest>('POST', `/api/submissions/${submissionId}/revisions`, { note }),
    onSuccess: () => refresh(submissionId),
  });
}

export function useDeliver(submissionId: string) {
  return useMutation({
    mutationFn: (input: { objectPaths: string[]; note: string }) =>
      apiRequest<Delivery>('POST', `/api/admin/submissions/${submissionId}/deliverables`, input),
    onSuccess: () => refresh(submissionId),
  });
}

export function useRefund(submissionId: string) {
  return useMutation({
    mutationFn: () => apiRequest<ProductionState>('POST', `/api/admin/submissions/${submissionId}/refund`),
    onSuccess: () => refresh(submissionId),
  });
}

export function usePublish(submissionId: string) {
  return useMutation({
    mutationFn: (input: PublicationInput & RightsOverride) => apiRequest<ProductionState>('PUT', `/api/admin/submissions/${submissionId}/publication`, input),
    onSuccess: () => Promise.all([refresh(submissionId), queryClient.invalidateQueries({ queryKey: LEDGERS_KEY })]),
  });
}

export function useEnterViews(submissionId: string) {
  return useMutation({
    mutationFn: (viewsAt14Days: number) => apiRequest<ProductionState>('PUT', `/api/admin/submissions/${submissionId}/views`, { viewsAt14Days }),
    onSuccess: () => Promise.all([refresh(submissionId), queryClient.invalidateQueries({ queryKey: LEDGERS_KEY })]),
  });
}

/** The team's decision on a suspect viral hit (CONTRACT §25). */
export function useViralReview(submissionId: string) {
  return useMutation({
    mutationFn: (input: ViralReviewInput) => apiRequest<ProductionState>('POST', `/api/admin/submissions/${submissionId}/viral-review`, input),
    onSuccess: () => Promise.all([refresh(submissionId), queryClient.invalidateQueries({ queryKey: LEDGERS_KEY })]),
  });
}

export function useMarkEarning() {
  return useMutation({
    mutationFn: (input: { submissionId: string; status: EarningStatus }) =>
      apiRequest<BonusEarning>('PATCH', `/api/admin/bonus/earnings/${input.submissionId}`, { status: input.status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEDGERS_KEY }),
  });
}

/** One Stripe transfer of the earning to the artist's connected account (CONTRACT §19). */
export function usePayEarning() {
  return useMutation({
    mutationFn: (submissionId: string) => apiRequest<PayResult>('POST', `/api/admin/bonus/earnings/${encodeURIComponent(submissionId)}/pay`),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: LEDGERS_KEY }), queryClient.invalidateQueries({ queryKey: ['/api/admin/payees'] })]),
  });
}

/**
 * A file the team delivers, through the resumable (tus) uploader every large file uses: up to
 * 2 GiB, continuing after a dropped connection from the last byte the server has; then the
 * server's check of what the bytes are (images, ZIP, audio, video).
 */
export async function uploadDeliverable(file: File, onProgress: (percent: number) => void = () => {}): Promise<string> {
  // Uppy and tus load with the team's first upload, not with every screen that shows production
  // state (the artist's dashboard reads the bonus from this module; issue 16's page budgets).
  const uploadURL = await uploadResumable(file, DELIVERABLE_MAX_BYTES, onProgress);
  const { objectPath } = await apiRequest<{ objectPath: string }>('PUT', '/api/admin/deliverable-files', { deliverableFileURL: uploadURL, fileName: file.name });
  return objectPath;
}
