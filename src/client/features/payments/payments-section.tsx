import { Link } from 'wouter';
import { BILLING_DOCUMENT_TITLE, formatDocumentAmount, PAYMENT_STATUS_LABELS, REFUND_REASON_TEXT, type BillingDocumentListItem, type BillingPayment } from '@shared/billing';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { LoadingBlock } from '@client/components/loading-block';
import { useBilling } from '@client/entities/billing/billing-queries';
import { DocumentLinks } from '@client/entities/billing/document-links';
import { formatLongDate } from '@client/lib/format';

const money = (payment: BillingPayment) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: payment.currency.toUpperCase() }).format(Number(payment.amount));

/**
 * /settings/billing's payments (CONTRACT §19): each payment with its date, plan, amount and
 * status, and its documents: the invoice, and the credit note of a refund.
 */
export function PaymentsSection() {
  const billing = useBilling();
  return (
    <Card id="payments">
      <CardHeader>
        <CardTitle>Payments and invoices</CardTitle>
        <CardDescription>Every payment for a submission, with its invoice and, when it was refunded, its credit note (PDF).</CardDescription>
      </CardHeader>
      <CardContent>
        {billing.isPending ? (
          <LoadingBlock label="Loading your payments..." className="py-6" />
        ) : billing.isError ? (
          <p className="text-sm text-destructive-soft">Your payments could not be loaded. Reload the page to try again.</p>
        ) : billing.data.payments.length === 0 && billing.data.documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No payments yet. Paid plans are paid when you submit; <Link href="/submit" className="text-primary-soft underline underline-offset-4">submit a track</Link>.
          </p>
        ) : (
          <ul className="grid gap-3" aria-label="Payments">
            {billing.data.payments.map((payment) => (
              <li key={payment.submissionId} className="grid gap-2 rounded-lg border p-4" aria-label={`Payment for ${payment.songTitle}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                  <p className="font-medium break-words">{payment.songTitle}</p>
                  <p className="font-semibold tabular-nums">{money(payment)}</p>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-muted-foreground">Date</dt>
                  <dd>{payment.paidAt ? formatLongDate(payment.paidAt) : 'Not paid yet'}</dd>
                  <dt className="text-muted-foreground">Plan</dt>
                  <dd>{payment.tierName}</dd>
                  <dt className="text-muted-foreground">Status</dt>
                  <dd>{PAYMENT_STATUS_LABELS[payment.paymentStatus]}</dd>
                </dl>
                {payment.refundReason ? <p className="text-sm text-muted-foreground">{REFUND_REASON_TEXT[payment.refundReason]}</p> : null}
                <DocumentLinks documents={payment.documents} emptyText="No documents yet: the invoice comes when the payment succeeds." />
              </li>
            ))}
          </ul>
        )}
        {billing.data ? <KeptDocuments documents={billing.data.documents.filter((d) => d.submissionId === null)} /> : null}
      </CardContent>
    </Card>
  );
}

/**
 * The documents of submissions deleted since (CONTRACT §21): a withdrawal refunds and deletes the
 * submission, but its invoice and credit note are kept, and stay the artist's to download.
 */
function KeptDocuments({ documents }: { documents: BillingDocumentListItem[] }) {
  if (documents.length === 0) return null;
  return (
    <section className="mt-4 grid gap-2" aria-labelledby="kept-documents-heading">
      <h3 id="kept-documents-heading" className="text-sm font-semibold">
        Documents of deleted submissions
      </h3>
      <ul className="grid gap-2" aria-label="Documents of deleted submissions">
        {documents.map((d) => (
          <li key={d.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 rounded-lg border p-3 text-sm">
            <a href={d.url} download className="font-medium text-primary-soft underline-offset-4 hover:underline">
              {BILLING_DOCUMENT_TITLE[d.kind]} {d.number}
            </a>
            <span className="min-w-0 break-words text-muted-foreground">
              {d.songTitle} · {formatLongDate(d.issuedAt)} · <span className="whitespace-nowrap" data-testid="document-amount">{formatDocumentAmount(d)}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
