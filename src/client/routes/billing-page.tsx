import type { ComponentType } from 'react';
import { DashboardHeader } from '@client/components/dashboard-header';
import { BackLink, PageHeading } from '@client/components/page-heading';
import { PaymentsSection } from '@client/features/payments/payments-section';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';

/**
 * The sections of /settings/billing, in order. Each is a self-contained card of its own feature;
 * another (the payouts of bonus earnings, CONTRACT §19) is mounted by adding it here.
 */
const BILLING_SECTIONS: { id: string; Section: ComponentType }[] = [{ id: 'payments', Section: PaymentsSection }];

/** /settings/billing: the artist's money matters (CONTRACT §19), reached from Settings. */
export function BillingPage() {
  useDocumentTitle('Billing');
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="min-h-dvh">
      <DashboardHeader user={user} />
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <BackLink href="/settings">Back to Settings</BackLink>
        <PageHeading title="Billing" description="Your payments, invoices and credit notes." />
        {BILLING_SECTIONS.map(({ id, Section }) => (
          <Section key={id} />
        ))}
      </main>
    </div>
  );
}
