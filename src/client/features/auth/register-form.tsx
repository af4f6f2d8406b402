import { AlertCircle } from 'lucide-react';
import { errorMessage } from '@client/lib/api';
import { lazySchema, useSchemaForm } from '@client/lib/schema-form';
import { FormField } from '@client/components/ui/form-field';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Spinner } from '@client/components/ui/spinner';
import { useRegisterMutation } from './auth-mutations';
import { BusyRetryNotice, useSecondsUntil } from './busy-retry';
import { GoogleSignIn } from './google-button';
import { PasswordInput } from '@client/components/password-input';

/** The registration schema arrives when the form is first focused or checked (decision 144). */
const schema = lazySchema(() => import('@shared/auth').then((module) => module.registerFormSchema));

export function RegisterForm() {
  const { registration, retryAt } = useRegisterMutation();
  // Counting down while a busy answer waits to be tried again (decision 203).
  const retryIn = useSecondsUntil(registration.isPending ? retryAt : null);
  const form = useSchemaForm(schema, { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' });
  const { errors } = form;
  const busy = registration.isPending || registration.isSuccess;

  return (
    <div className="grid gap-5">
      <GoogleSignIn />
      <form
        noValidate
        className="grid gap-4"
        onFocus={schema.preload}
        onSubmit={form.handleSubmit(({ firstName, lastName, email, password }) =>
          // The confirmation is checked here and never sent (SPEC §5).
          registration.mutate({ firstName, lastName, email, password }),
        )}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id="register-first-name" label="First name" error={errors.firstName?.message}>
            <Input autoComplete="given-name" {...form.register('firstName')} />
          </FormField>
          <FormField id="register-last-name" label="Last name" error={errors.lastName?.message}>
            <Input autoComplete="family-name" {...form.register('lastName')} />
          </FormField>
        </div>
        <FormField id="register-email" label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
        </FormField>
        <FormField id="register-password" label="Password" hint="At least 6 characters." error={errors.password?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('password')} />
        </FormField>
        <FormField id="register-confirm-password" label="Confirm password" error={errors.confirmPassword?.message}>
          <PasswordInput autoComplete="new-password" fieldName="confirm password" {...form.register('confirmPassword')} />
        </FormField>
        {retryIn !== null ? <BusyRetryNotice seconds={retryIn} /> : null}
        {registration.isError ? (
          <p role="alert" data-testid="register-error" className="flex items-center gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-destructive-soft">
            <AlertCircle className="size-4 shrink-0" aria-hidden />
            {errorMessage(registration.error)}
          </p>
        ) : null}
        <Button type="submit" className="mt-1 w-full" disabled={busy}>
          {busy ? (
            <>
              <Spinner className="text-primary-foreground" />
              Creating account...
            </>
          ) : (
            'Create account'
          )}
        </Button>
      </form>
    </div>
  );
}
