import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { DashboardHeader } from '@client/features/dashboard/dashboard-header';
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
        <div>
          <Button asChild variant="ghost" size="sm" className="-ml-3">
            <Link href="/dashboard">
              <ArrowLeft aria-hidden />
              Back to Dashboard
            </Link>
          </Button>
        </div>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Settings</h1>
        <NotificationSettingsSection user={user} />
      </main>
    </div>
  );
}
