import { TooltipProvider } from '@client/components/ui/tooltip';
import { VerifyEmailBanner } from '@client/features/notifications/verify-email-banner';
import { SocialLinksCard } from '@client/features/profile/social-links-card';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { ArtistHeader } from '@client/components/artist-header';
import { BonusCard } from '@client/features/dashboard/bonus-card';
import { DashboardWelcome } from './dashboard-welcome';
import { PayoutNote } from './payout-note';
import { SubmissionsSection } from '@client/features/dashboard/submissions-section';

/**
 * The artist's dashboard (SPEC §2): a page that combines features (the email-verification banner,
 * the profile prompt, the submissions list, the unread count), so it lives at the app layer, above
 * the features, which never import each other.
 */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useAuth();
  // The route table renders this page only for a signed-in user.
  if (!user) return null;

  return (
    <div className="min-h-dvh">
      <ArtistHeader user={user} />
      <main className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-8 sm:px-6 sm:py-10 lg:px-8">
        <VerifyEmailBanner user={user} />
        <DashboardWelcome user={user} />
        {/* The team has no payout account: the note is the artist's. */}
        <BonusCard payoutNote={user.role === 'admin' ? null : <PayoutNote />} />
        <SocialLinksCard user={user} />
        {/* Tooltips are on the submission rows only; their provider comes with them. */}
        <TooltipProvider>
          <SubmissionsSection />
        </TooltipProvider>
      </main>
    </div>
  );
}
