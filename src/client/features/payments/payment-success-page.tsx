import { billingDocumentUrl } from '@shared/billing';
import { CheckCircle2, Download, FileQuestion, FileText, Hourglass } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { formatUsd } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { errorCodeOf } from '@client/lib/api';
import { formatLongDateTime } from '@client/lib/format';
import { queryClient } from '@client/lib/query-client';
import { useDocumentTitle } from '@client/lib/use-document-title';
import type { PaymentReceipt } from '@shared/payments';
import { CONFIRMATION_WAIT_MS, failurePath, receiptDownloadUrl, successPath, usePaymentReceipt } from './payments-api';
import { ResultLayout } from './result-layout';
import { DescriptionRow } from '@client/components/description-row';
import { ReturnToDashboard } from './return-to-dashboard';

/**
 * /payment-success?submission={id}: the real order id and amount of the payment the browser comes
 * back from (CONTRACT §6), read from the server, which knows it only once Stripe has confirmed it.
 */
export function PaymentSuccessPage() {
  useDocumentTitle('Payment Successful');
  const params = new URLSearchParams(useSearch());
  const submissionId = params.get('submission');
  const [, navigate] = useLocation();
  const [startedAt] = useState(() => Date.now());
  // Stripe names the intent when it sends the artist back: a payment was started even if the
  // server has not heard of it yet.
  const [cameFromProvider] = useState(() => params.has('payment_intent'));
  const receipt = usePaymentReceipt(submissionId, startedAt);

  // Stripe appends the intent's client secret when it redirects back; it has no business in the address bar.
  const hasSecretInUrl = params.has('payment_intent_client_secret');
  useEffect(() => {
    if (submissionId && hasSecretInUrl) navigate(successPath(submissionId), { replace: true });
  }, [submissionId, hasSecretInUrl, navigate]);

  const status = receipt.data?.paymentStatus;
  useEffect(() => {
    // The dashboard's lists change once the payment is confirmed.
    if (status === 'succeeded') {
      void queryClient.invalidateQueries({ queryKey: ['/api/submissions'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/stats'] });
    }
  }, [status]);

  if (params.get('redirect_status') === 'failed' || status === 'failed') {
    return <Redirect to={submissionId ? failurePath(submissionId) : '/payment-failure'} replace />;
  }
  if (!submissionId || errorCodeOf(receipt.error) === 'submission_not_found') return <NoPayment />;
  if (receipt.isPending) {
    return (
      <main className="flex min-h-dvh flex-col items-center justify-center gap-4" role="status">
        <Spinner className="size-8" />
        <p className="text-sm text-muted-foreground">Loading your payment...</p>
      </main>
    );
  }
  if (receipt.isError) return <NoPayment />;

  const r = receipt.data;
  if (r.paymentStatus !== 'succeeded') return <Confirming receipt={r} startedAt={startedAt} cameFromProvider={cameFromProvider} />;
  return (
    <ResultLayout
      tone="success"
      icon={<CheckCircle2 />}
      title="Payment Successful!"
      lead="Thank you! Your payment has been received and your submission is now waiting for the label's review."
    >
      <Details receipt={r} />
      <div className="grid gap-2 rounded-lg bg-muted/60 p-4 text-sm">
        <p className="font-medium">What happens next</p>
        <p className="text-muted-foreground">
          The team reviews your track and keeps you posted through Messages. Your {r.tierName} plan includes:{' '}
          {r.includes.join(', ')}.
        </p>
      </div>
      {/* Two documents, two purposes: said in words, as the two buttons alone did not (issue 36). */}
      <p className="text-sm text-muted-foreground" data-testid="documents-explained">
        The receipt is a page to keep for your records; the invoice is the PDF with the label's details and any VAT,
        for your accounts. Both stay under Billing in your account settings.
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <Button asChild variant="outline">
          <a href={receiptDownloadUrl(r.submissionId)} download={`receipt-${r.orderId}.html`}>
            <Download aria-hidden />
            Download Receipt
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={billingDocumentUrl(r.submissionId, 'invoice')} download>
            <FileText aria-hidden />
            Download Invoice (PDF)
          </a>
        </Button>
        <ReturnToDashboard className="sm:col-span-2" />
      </div>
    </ResultLayout>
  );
}

function Details({ receipt: r, paid = true }: { receipt: PaymentReceipt; paid?: boolean }) {
  return (
    <dl className="grid gap-3 rounded-lg border p-4 text-sm">
      <DescriptionRow layout="inline" term="Order ID">
        <span className="font-mono">#{r.orderId}</span>
      </DescriptionRow>
      <DescriptionRow layout="inline" term={paid ? 'Amount paid' : 'Amount'}>
        <span className="font-semibold">
          {formatUsd(r.amount)} {r.currency.toUpperCase()}
        </span>
      </DescriptionRow>
      <DescriptionRow layout="inline" term="Plan">{r.tierName}</DescriptionRow>
      <DescriptionRow layout="inline" term="Track">
        <span className="break-words">{r.songTitle}</span>
      </DescriptionRow>
      {r.paidAt ? <DescriptionRow layout="inline" term="Paid on">{formatLongDateTime(r.paidAt)}</DescriptionRow> : null}
      {r.paymentId ? (
        // Too long beside its term on a phone, the ID moves under it whole instead of breaking
        // mid-token (issue 43); it breaks only where even a line of its own is too short.
        <DescriptionRow layout="inline" term="Payment ID" className="flex-wrap gap-y-1 [&>dd]:ml-auto">
          <span className="font-mono text-xs [overflow-wrap:anywhere]" data-testid="payment-id">
            {r.paymentId}
          </span>
        </DescriptionRow>
      ) : null}
    </dl>
  );
}

/**
 * The payment is not confirmed (yet). Stripe's confirmation usually reaches the server within
 * seconds; after a minute the page stops waiting and says what to do. A submission that never had a
 * payment started (someone opened this address directly) is told so at once.
 */
function Confirming({
  receipt,
  startedAt,
  cameFromProvider,
}: {
  receipt: PaymentReceipt;
  startedAt: number;
  cameFromProvider: boolean;
}) {
  const [now, setNow] = useState(() => Date.now());
  const neverStarted = receipt.paymentId === null && !cameFromProvider;
  const gaveUp = neverStarted || now - startedAt >= CONFIRMATION_WAIT_MS;
  useEffect(() => {
    if (gaveUp) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [gaveUp]);
  const checkout = (
    <Button asChild>
      <Link href={`/checkout/${encodeURIComponent(receipt.submissionId)}`}>Go to Checkout</Link>
    </Button>
  );
  return (
    <ResultLayout
      tone="neutral"
      icon={gaveUp ? <Hourglass /> : <Spinner />}
      title={neverStarted ? 'Payment not received' : gaveUp ? 'Payment not confirmed yet' : 'Confirming your payment'}
      lead={
        neverStarted
          ? 'This order has not been paid. Pay it on the checkout page, or switch it to the Free plan there; until then it is not sent to the label.'
          : gaveUp
            ? 'We have not received a confirmation of this payment from our payment provider. If your card was charged, your submission moves to review as soon as it arrives and the dashboard shows it; if not, pay again from the checkout page.'
            : 'Waiting for the confirmation from our payment provider. This usually takes a few seconds.'
      }
    >
      <div role="status" aria-live="polite" className="sr-only">
        {gaveUp ? 'Payment not confirmed.' : 'Confirming your payment.'}
      </div>
      <Details receipt={receipt} paid={false} />
      {gaveUp ? (
        <div className="grid gap-2 sm:grid-cols-2">
          {checkout}
          <ReturnToDashboard variant="outline" />
        </div>
      ) : (
        <ReturnToDashboard variant="outline" />
      )}
    </ResultLayout>
  );
}

function NoPayment() {
  return (
    <ResultLayout
      tone="neutral"
      icon={<FileQuestion />}
      title="Payment not found"
      lead="There is no payment to show here. Your submissions and their payment status are on the dashboard."
    >
      <ReturnToDashboard />
    </ResultLayout>
  );
}

