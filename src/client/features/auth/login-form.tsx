import { AlertCircle } from 'lucide-react';
import { errorMessage } from '@client/lib/api';
import { lazySchema, useSchemaForm } from '@client/lib/schema-form';
import { FormField } from '@client/components/ui/form-field';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { useLoginMutation } from './auth-mutations';
import { BusyRetryNotice, useSecondsUntil } from './busy-retry';
import { ForgotPasswordLink } from './forgot-password-link';
import { GoogleSignIn } from './google-button';
import { PasswordInput } from '@client/components/password-input';

/** The sign-in schema arrives when the form is first focused or checked (decision 144). */
const schema = lazySchema(() => import('@shared/auth').then((module) => module.loginSchema));

export function LoginForm() {
  const { login, retryAt } = useLoginMutation();
  // Counting down while a busy answer waits to be tried again (decision 203).
  const retryIn = useSecondsUntil(login.isPending ? retryAt : null);
  const form = useSchemaForm(schema, { email: '', password: '' });
  const { errors } = form;
  // Stays busy after success too, while the browser loads /dashboard.
  const busy = login.isPending || login.isSuccess;

  return (
    <div className="grid gap-5">
      <GoogleSignIn />
      <form noValidate className="grid gap-4" onFocus={schema.preload} onSubmit={form.handleSubmit((values) => login.mutate(values))}>
        <FormField id="login-email" label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
        </FormField>
        <FormField id="login-password" label="Password" error={errors.password?.message}>
          <PasswordInput autoComplete="current-password" placeholder="Your password" {...form.register('password')} />
        </FormField>
        <ForgotPasswordLink email={form.watch('email')} />
        {retryIn !== null ? <BusyRetryNotice seconds={retryIn} /> : null}
        {login.isError ? (
          // Said at the form too, where the person is looking, not only in a corner toast.
          <p role="alert" data-testid="login-error" className="flex items-center gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-destructive-soft">
            <AlertCircle className="size-4 shrink-0" aria-hidden />
            {errorMessage(login.error)}
          </p>
        ) : null}
        <Button type="submit" className="mt-1 w-full" disabled={busy}>
          {busy ? (
            <>
              <Spinner className="text-primary-foreground" />
              Signing in...
            </>
          ) : (
            'Sign in'
          )}
        </Button>
      </form>
    </div>
  );
}
