import { zodResolver } from '@hookform/resolvers/zod';
import { BadgeCheck, MailWarning } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { changeEmailSchema, changePasswordFormSchema } from '@shared/account';
import type { PublicUser } from '@shared/auth';
import { PasswordInput } from '@client/components/password-input';
import { ResendVerificationButton } from '@client/components/resend-verification-button';
import { SubmitButton } from '@client/components/submit-button';
import { Badge } from '@client/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { useChangeEmail, useChangePassword } from './account-queries';

/** The address, whether it is confirmed, and a change that takes effect when the new one is confirmed. */
export function EmailSection({ user }: { user: PublicUser }) {
  const change = useChangeEmail();
  const waiting = user.pendingEmail !== null || (!user.emailVerified && user.email !== null);
  const form = useForm({ resolver: zodResolver(changeEmailSchema), defaultValues: { email: '', currentPassword: '' } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: (answer) => {
        toast({ title: 'Check your new inbox', description: answer.message });
        form.reset();
      },
      onError: (error) => toast({ title: 'Could not change your email', description: errorMessage(error), variant: 'destructive' }),
    }),
  );

  return (
    <Card id="email">
      <CardHeader>
        <CardTitle>Email address</CardTitle>
        <CardDescription>Where we write to you. A new address is used once you open the link we send to it.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-all">{user.email ?? 'No email address'}</span>
          {user.emailVerified ? (
            <Badge variant="success">
              <BadgeCheck aria-hidden />
              Confirmed
            </Badge>
          ) : (
            <Badge variant="warning">
              <MailWarning aria-hidden />
              Not confirmed yet
            </Badge>
          )}
        </div>
        {user.pendingEmail ? (
          <p role="status" className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm">
            Waiting for you to confirm <strong className="break-all">{user.pendingEmail}</strong>: open the link we sent there.
          </p>
        ) : null}
        {waiting ? <ResendVerificationButton className="justify-self-start" /> : null}
        <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
          <FormField id="account-new-email" label="New email address" error={errors.email?.message}>
            <Input type="email" autoComplete="email" {...form.register('email')} />
          </FormField>
          <FormField id="account-email-password" label="Current password" error={errors.currentPassword?.message}>
            <PasswordInput autoComplete="current-password" fieldName="current password" {...form.register('currentPassword')} />
          </FormField>
          <SubmitButton pending={change.isPending} className="justify-self-start">
            Change email
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}

/** A new password; every other device is signed out. */
export function PasswordSection() {
  const change = useChangePassword();
  const form = useForm({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          toast({ title: 'Password changed', description: 'Every other device has been signed out.' });
          form.reset();
        },
        onError: (error) => toast({ title: 'Could not change your password', description: errorMessage(error), variant: 'destructive' }),
      },
    ),
  );

  return (
    <Card id="password">
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs you out on every other device.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2">
          <FormField id="account-current-password" label="Current password" error={errors.currentPassword?.message} className="sm:col-span-2">
            <PasswordInput autoComplete="current-password" fieldName="current password" {...form.register('currentPassword')} />
          </FormField>
          <FormField id="account-new-password" label="New password" error={errors.newPassword?.message}>
            <PasswordInput autoComplete="new-password" fieldName="new password" {...form.register('newPassword')} />
          </FormField>
          <FormField id="account-confirm-password" label="Confirm new password" error={errors.confirmPassword?.message}>
            <PasswordInput autoComplete="new-password" fieldName="password confirmation" {...form.register('confirmPassword')} />
          </FormField>
          <SubmitButton pending={change.isPending} className="justify-self-start">
            Change password
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
