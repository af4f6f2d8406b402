import { useQuery } from '@tanstack/react-query';
import { MAIL_TEXTS, type PublicConfig } from '@shared/api';

/** GET /api/config (CONTRACT §6): what this installation has configured (Stripe, Google, a mail server). */
export function usePublicConfig() {
  return useQuery<PublicConfig>({ queryKey: ['/api/config'] });
}

/**
 * What to say after a change that emails someone: `sent` where a mail server is configured,
 * that the email is queued and nothing was sent where none is (decision 155).
 */
export function useMailText(): (sent: string) => string {
  const mailEnabled = usePublicConfig().data?.mailEnabled;
  return (sent) => (mailEnabled === false ? MAIL_TEXTS.queued : sent);
}
