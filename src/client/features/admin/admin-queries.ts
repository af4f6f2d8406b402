import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { AdminSubmission } from '@shared/submission-schemas';
import type { AdminSettableStatus } from '@shared/submissions';
import type { AdminSubmissionPage, SubmissionHistoryEntry } from '@shared/admin';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

export const ADMIN_SUBMISSIONS_KEY = '/api/admin/submissions';

export interface AdminListParams {
  status: string;
  q: string;
  page: number;
  pageSize: number;
}

function listUrl({ status, q, page, pageSize }: AdminListParams): string {
  const params = new URLSearchParams();
  if (status && status !== 'all') params.set('status', status);
  if (q.trim()) params.set('q', q.trim());
  params.set('page', String(page));
  params.set('pageSize', String(pageSize));
  return `${ADMIN_SUBMISSIONS_KEY}?${params}`;
}

/** One page of the admin list; the previous page stays on screen while the next one loads. */
export function useAdminSubmissions(params: AdminListParams) {
  return useQuery({
    queryKey: [ADMIN_SUBMISSIONS_KEY, params],
    queryFn: ({ signal }) => apiRequest<AdminSubmissionPage>('GET', listUrl(params), undefined, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One submission, fresh from the server; the list's copy shows meanwhile. */
export function useAdminSubmission(id: string, placeholder?: AdminSubmission) {
  return useQuery<AdminSubmission>({ queryKey: [ADMIN_SUBMISSIONS_KEY, id], placeholderData: placeholder });
}

export function useSubmissionHistory(id: string) {
  return useQuery<SubmissionHistoryEntry[]>({ queryKey: [ADMIN_SUBMISSIONS_KEY, id, 'history'] });
}

/** Every admin query (list pages, details, histories) is refetched after a change. */
const refreshAdminData = () => queryClient.invalidateQueries({ queryKey: [ADMIN_SUBMISSIONS_KEY] });

export function useChangeStatus(id: string) {
  return useMutation({
    mutationFn: (input: { status: AdminSettableStatus; review?: string }) =>
      apiRequest<AdminSubmission>('PATCH', `${ADMIN_SUBMISSIONS_KEY}/${id}/status`, input),
    onSuccess: async (submission) => {
      queryClient.setQueryData([ADMIN_SUBMISSIONS_KEY, id], submission);
      await refreshAdminData();
    },
  });
}

export function useSaveNotes(id: string) {
  return useMutation({
    mutationFn: (notes: string) => apiRequest<AdminSubmission>('PATCH', `${ADMIN_SUBMISSIONS_KEY}/${id}/notes`, { notes }),
    onSuccess: async (submission) => {
      queryClient.setQueryData([ADMIN_SUBMISSIONS_KEY, id], submission);
      await refreshAdminData();
    },
  });
}

export function useDeleteSubmission() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `${ADMIN_SUBMISSIONS_KEY}/${id}`),
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: [ADMIN_SUBMISSIONS_KEY, id] });
      await refreshAdminData();
    },
  });
}
