import { Download, Receipt, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { EXPORT_TEXTS } from '@shared/account';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { ArtistHeader } from '@client/components/artist-header';
import { BackLink, PageHeading } from '@client/components/page-heading';
import { NotificationSettingsSection } from '@client/features/notifications/notification-settings-section';
import { ProfileForm } from '@client/features/profile/profile-form';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { EmailSection, PasswordSection } from '@client/features/account/credentials-sections';
import { SessionsSection } from '@client/features/account/sessions-section';
import { PROFILE_PURPOSE } from '@client/features/profile/profile-texts';

/**
 * /settings: the account in one place (CONTRACT §11) — the artist profile and social links, the
 * billing page (payments, invoices), the email address and password, email preferences, where the account is signed in, and the
 * artist's data: a copy of it, or its deletion.
 */
export function AccountSettingsPage() {
  useDocumentTitle('Settings');
  const { user } = useAuth();
  // Links such as /settings#profile land on their section once it is drawn.
  useEffect(() => {
    if (window.location.hash) document.getElementById(window.location.hash.slice(1))?.scrollIntoView();
  }, []);
  if (!user) return null;
  const artist = user.role !== 'admin';

  return (
    <div className="min-h-dvh">
      <ArtistHeader user={user} />
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <BackLink />
        <PageHeading title="Settings" />
        {artist ? (
          <Card id="billing">
            <CardHeader>
              <CardTitle>Billing</CardTitle>
              <CardDescription>Your payments, with their invoices and credit notes to download.</CardDescription>
            </CardHeader>
            <CardContent>
              <Button asChild variant="outline">
                <Link href="/settings/billing">
                  <Receipt aria-hidden />
                  Payments and invoices
                </Link>
              </Button>
            </CardContent>
          </Card>
        ) : null}
        {artist ? (
          <Card id="profile">
            <CardHeader>
              <CardTitle>Artist profile</CardTitle>
              <CardDescription>{PROFILE_PURPOSE}</CardDescription>
            </CardHeader>
            <CardContent>
              <ProfileForm user={user} idPrefix="settings-profile" />
            </CardContent>
          </Card>
        ) : null}
        <EmailSection user={user} />
        <PasswordSection />
        <NotificationSettingsSection user={user} />
        <SessionsSection />
        <Card id="your-data">
          <CardHeader>
            <CardTitle>Your data</CardTitle>
            <CardDescription>
              Download a copy of everything we hold about you: {EXPORT_TEXTS.records} (account.json), with {EXPORT_TEXTS.files}.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 sm:flex-row">
            <Button asChild variant="outline">
              <a href="/api/account/export" download>
                <Download aria-hidden />
                Download my data (ZIP)
              </a>
            </Button>
            <Button asChild variant="outline" className="border-destructive/50 text-destructive-soft hover:bg-destructive/10">
              <Link href="/settings/delete-account">
                <Trash2 aria-hidden />
                Delete my account
              </Link>
            </Button>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
