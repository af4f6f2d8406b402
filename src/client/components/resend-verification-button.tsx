import { useMutation } from '@tanstack/react-query';
import { VERIFY_EMAIL_TEXTS } from '@shared/auth-texts';
import { Button } from '@client/components/ui/button';
import { apiRequest, errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';

/**
 * POST /api/verify-email/resend: a new link to the address waiting to be confirmed (CONTRACT §11),
 * from the dashboard's banner and from the settings. Once sent it says so and stays disabled.
 */
export function ResendVerificationButton({ className }: { className?: string }) {
  const resend = useMutation({ mutationFn: () => apiRequest<{ message: string }>('POST', '/api/verify-email/resend') });
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className={className}
      disabled={resend.isPending || resend.isSuccess}
      onClick={() =>
        resend.mutate(undefined, {
          onSuccess: () => toast({ title: VERIFY_EMAIL_TEXTS.resent }),
          onError: (error) => toast({ title: 'Could not send the link', description: errorMessage(error), variant: 'destructive' }),
        })
      }
    >
      {resend.isSuccess ? 'Link sent' : VERIFY_EMAIL_TEXTS.resend}
    </Button>
  );
}
