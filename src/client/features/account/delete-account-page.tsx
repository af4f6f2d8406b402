import { useState, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, CircleX } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { DELETION_TEXTS, deleteAccountSchema } from '@shared/account';
import { PasswordInput } from '@client/components/password-input';
import { BackLink, PageHeading } from '@client/components/page-heading';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { FormField } from '@client/components/ui/form-field';
import { ArtistHeader } from '@client/components/artist-header';
import { errorMessage } from '@client/lib/api';
import { useAuth } from '@client/lib/auth';
import { toast, toastThenNavigate } from '@client/lib/toast';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useAccountDeletionPreview, useDeleteAccount } from './account-queries';
import { SubmitButton } from '@client/components/submit-button';

/** One side of what deleting the account does: a titled list, each line with the side's icon. */
function DeletionList({ title, texts, icon }: { title: string; texts: readonly string[]; icon: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3" aria-label={title}>
          {texts.map((text) => (
            <li key={text} className="flex gap-3 text-sm">
              {icon}
              {text}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/**
 * /settings/delete-account: says what goes and what stays (CONTRACT §11), asks for the password,
 * then confirms in the product's own dialog, which names the refund the deletion makes (§21).
 */
export function DeleteAccountPage() {
  useDocumentTitle('Delete your account');
  const { user } = useAuth();
  const remove = useDeleteAccount();
  const preview = useAccountDeletionPreview();
  const [confirming, setConfirming] = useState<{ password: string } | null>(null);
  const form = useForm({ resolver: zodResolver(deleteAccountSchema), defaultValues: { password: '' } });
  const { errors } = form.formState;
  if (!user) return null;

  // The amount is read again as the dialog opens: a payment may have gone through since the page loaded.
  // Without it the dialog could not say what is refunded, so it does not open.
  const onSubmit = form.handleSubmit(async (values) => {
    const fresh = await preview.refetch();
    if (fresh.isError || !fresh.data) {
      toast({ title: 'Could not delete your account', description: errorMessage(fresh.error), variant: 'destructive' });
      return;
    }
    setConfirming(values);
  });
  const refundTotal = preview.data?.refundTotal ?? null;
  const refunds = preview.data?.refunds ?? [];

  const confirmDelete = () => {
    if (!confirming) return;
    remove.mutate(confirming, {
      // A full page load: every cached query of the account goes with it.
      onSuccess: () =>
        toastThenNavigate({ title: 'Account deleted', description: refundTotal ? DELETION_TEXTS.deletedWithRefund(refundTotal) : DELETION_TEXTS.deleted }, '/auth'),
      onError: (error) => {
        setConfirming(null);
        toast({ title: 'Could not delete your account', description: errorMessage(error), variant: 'destructive' });
      },
    });
  };

  return (
    <div className="min-h-dvh">
      <ArtistHeader user={user} />
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <BackLink href="/settings">Back to Settings</BackLink>
        <PageHeading
          title="Delete your account"
          description={
            <>
              This cannot be undone. If you want a copy of your data, <a className="text-primary-soft underline" href="/api/account/export" download>download it first</a>.
            </>
          }
        />
        <DeletionList title="What we delete" texts={DELETION_TEXTS.goes} icon={<CircleX className="mt-0.5 size-4 shrink-0 text-destructive-soft" aria-hidden />} />
        <DeletionList title="What stays" texts={DELETION_TEXTS.stays} icon={<CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />} />
        <Card className="border-destructive/50">
          <CardHeader>
            <CardTitle>Confirm with your password</CardTitle>
            <CardDescription>You will be signed out on every device, and you will not be able to sign in again.</CardDescription>
            {refundTotal ? <p className="text-sm font-medium">{DELETION_TEXTS.refundNotice(refundTotal)}</p> : null}
          </CardHeader>
          <CardContent>
            <form noValidate onSubmit={onSubmit} className="grid gap-4">
              <FormField id="delete-password" label="Password" error={errors.password?.message}>
                <PasswordInput autoComplete="current-password" {...form.register('password')} />
              </FormField>
              <SubmitButton pending={form.formState.isSubmitting} disabled={remove.isSuccess} variant="destructive" className="justify-self-start">
                {DELETION_TEXTS.confirm}
              </SubmitButton>
            </form>
          </CardContent>
        </Card>
        <ConfirmDialog
          open={confirming !== null}
          onOpenChange={(open) => (open ? undefined : setConfirming(null))}
          onConfirm={confirmDelete}
          pending={remove.isPending || remove.isSuccess}
          destructive
          title={DELETION_TEXTS.confirmTitle}
          description={
            <>
              <span>{DELETION_TEXTS.confirmBody}</span>
              {refundTotal ? <strong className="text-foreground">{DELETION_TEXTS.refundNotice(refundTotal)}</strong> : null}
              {refunds.length > 1 ? (
                <ul className="list-disc pl-5" aria-label="Refunds">
                  {refunds.map((r) => (
                    <li key={r.submissionId}>{DELETION_TEXTS.refundOf(r.songTitle, r.amount)}</li>
                  ))}
                </ul>
              ) : null}
            </>
          }
          confirmLabel={DELETION_TEXTS.confirm}
        />
      </main>
    </div>
  );
}
