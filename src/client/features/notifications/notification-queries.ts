import { useMutation, useQuery } from '@tanstack/react-query';
import type { NotificationSettings, OutboxPage, OutboxStatus, UnsubscribeResult } from '@shared/notifications';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

const SETTINGS_KEY = ['/api/notification-settings'] as const;

export function useNotificationSettings() {
  return useQuery<NotificationSettings>({ queryKey: SETTINGS_KEY });
}

export function useSaveNotificationSettings() {
  return useMutation({
    mutationFn: (change: Partial<NotificationSettings>) => apiRequest<NotificationSettings>('PUT', '/api/notification-settings', change),
    onSuccess: (settings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  });
}

/** The one-click unsubscribe of a link in an email; the token is the whole authority. */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: (token: string) => apiRequest<UnsubscribeResult>('POST', `/api/unsubscribe?token=${encodeURIComponent(token)}`),
  });
}

export function useOutbox(status: OutboxStatus | 'all', q: string, page: number) {
  const params = new URLSearchParams({ page: String(page) });
  if (status !== 'all') params.set('status', status);
  if (q) params.set('q', q);
  return useQuery<OutboxPage>({ queryKey: [`/api/admin/outbox?${params.toString()}`] });
}
