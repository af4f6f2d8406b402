import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import type { RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { passwordResetRequestSchema } from '@shared/account';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { FormField } from '@client/components/ui/form-field';
import { Input } from '@client/components/ui/input';
import { errorMessage } from '@client/lib/api';
import { usePasswordResetRequest } from './auth-mutations';
import { SubmitButton } from '@client/components/submit-button';

interface ForgotPasswordDialogProps {
  email: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The "Forgot password?" button, which gets the focus back when the dialog closes. */
  trigger: RefObject<HTMLButtonElement | null>;
}

/** Asks for the address; the answer is the same whether or not it has an account (CONTRACT §11). */
export function ForgotPasswordDialog({ email, open, onOpenChange, trigger }: ForgotPasswordDialogProps) {
  const request = usePasswordResetRequest();
  const form = useForm({ resolver: zodResolver(passwordResetRequestSchema), values: { email } });
  const { errors } = form.formState;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) request.reset();
      }}
    >
      <DialogContent
        className="max-w-md"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          trigger.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Reset your password</DialogTitle>
          <DialogDescription>Enter the email address of your account. We'll send it a link to choose a new password.</DialogDescription>
        </DialogHeader>
        {request.isSuccess ? (
          <div role="status" className="flex items-start gap-3 rounded-lg border border-success/40 bg-success/10 p-4 text-sm">
            <MailCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
            <p>{request.data.message} The link works for one hour.</p>
          </div>
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              // The dialog is portalled out of the sign-in form, but React events still bubble to it.
              event.stopPropagation();
              void form.handleSubmit((values) => request.mutate(values))(event);
            }}
          >
            <FormField id="reset-email" label="Email" error={errors.email?.message}>
              <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
            </FormField>
            {request.isError ? (
              <p role="alert" className="text-sm text-destructive-soft">
                {errorMessage(request.error)}
              </p>
            ) : null}
            <DialogFooter>
              <SubmitButton pending={request.isPending}>Send reset link</SubmitButton>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
