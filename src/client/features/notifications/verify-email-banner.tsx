import { MailCheck, MailWarning } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { PublicUser } from '@shared/auth';
import { VERIFY_EMAIL_TEXTS } from '@shared/auth-texts';
import { ResendVerificationButton } from '@client/components/resend-verification-button';
import { Button } from '@client/components/ui/button';
import { usePublicConfig } from '@client/lib/public-config';

/** Where "Hide for now" is remembered, per account, in this browser. */
const hiddenKey = (userId: string) => `verify-banner-hidden:${userId}`;

function readHidden(userId: string): boolean {
  try {
    return window.localStorage.getItem(hiddenKey(userId)) === '1';
  } catch {
    return false;
  }
}

type VerificationOutcome = 'done' | 'invalid';

/** This page load's outcome once read from the address; undefined until then. */
let outcomeOfThisLoad: VerificationOutcome | null | undefined;

/**
 * What the link in the email led to (`?verification=` from GET /api/verify-email). The parameter
 * leaves the address so a reload or a bookmark does not say it again, and the first reading is
 * kept: React may render the banner more than once before it is shown (the first screen renders
 * in a transition that a busy phone can restart, decision 144), and a second reading of the
 * address would find nothing and lose the message.
 */
export function takeVerificationOutcome(): VerificationOutcome | null {
  if (outcomeOfThisLoad !== undefined) return outcomeOfThisLoad;
  const url = new URL(window.location.href);
  const value = url.searchParams.get('verification');
  if (value !== null) {
    url.searchParams.delete('verification');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  outcomeOfThisLoad = value === 'done' || value === 'invalid' ? value : null;
  return outcomeOfThisLoad;
}

/** Once the banner is shown, the outcome is said: the dashboard opened again in this visit does not repeat it. */
export function verificationOutcomeShown(): void {
  outcomeOfThisLoad = null;
}

/** The link worked, or was opened again after it had (the address is confirmed either way). */
function VerifiedNotice({ reused, onDismiss }: { reused: boolean; onDismiss: () => void }) {
  return (
    <div role="status" className="flex flex-col gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-950 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <MailCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-1 text-sm">
          {reused ? <p className="font-medium">{VERIFY_EMAIL_TEXTS.invalidLink}</p> : null}
          <p>{reused ? VERIFY_EMAIL_TEXTS.alreadyVerified : VERIFY_EMAIL_TEXTS.verified}</p>
        </div>
      </div>
      <Button type="button" variant="outline" size="sm" className="shrink-0 bg-white" onClick={onDismiss}>
        {VERIFY_EMAIL_TEXTS.dismiss}
      </Button>
    </div>
  );
}

/**
 * Shown on the dashboard until the address is confirmed (CONTRACT §11), with a way to get a new
 * link. Without a mail server no link can arrive: the banner says so, offers no resend, and may be
 * hidden; an admin confirms the address on the Users page (docs/decisions/155-honest-texts-without-mail.md).
 */
export function VerifyEmailBanner({ user }: { user: PublicUser }) {
  const mailEnabled = usePublicConfig().data?.mailEnabled;
  const [hidden, setHidden] = useState(() => readHidden(user.id));
  const [outcome, setOutcome] = useState(takeVerificationOutcome);
  useEffect(verificationOutcomeShown, []);
  const invalidLink = outcome === 'invalid';
  if (user.emailVerified && outcome) {
    return <VerifiedNotice reused={invalidLink} onDismiss={() => setOutcome(null)} />;
  }
  if (user.emailVerified || !user.email) return null;
  const noMail = mailEnabled === false;
  if (noMail && hidden) return null;

  const hide = () => {
    try {
      window.localStorage.setItem(hiddenKey(user.id), '1');
    } catch {
      // Storage refused (private mode): hidden for this visit only.
    }
    setHidden(true);
  };

  return (
    <div role="status" className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <MailWarning aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-1 text-sm">
          {invalidLink ? <p className="font-medium">{VERIFY_EMAIL_TEXTS.invalidLink}</p> : null}
          <p>{noMail ? VERIFY_EMAIL_TEXTS.bannerNoMail : VERIFY_EMAIL_TEXTS.banner}</p>
        </div>
      </div>
      {noMail ? (
        <Button type="button" variant="outline" size="sm" className="shrink-0 bg-white" onClick={hide}>
          {VERIFY_EMAIL_TEXTS.hide}
        </Button>
      ) : (
        <ResendVerificationButton className="shrink-0 bg-white" />
      )}
    </div>
  );
}
