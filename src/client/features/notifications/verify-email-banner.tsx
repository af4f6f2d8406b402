import { MailWarning } from 'lucide-react';
import { useSearch } from 'wouter';
import type { PublicUser } from '@shared/auth';
import { VERIFY_EMAIL_TEXTS } from '@shared/auth-texts';
import { ResendVerificationButton } from '@client/components/resend-verification-button';

/** Shown on the dashboard until the address is confirmed (CONTRACT §11), with a way to get a new link. */
export function VerifyEmailBanner({ user }: { user: PublicUser }) {
  const search = useSearch();
  const invalidLink = new URLSearchParams(search).get('verification') === 'invalid';
  if (user.emailVerified || !user.email) return null;

  return (
    <div role="status" className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <MailWarning aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-1 text-sm">
          {invalidLink ? <p className="font-medium">{VERIFY_EMAIL_TEXTS.invalidLink}</p> : null}
          <p>{VERIFY_EMAIL_TEXTS.banner}</p>
        </div>
      </div>
      <ResendVerificationButton className="shrink-0 bg-white" />
    </div>
  );
}
