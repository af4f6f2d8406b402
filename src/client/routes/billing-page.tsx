import { DashboardHeader } from '@client/components/dashboard-header';
import { BackLink, PageHeading } from '@client/components/page-heading';
import { PayoutsSection } from '@client/features/payments/payouts-section';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';

/** /settings/billing (CONTRACT §19): money between the artist and the label; here, bonus payouts. */
export function BillingPage() {
  useDocumentTitle('Billing');
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="min-h-dvh">
      <DashboardHeader user={user} />
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <BackLink href="/settings">Back to Settings</BackLink>
        <PageHeading title="Billing" />
        {user.role !== 'admin' ? <PayoutsSection /> : null}
      </main>
    </div>
  );
}
