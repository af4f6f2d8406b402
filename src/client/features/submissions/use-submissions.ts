import { useMutation, useQuery } from '@tanstack/react-query';
import type { ArtistStats, CreateSubmissionInput, Submission, UrlMetadata } from '@shared/submission-schemas';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

export const SUBMISSIONS_QUERY_KEY = ['/api/submissions'] as const;
export const STATS_QUERY_KEY = ['/api/stats'] as const;

/** The artist's own submissions, newest first (CONTRACT §4). */
export function useSubmissions() {
  return useQuery<Submission[]>({ queryKey: SUBMISSIONS_QUERY_KEY });
}

export function useArtistStats() {
  return useQuery<ArtistStats>({ queryKey: STATS_QUERY_KEY });
}

function refreshSubmissionLists(): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: SUBMISSIONS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: STATS_QUERY_KEY }),
  ]);
}

export function useCreateSubmission() {
  return useMutation({
    mutationFn: (input: CreateSubmissionInput) => apiRequest<Submission>('POST', '/api/submissions', input),
    onSuccess: refreshSubmissionLists,
  });
}

export function useDeleteSubmission() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `/api/submissions/${encodeURIComponent(id)}`),
    onSuccess: refreshSubmissionLists,
  });
}

export function fetchUrlMetadata(url: string, signal?: AbortSignal): Promise<UrlMetadata> {
  return apiRequest<UrlMetadata>('POST', '/api/url-metadata', { url }, { signal });
}
