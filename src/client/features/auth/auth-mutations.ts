import { useMutation } from '@tanstack/react-query';
import type { LoginInput, PublicUser, RegisterInput } from '@shared/auth';
import { homePathOf } from '@shared/users';
import { apiRequest, errorMessage } from '@client/lib/api';
import { toast, toastThenNavigate } from '@client/lib/toast';
import { useBusyRetry } from './busy-retry';

/**
 * POST /api/login; on success a full page load of the person's home: /dashboard (SPEC §4), the desk for the team.
 * Answered busy (503 + Retry-After), it tries again by itself after that long; `retryAt` is when (decision 203).
 */
export function useLoginMutation() {
  const busy = useBusyRetry();
  const login = useMutation({
    mutationFn: (input: LoginInput) => apiRequest<PublicUser>('POST', '/api/login', input),
    ...busy.options,
    onMutate: busy.clear,
    onSettled: busy.clear,
    onSuccess: (user) => {
      toastThenNavigate({ title: 'Welcome back!', description: "You've been successfully logged in." }, homePathOf(user));
    },
    onError: (error) => {
      toast({ title: 'Login failed', description: errorMessage(error), variant: 'destructive' });
    },
  });
  return { login, retryAt: busy.retryAt };
}

/**
 * POST /api/register with the four sent fields (never the confirmation); then a full load of /dashboard.
 * Answered busy (503 + Retry-After: nothing was created), it tries again by itself after that long (decision 203).
 */
export function useRegisterMutation() {
  const busy = useBusyRetry();
  const registration = useMutation({
    mutationFn: (input: RegisterInput) => apiRequest<PublicUser>('POST', '/api/register', input),
    ...busy.options,
    onMutate: busy.clear,
    onSettled: busy.clear,
    onSuccess: () => {
      toastThenNavigate(
        { title: 'Account created!', description: 'Welcome to the product! Please complete your artist profile.' },
        '/dashboard',
      );
    },
    onError: (error) => {
      toast({ title: 'Registration failed', description: errorMessage(error), variant: 'destructive' });
    },
  });
  return { registration, retryAt: busy.retryAt };
}

/** POST /api/password-reset: the same answer whether or not the address has an account. */
export function usePasswordResetRequest() {
  return useMutation({
    mutationFn: (input: { email: string }) => apiRequest<{ message: string }>('POST', '/api/password-reset', input),
  });
}

/** POST /api/password-reset/confirm */
export function usePasswordResetConfirm() {
  return useMutation({
    mutationFn: (input: { token: string; password: string }) => apiRequest<{ message: string }>('POST', '/api/password-reset/confirm', input),
  });
}
