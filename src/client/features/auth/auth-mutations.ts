import { useMutation } from '@tanstack/react-query';
import type { LoginInput, PublicUser, RegisterInput } from '@shared/auth';
import { homePathOf } from '@shared/users';
import { apiRequest, errorMessage } from '@client/lib/api';
import { toast, toastThenNavigate } from '@client/lib/toast';

/** POST /api/login; on success a full page load of the person's home: /dashboard (SPEC §4), the desk for the team. */
export function useLoginMutation() {
  return useMutation({
    mutationFn: (input: LoginInput) => apiRequest<PublicUser>('POST', '/api/login', input),
    onSuccess: (user) => {
      toastThenNavigate({ title: 'Welcome back!', description: "You've been successfully logged in." }, homePathOf(user));
    },
    onError: (error) => {
      toast({ title: 'Login failed', description: errorMessage(error), variant: 'destructive' });
    },
  });
}

/** POST /api/register with the four sent fields (never the confirmation); then a full load of /dashboard. */
export function useRegisterMutation() {
  return useMutation({
    mutationFn: (input: RegisterInput) => apiRequest<PublicUser>('POST', '/api/register', input),
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
