import { BackLink, PageHeading } from '@client/components/page-heading';
import { DashboardHeader } from '@client/components/dashboard-header';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { NotificationSettingsSection } from './notification-settings-section';

/** /settings: for now the email preferences; the account settings of issue 13 join them here. */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="min-h-dvh">
      <DashboardHeader user={user} />
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <BackLink />
        <PageHeading title="Settings" />
        <NotificationSettingsSection user={user} />
      </main>
    </div>
  );
}
