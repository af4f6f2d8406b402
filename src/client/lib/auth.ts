import { useMutation, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@shared/auth';
import { SESSION_IN_PAGE_ID } from '@shared/first-pages';
import { ApiError, apiRequest, errorMessage } from './api';
import { queryClient, setSigningOut } from './query-client';
import { toast } from './toast';

export const USER_QUERY_KEY = ['/api/user'] as const;

/** SPEC §2: the full-screen spinner's text while the session is checked (also in index.html). */
export const AUTH_LOADING_TEXT = 'Loading authentication...';

/** SPEC §9: the authentication check gives up after 5000 ms. */
const AUTH_TIMEOUT_MS = 5000;
/** SPEC §4: the browser leaves for /auth 500 ms after logout. */
const LOGOUT_REDIRECT_DELAY_MS = 500;

/** GET /api/user, never from a cache, aborted after 5 s (SPEC §7, §8). */
async function fetchCurrentUser(querySignal: AbortSignal): Promise<PublicUser> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, AUTH_TIMEOUT_MS);
  const forwardAbort = () => controller.abort();
  querySignal.addEventListener('abort', forwardAbort);
  try {
    return await apiRequest<PublicUser>('GET', '/api/user', undefined, { signal: controller.signal, cache: 'no-store' });
  } catch (error) {
    if (timedOut) throw new Error('Authentication timeout');
    if (error instanceof ApiError) throw new Error('Not authenticated');
    throw error;
  } finally {
    clearTimeout(timer);
    querySignal.removeEventListener('abort', forwardAbort);
  }
}

/**
 * Takes who is signed in from the page, where the server wrote it (first-page-documents.ts), so
 * the first screen is drawn without waiting for GET /api/user (decision 144). Read once and
 * removed; a page without it (the dev server) checks with GET /api/user as before.
 */
export function adoptSessionFromPage(): void {
  const element = document.getElementById(SESSION_IN_PAGE_ID);
  if (!element) return;
  element.remove();
  try {
    queryClient.setQueryData<PublicUser | null>(USER_QUERY_KEY, JSON.parse(element.textContent ?? '') as PublicUser | null);
  } catch {
    // Not JSON: the session is checked with GET /api/user.
  }
}

type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

interface AuthState {
  status: AuthStatus;
  user: PublicUser | null;
  error: Error | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

/**
 * The signed-in user. SPEC §4: loading; authenticated when a user came back and there is no error;
 * otherwise unauthenticated (every error, including a timeout, counts as signed out).
 */
export function useAuth(): AuthState {
  const query = useQuery<PublicUser | null, Error>({
    queryKey: USER_QUERY_KEY,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
  });
  const error = query.error ?? null;
  const user = error ? null : (query.data ?? null);
  const isLoading = query.isLoading && !error;
  const status: AuthStatus = isLoading ? 'loading' : user ? 'authenticated' : 'unauthenticated';
  return { status, user, error, isLoading, isAuthenticated: status === 'authenticated' };
}

/** POST /api/logout, then the browser loads /auth, which clears every cached record (SPEC §4, §8). */
export function useLogout() {
  return useMutation({
    mutationFn: async () => {
      setSigningOut(true);
      try {
        await apiRequest('POST', '/api/logout');
      } catch (error) {
        setSigningOut(false);
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, LOGOUT_REDIRECT_DELAY_MS));
    },
    onSuccess: () => {
      // A full load drops every record cached for the person who just left, and the page it
      // brings says no one is signed in (decision 144). Until it arrives the screen stays as it
      // is: showing the sign-in page here as well would draw it twice, the second over the first.
      window.location.assign('/auth');
    },
    onError: (error) => {
      toast({ title: 'Logout Failed', description: errorMessage(error), variant: 'destructive' });
    },
  });
}
