import { useMutation } from '@tanstack/react-query';
import type { MailDelivery } from '@shared/api';
import { VERIFY_EMAIL_TEXTS } from '@shared/auth-texts';
import { Button } from '@client/components/ui/button';
import { apiRequest, errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';

/**
 * POST /api/verify-email/resend: a new link to the address waiting to be confirmed (CONTRACT §11),
 * from the dashboard's banner and from the settings. Once sent it says so and stays disabled.
 */
export function ResendVerificationButton({ className }: { className?: string }) {
  const resend = useMutation({ mutationFn: () => apiRequest<{ message: string; mail: MailDelivery }>('POST', '/api/verify-email/resend') });
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className={className}
      disabled={resend.isPending || resend.isSuccess}
      onClick={() =>
        resend.mutate(undefined, {
          // Without a mail server the link waits in the outbox: the toast says so, not "sent" (decision 155).
          onSuccess: ({ mail }) => toast({ title: mail === 'sending' ? VERIFY_EMAIL_TEXTS.resent : VERIFY_EMAIL_TEXTS.queued }),
          onError: (error) => toast({ title: 'Could not send the link', description: errorMessage(error), variant: 'destructive' }),
        })
      }
    >
      {resend.isSuccess ? (resend.data.mail === 'sending' ? 'Link sent' : 'Link queued') : VERIFY_EMAIL_TEXTS.resend}
    </Button>
  );
}
