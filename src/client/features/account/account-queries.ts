import { useMutation, useQuery } from '@tanstack/react-query';
import type { AccountDeletionPreview, AccountSession } from '@shared/account';
import { apiRequest } from '@client/lib/api';
import { USER_QUERY_KEY } from '@client/lib/auth';
import { queryClient } from '@client/lib/query-client';

const SESSIONS_KEY = ['/api/account/sessions'] as const;

export function useAccountSessions() {
  return useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => apiRequest<AccountSession[]>('GET', '/api/account/sessions'),
  });
}

export function useEndSession() {
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>('DELETE', `/api/account/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useEndOtherSessions() {
  return useMutation({
    mutationFn: () => apiRequest<AccountSession[]>('POST', '/api/account/sessions/revoke-others'),
    onSuccess: (sessions) => queryClient.setQueryData(SESSIONS_KEY, sessions),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) => apiRequest<{ message: string }>('PUT', '/api/account/password', input),
    // The other sessions ended: the list shows only this one now.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useChangeEmail() {
  return useMutation({
    mutationFn: (input: { email: string; currentPassword: string }) => apiRequest<{ message: string }>('PUT', '/api/account/email', input),
    // The pending address shows on the account at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
  });
}

/** What deleting the account now would refund (CONTRACT §21): read afresh each time the page asks. */
export function useAccountDeletionPreview() {
  return useQuery({
    queryKey: ['/api/account/deletion'],
    queryFn: () => apiRequest<AccountDeletionPreview>('GET', '/api/account/deletion'),
    staleTime: 0,
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (input: { password: string }) => apiRequest<void>('DELETE', '/api/account', input),
  });
}
