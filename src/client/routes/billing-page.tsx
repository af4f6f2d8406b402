import type { ComponentType } from 'react';
import { ArtistHeader } from '@client/components/artist-header';
import { BackLink, PageHeading } from '@client/components/page-heading';
import { PaymentsSection } from '@client/features/payments/payments-section';
import { PayoutsSection } from '@client/features/payments/payouts-section';
import { TaxPapersSection } from '@client/features/payments/tax-papers-section';
import { useAuth } from '@client/lib/auth';
import { useDocumentTitle } from '@client/lib/use-document-title';

/**
 * The sections of /settings/billing, in order. Each is a self-contained card of its own feature:
 * the payments with their invoices and credit notes, and the payouts of bonus earnings (artists
 * only, CONTRACT §19). Another is mounted by adding it here.
 */
const BILLING_SECTIONS: { id: string; Section: ComponentType; artistsOnly?: boolean }[] = [
  { id: 'payments', Section: PaymentsSection },
  { id: 'payouts', Section: PayoutsSection, artistsOnly: true },
  { id: 'tax-papers', Section: TaxPapersSection, artistsOnly: true },
];

/** /settings/billing: the artist's money matters (CONTRACT §19), reached from Settings. */
export function BillingPage() {
  useDocumentTitle('Billing');
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="min-h-dvh">
      <ArtistHeader user={user} />
      <main className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <BackLink href="/settings">Back to Settings</BackLink>
        <PageHeading title="Billing" description="Your payments, invoices and credit notes, and how your bonus is paid." />
        {BILLING_SECTIONS.filter((section) => user.role !== 'admin' || !section.artistsOnly).map(({ id, Section }) => (
          <Section key={id} />
        ))}
      </main>
    </div>
  );
}
