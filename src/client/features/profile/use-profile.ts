import { useMutation } from '@tanstack/react-query';
import type { ProfileInput, PublicUser, SocialLinksInput } from '@shared/auth';
import { apiRequest } from '@client/lib/api';
import { USER_QUERY_KEY } from '@client/lib/auth';
import { queryClient } from '@client/lib/query-client';

/** The saved user replaces the cached one, so every screen shows the new values at once. */
function storeUser(user: PublicUser): Promise<void> {
  queryClient.setQueryData(USER_QUERY_KEY, user);
  return queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] });
}

export function useSaveProfile() {
  return useMutation({
    mutationFn: (input: ProfileInput) => apiRequest<PublicUser>('PUT', '/api/profile', input),
    onSuccess: storeUser,
  });
}

/** POST /api/profile/prompt-dismissal: the first-visit prompt was closed and never opens by itself again. */
export function useDismissProfilePrompt() {
  return useMutation({
    mutationFn: () => apiRequest<PublicUser>('POST', '/api/profile/prompt-dismissal'),
    onSuccess: storeUser,
  });
}

export function useSaveSocialLinks() {
  return useMutation({
    mutationFn: (input: SocialLinksInput) => apiRequest<PublicUser>('PUT', '/api/profile/social-links', input),
    onSuccess: storeUser,
  });
}
