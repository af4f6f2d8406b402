import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { defaultQueryFn, isUnauthorizedError } from './api';
import { toast } from './toast';

/** Same delay as the checkout's login redirect (SPEC §9), long enough to read the toast's title. */
const LOGIN_REDIRECT_DELAY_MS = 500;
let redirectingToLogin = false;
let signingOut = false;

/**
 * The person chose to sign out: from the logout request on, the session ending (a 401, the live
 * connection closed by the server) is expected, and nothing reacts to it while the browser
 * leaves for /auth. Set back when the logout fails.
 */
export function setSigningOut(value: boolean): void {
  signingOut = value;
}
export const isSigningOut = (): boolean => signingOut;

/** SPEC §8: any call answering 401 Unauthorized tells the person and sends the browser to /api/login. */
function handleUnauthorized(error: unknown): void {
  if (!isUnauthorizedError(error) || redirectingToLogin || signingOut) return;
  redirectingToLogin = true;
  // Deferred: a mutation's own onError runs after this cache-level one, and its toast must not replace this one.
  setTimeout(() => {
    toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' });
    setTimeout(() => window.location.assign('/api/login'), LOGIN_REDIRECT_DELAY_MS);
  }, 0);
}

/** SPEC §9: data is never stale on its own, never refetched on focus, never polled, never retried. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: handleUnauthorized }),
  mutationCache: new MutationCache({ onError: handleUnauthorized }),
  defaultOptions: {
    queries: {
      queryFn: defaultQueryFn,
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});
