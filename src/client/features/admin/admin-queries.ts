import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { AdminSubmission } from '@shared/submission-schemas';
import type { AdminSettableStatus } from '@shared/submissions';
import type { AdminSort, AdminSubmissionPage, SubmissionHistoryEntry } from '@shared/admin';
import type {
  BulkActionInput,
  BulkResult,
  ReviewTemplate,
  SubmissionRatings,
  TeamMember,
  TrackComment,
  Waveform,
} from '@shared/review-desk';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

const ADMIN_SUBMISSIONS_KEY = '/api/admin/submissions';

interface AdminListFilter {
  status: string;
  q: string;
  /** '' (everyone's), 'me' or 'none'. */
  assignee: string;
  tag: string;
  /** '' (any), or a deadline filter (CONTRACT §13). */
  due?: string;
  /** '' (any), or a rights state (CONTRACT §22). */
  rights?: string;
  /** '' (any), or a viral screen state (CONTRACT §25): `suspect` lists the hits waiting for a decision. */
  viral?: string;
  /** '' (any), or a decision filter (CONTRACT §26). */
  decision?: string;
}

export interface AdminListParams extends AdminListFilter {
  page: number;
  pageSize: number;
  sort: AdminSort;
}

function filterParams({ status, q, assignee, tag, due, rights, viral, decision }: AdminListFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (decision) params.set('decision', decision);
  if (due) params.set('due', due);
  if (rights) params.set('rights', rights);
  if (viral) params.set('viral', viral);
  if (status && status !== 'all') params.set('status', status);
  if (q.trim()) params.set('q', q.trim());
  if (assignee) params.set('assignee', assignee);
  if (tag.trim()) params.set('tag', tag.trim());
  return params;
}

function listUrl(params: AdminListParams): string {
  const query = filterParams(params);
  query.set('page', String(params.page));
  query.set('pageSize', String(params.pageSize));
  if (params.sort !== 'created') query.set('sort', params.sort);
  return `${ADMIN_SUBMISSIONS_KEY}?${query}`;
}

/** The CSV export of what the list shows (all pages), as a download link. */
export function csvExportUrl(filter: AdminListFilter): string {
  const query = filterParams(filter).toString();
  return `${ADMIN_SUBMISSIONS_KEY}.csv${query ? `?${query}` : ''}`;
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

/**
 * The submission a link names (/admin?submission={id}, from the daily digest), read on its own:
 * it may be on any page of the list, or on none the current filter shows.
 */
export function useLinkedSubmission(id: string | null) {
  return useQuery<AdminSubmission>({
    queryKey: [ADMIN_SUBMISSIONS_KEY, id],
    queryFn: ({ signal }) => apiRequest<AdminSubmission>('GET', `${ADMIN_SUBMISSIONS_KEY}/${encodeURIComponent(id!)}`, undefined, { signal }),
    enabled: id !== null,
  });
}

/** Every admin, for the assignee picker and for names in the history. */
export function useTeam() {
  return useQuery<TeamMember[]>({ queryKey: ['/api/admin/team'], staleTime: 5 * 60_000 });
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

export function useBulkAction() {
  return useMutation({
    mutationFn: (input: BulkActionInput) => apiRequest<BulkResult>('POST', `${ADMIN_SUBMISSIONS_KEY}/bulk`, input),
    onSuccess: refreshAdminData,
  });
}

export function useAssign(id: string) {
  return useMutation({
    mutationFn: (assigneeId: string | null) => apiRequest<AdminSubmission>('PUT', `${ADMIN_SUBMISSIONS_KEY}/${id}/assignee`, { assigneeId }),
    onSuccess: refreshAdminData,
  });
}

export function useSetTags(id: string) {
  return useMutation({
    mutationFn: (tags: string[]) => apiRequest<AdminSubmission>('PUT', `${ADMIN_SUBMISSIONS_KEY}/${id}/tags`, { tags }),
    onSuccess: refreshAdminData,
  });
}

export function useRatings(id: string) {
  return useQuery<SubmissionRatings>({ queryKey: [ADMIN_SUBMISSIONS_KEY, id, 'ratings'] });
}

export function useRate(id: string) {
  return useMutation({
    mutationFn: (input: { score: number; comment: string }) => apiRequest<SubmissionRatings>('PUT', `${ADMIN_SUBMISSIONS_KEY}/${id}/rating`, input),
    onSuccess: refreshAdminData,
  });
}

export function useTrackComments(id: string) {
  return useQuery<TrackComment[]>({ queryKey: [ADMIN_SUBMISSIONS_KEY, id, 'comments'] });
}

export function useAddTrackComment(id: string) {
  return useMutation({
    mutationFn: (input: { atSeconds: number; text: string; visibleToArtist: boolean; round?: number }) =>
      apiRequest<TrackComment>('POST', `${ADMIN_SUBMISSIONS_KEY}/${id}/comments`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_SUBMISSIONS_KEY, id, 'comments'] }),
  });
}

/** How often, and for how long, the player asks again for peaks a job may still be computing. */
const WAVEFORM_POLL_MS = 3_000;
const WAVEFORM_POLLS = 60;

/**
 * The stored peaks. A track without them answers 404, shown as a plain progress bar: a link or an
 * undecodable format never gets any, a fresh upload gets them once its job has run (decision
 * 113), so the player asks again every few seconds for a few minutes and draws them when they come.
 */
export function useWaveform(id: string, enabled: boolean, round?: number) {
  return useQuery<Waveform>({
    // A round's own waveform (CONTRACT §27); none named: the current version's.
    queryKey: [ADMIN_SUBMISSIONS_KEY, id, round === undefined ? 'waveform' : `waveform?round=${round}`],
    enabled,
    retry: false,
    staleTime: Infinity,
    refetchInterval: (query) => (query.state.data === undefined && query.state.errorUpdateCount < WAVEFORM_POLLS ? WAVEFORM_POLL_MS : false),
  });
}

/** A stretch the player played; the list's "listened" column follows. */
export function recordListening(id: string, input: { from: number; to: number; durationSeconds?: number }) {
  return apiRequest<{ listenedShare: number }>('POST', `${ADMIN_SUBMISSIONS_KEY}/${id}/listening`, input);
}

const REVIEW_TEMPLATES_KEY = '/api/admin/review-templates';

export function useReviewTemplates() {
  return useQuery<ReviewTemplate[]>({ queryKey: [REVIEW_TEMPLATES_KEY] });
}

export function useSaveTemplate() {
  return useMutation({
    mutationFn: (input: { id?: string; name: string; body: string }) =>
      input.id
        ? apiRequest<ReviewTemplate>('PUT', `${REVIEW_TEMPLATES_KEY}/${input.id}`, { name: input.name, body: input.body })
        : apiRequest<ReviewTemplate>('POST', REVIEW_TEMPLATES_KEY, { name: input.name, body: input.body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [REVIEW_TEMPLATES_KEY] }),
  });
}

export function useDeleteTemplate() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `${REVIEW_TEMPLATES_KEY}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [REVIEW_TEMPLATES_KEY] }),
  });
}
