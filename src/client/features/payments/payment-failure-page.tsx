import { MessageCircle, RotateCcw, XCircle } from 'lucide-react';
import { Link, useLocation, useSearch } from 'wouter';
import { Button } from '@client/components/ui/button';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { orderIdOf } from '@shared/payments';
import { conversationHref, TEAM_CONVERSATION_ID } from '@shared/messages';
import { ResultLayout } from './result-layout';
import { ReturnToDashboard } from './return-to-dashboard';

const COMMON_SOLUTIONS = [
  'Check the card number, expiry date, CVC and postal code.',
  'Make sure the card has enough funds and allows online payments.',
  'Approve the payment if your bank asks you to confirm it.',
  'Try another card.',
  'Contact your bank if the payment keeps being declined.',
];

/** SPEC §2 "/payment-failure": what to try, and the ways out. */
export function PaymentFailurePage() {
  useDocumentTitle('Payment Failed');
  const submissionId = new URLSearchParams(useSearch()).get('submission');
  const [, navigate] = useLocation();

  // SPEC: Try Again goes back (to the checkout). Opened directly, there is no page to go back to.
  const tryAgain = () => {
    if (window.history.length > 1) window.history.back();
    else navigate(submissionId ? `/checkout/${encodeURIComponent(submissionId)}` : '/dashboard');
  };

  return (
    <ResultLayout
      tone="failure"
      icon={<XCircle />}
      title="Payment Failed"
      lead={
        <>
          Your payment could not be completed and you have not been charged.
          {submissionId ? (
            <>
              {' '}
              Order <span className="font-mono text-foreground">#{orderIdOf(submissionId)}</span> is saved and waiting for
              payment.
            </>
          ) : null}
        </>
      }
    >
      <section aria-labelledby="solutions-title" className="grid gap-2 rounded-lg bg-muted/60 p-4 text-sm">
        <h2 id="solutions-title" className="font-medium">
          Common solutions
        </h2>
        <ul className="grid list-disc gap-1 pl-5 text-muted-foreground">
          {COMMON_SOLUTIONS.map((solution) => (
            <li key={solution}>{solution}</li>
          ))}
        </ul>
      </section>
      <div className="grid gap-2 sm:grid-cols-2">
        <Button onClick={tryAgain}>
          <RotateCcw aria-hidden />
          Try Again
        </Button>
        <Button asChild variant="outline">
          {/* The label team's conversation, about this order (CONTRACT §18). */}
          <Link href={conversationHref(TEAM_CONVERSATION_ID, submissionId)}>
            <MessageCircle aria-hidden />
            Contact Support
          </Link>
        </Button>
        <ReturnToDashboard variant="ghost" className="sm:col-span-2" />
      </div>
    </ResultLayout>
  );
}
