import { useInfiniteQuery, useMutation, useQuery, type InfiniteData } from '@tanstack/react-query';
import { useMemo } from 'react';
import { SUBMISSIONS_PAGE_SIZE } from '@shared/submissions';
import {
  type ArtistStats,
  type CreateSubmissionInput,
  type DraftSubmissionInput,
  type OwnSubmission,
  type Submission,
  type SubmissionListItem,
  type UrlMetadata,
} from '@shared/submission-schemas';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

const SUBMISSIONS_QUERY_KEY = ['/api/submissions'] as const;
const STATS_QUERY_KEY = ['/api/stats'] as const;

/** A queue place moves as the team decides other artists' work: the list is read again every minute while it shows one. */
const PLACE_REFRESH_MS = 60_000;

/**
 * The artist's own submissions, newest first (CONTRACT §4), a page at a time: `list` is every
 * page loaded so far, `fetchNextPage` brings the next older one ("Load more"). A full page means
 * there may be more. The browser revalidates each page with its ETag, so a refresh of an
 * unchanged list is a 304. Each item carries what its row shows beside it (its queue place, its
 * agreement's state): a row reads nothing of its own.
 */
export function useSubmissions() {
  const query = useInfiniteQuery({
    queryKey: SUBMISSIONS_QUERY_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<SubmissionListItem[]>('GET', `/api/submissions${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    getNextPageParam: (last) => (last.length >= SUBMISSIONS_PAGE_SIZE ? last.at(-1)?.id : undefined),
    refetchInterval: ({ state }) => (state.data?.pages.some((page) => page.some((item) => item.queuePosition !== null)) ? PLACE_REFRESH_MS : false),
  });
  // The same array while the pages are the same: a list deferred by identity (the dashboard's) is drawn once.
  const list = useMemo(() => query.data?.pages.flat() ?? [], [query.data]);
  return { ...query, list };
}

export function useArtistStats() {
  return useQuery<ArtistStats>({ queryKey: STATS_QUERY_KEY });
}

/**
 * After a write: the query is read afresh when it next shows (at once if it shows now). A read
 * already on its way may have been answered before the write, and TanStack Query folds an
 * invalidation into a query's first fetch (one without data yet) instead of fetching again, so
 * that read is cancelled first: the dashboard opened by the wizard's Close, while the draft's
 * save was still on its way, kept showing no draft.
 */
async function readAfterWrite(queryKey: readonly unknown[], exact: boolean): Promise<void> {
  await queryClient.cancelQueries({ queryKey, exact });
  await queryClient.invalidateQueries({ queryKey, exact });
}

function refreshSubmissionLists(): Promise<unknown> {
  return Promise.all([readAfterWrite(SUBMISSIONS_QUERY_KEY, false), readAfterWrite(STATS_QUERY_KEY, false)]);
}

/**
 * A draft was saved from the wizard: the list is read afresh, so a draft closed a moment ago is
 * on the dashboard. Exact, so the draft's own query in the wizard is left alone.
 */
export function markSubmissionListStale(): Promise<void> {
  return readAfterWrite(SUBMISSIONS_QUERY_KEY, true);
}

export function useCreateSubmission() {
  return useMutation({
    mutationFn: (input: CreateSubmissionInput) => apiRequest<Submission>('POST', '/api/submissions', input),
    onSuccess: refreshSubmissionLists,
  });
}

/** POST /api/submissions/{id}/submit: the draft, with its last changes, goes to the label. */
export function useSubmitDraft() {
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: DraftSubmissionInput }) =>
      apiRequest<Submission>('POST', `/api/submissions/${encodeURIComponent(id)}/submit`, input),
    onSuccess: refreshSubmissionLists,
  });
}

/** A draft with its attached uploads, to continue in the wizard (read once, fresh). */
export function useDraft(id: string | null) {
  return useQuery<OwnSubmission>({
    queryKey: ['/api/submissions', id ?? ''],
    enabled: id !== null,
    refetchOnMount: 'always',
    gcTime: 0,
  });
}

/** One of the artist's submissions, read alone: one an email links to that no loaded page holds. */
export function useSubmission(id: string | null, options: { refetchInterval?: number } = {}) {
  return useQuery<OwnSubmission>({ queryKey: ['/api/submissions', id ?? ''], enabled: id !== null, ...options });
}

/** POST /api/submissions/{id}/seen: the artist opened it; its "Updated" marker goes. */
export function useMarkSeen() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('POST', `/api/submissions/${encodeURIComponent(id)}/seen`),
    onSuccess: (_data, id) => {
      const seen = <T extends Submission>(s: T): T => (s.id === id ? { ...s, hasUnseenUpdate: false } : s);
      queryClient.setQueryData<InfiniteData<SubmissionListItem[], string | undefined>>(SUBMISSIONS_QUERY_KEY, (data) =>
        data && { ...data, pages: data.pages.map((page) => page.map(seen)) },
      );
      queryClient.setQueryData<OwnSubmission>(['/api/submissions', id], (one) => one && seen(one));
    },
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
