import { useMutation, useQuery } from '@tanstack/react-query';
import type { ArtistLedger, BonusEarning, BonusState, Delivery, ProductionState, PublicationInput, RevisionRequest } from '@shared/production';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

/** After approval (CONTRACT §13): queries both the artist's and the team's screens use. */

export const productionKey = (submissionId: string) => ['/api/submissions', submissionId, 'production'];
export const BONUS_KEY = ['/api/bonus'];
export const LEDGERS_KEY = ['/api/admin/bonus'];

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
    mutationFn: (input: PublicationInput) => apiRequest<ProductionState>('PUT', `/api/admin/submissions/${submissionId}/publication`, input),
    onSuccess: () => Promise.all([refresh(submissionId), queryClient.invalidateQueries({ queryKey: LEDGERS_KEY })]),
  });
}

export function useEnterViews(submissionId: string) {
  return useMutation({
    mutationFn: (viewsAt14Days: number) => apiRequest<ProductionState>('PUT', `/api/admin/submissions/${submissionId}/views`, { viewsAt14Days }),
    onSuccess: () => Promise.all([refresh(submissionId), queryClient.invalidateQueries({ queryKey: LEDGERS_KEY })]),
  });
}

export function useMarkEarning() {
  return useMutation({
    mutationFn: (input: { submissionId: string; status: 'owed' | 'paid' }) =>
      apiRequest<BonusEarning>('PATCH', `/api/admin/bonus/earnings/${input.submissionId}`, { status: input.status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LEDGERS_KEY }),
  });
}

/**
 * A file the team delivers, through the upload flow every file uses: an upload URL, the bytes
 * PUT to it, then the server's check of what they are.
 */
export async function uploadDeliverable(file: File): Promise<string> {
  const { uploadURL } = await apiRequest<{ uploadURL: string }>('POST', '/api/objects/upload');
  const put = await fetch(uploadURL, { method: 'PUT', body: file, credentials: 'include', headers: { 'content-type': file.type || 'application/octet-stream' } });
  if (!put.ok) throw new Error(`Upload of ${file.name} failed (${put.status})`);
  const { objectPath } = await apiRequest<{ objectPath: string }>('PUT', '/api/admin/deliverable-files', {
    deliverableFileURL: uploadURL,
    fileName: file.name,
  });
  return objectPath;
}
