import { zodResolver } from '@hookform/resolvers/zod';
import { AlertCircle, CircleCheck } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import { resetPasswordFormSchema } from '@shared/account';
import { PasswordInput } from '@client/components/password-input';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@client/components/ui/card';
import { FormField } from '@client/components/ui/form-field';
import { ACCOUNT_TEXTS } from '@shared/auth-texts';
import { LoadingBlock } from '@client/components/loading-block';
import { apiRequest, errorCodeOf, errorMessage } from '@client/lib/api';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { usePasswordResetConfirm } from './auth-mutations';
import { ForgotPasswordLink } from './forgot-password-link';
import { ProductMark } from './product-mark';
import { SubmitButton } from '@client/components/submit-button';

/**
 * /reset-password?token=…, opened from the email (CONTRACT §11): a new password, then every
 * session ends, this browser's included, and the person signs in with it. The link is checked
 * as the page opens: a used or expired one says so at once and offers a new one, instead of a
 * form that fails only after the password was typed twice (issue 43).
 */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const check = useQuery({
    queryKey: ['/api/password-reset', token],
    queryFn: ({ signal }) => apiRequest<{ usable: true }>('GET', `/api/password-reset?${new URLSearchParams({ token }).toString()}`, undefined, { signal }),
    enabled: token !== '',
  });
  // Only the server's "no" counts as spent: offline or busy, the form stays and its answer decides.
  const spent = token === '' || (check.isError && (errorCodeOf(check.error) === 'invalid_reset_link' || errorCodeOf(check.error) === 'validation_failed'));
  const confirm = usePasswordResetConfirm();
  const form = useForm({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { password: '', confirmPassword: '' } });
  const { errors } = form.formState;

  return (
    <div className="min-h-dvh bg-background">
      <div className="mx-auto flex w-full max-w-md flex-col gap-8 px-4 pt-6 pb-10 sm:px-6">
        <ProductMark />
        <main>
          <Card>
            <CardHeader>
              <h1 className="text-xl font-semibold tracking-tight">Choose a new password</h1>
              <CardDescription>Setting it signs you out on every device; then sign in with the new one.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4">
              {spent && !confirm.isSuccess ? (
                <div role="alert" className="grid gap-3" data-testid="reset-link-spent">
                  <p className="flex items-start gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm">
                    <AlertCircle className="mt-0.5 size-5 shrink-0 text-destructive-soft" aria-hidden />
                    <span className="grid gap-1">
                      <span className="font-semibold">{ACCOUNT_TEXTS.resetLinkSpentTitle}</span>
                      <span className="text-muted-foreground">{ACCOUNT_TEXTS.resetLinkSpentBody}</span>
                    </span>
                  </p>
                  <ForgotPasswordLink email="" label={ACCOUNT_TEXTS.resetLinkNew} asButton />
                </div>
              ) : check.isPending && token !== '' ? (
                <LoadingBlock label={ACCOUNT_TEXTS.resetLinkChecking} className="py-8" />
              ) : confirm.isSuccess ? (
                <>
                  <p role="status" className="flex items-start gap-3 rounded-lg border border-success/40 bg-success/10 p-4 text-sm">
                    <CircleCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
                    {confirm.data.message}
                  </p>
                  <Button asChild>
                    {/* A full load: the old session ended with the reset. */}
                    <a href="/auth">Go to sign in</a>
                  </Button>
                </>
              ) : (
                <form
                  noValidate
                  className="grid gap-4"
                  onSubmit={form.handleSubmit(({ password }) => confirm.mutate({ token, password }))}
                >
                  <FormField id="new-password" label="New password" error={errors.password?.message}>
                    <PasswordInput autoComplete="new-password" fieldName="new password" {...form.register('password')} />
                  </FormField>
                  <FormField id="confirm-new-password" label="Confirm new password" error={errors.confirmPassword?.message}>
                    <PasswordInput autoComplete="new-password" fieldName="password confirmation" {...form.register('confirmPassword')} />
                  </FormField>
                  {confirm.isError ? (
                    <div role="alert" className="grid gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-destructive-soft">
                      <p className="flex items-center gap-2">
                        <AlertCircle className="size-4 shrink-0" aria-hidden />
                        {errorMessage(confirm.error)}
                      </p>
                      <p className="text-foreground">
                        Ask for a new link with “Forgot password?” on the <Link className="underline" href="/auth">sign-in page</Link>.
                      </p>
                    </div>
                  ) : null}
                  <SubmitButton pending={confirm.isPending}>Set new password</SubmitButton>
                </form>
              )}
            </CardContent>
          </Card>
        </main>
      </div>
    </div>
  );
}
