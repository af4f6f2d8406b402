import { BackLink, PageHeading } from '@client/components/page-heading';
import { AlertTriangle, FileQuestion, RotateCcw, ShieldCheck } from 'lucide-react';
import { Suspense, lazy, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { ArtistHeader } from '@client/components/artist-header';
import { ChangeTierControl } from '@client/entities/submission/change-tier-control';
import { useAuth } from '@client/lib/auth';
import type { Submission } from '@shared/submission-schemas';
import { conversationHref, TEAM_CONVERSATION_ID } from '@shared/messages';
import { isPaidTier, isPaymentDue, tierAmount } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiError, errorCodeOf, errorMessage, isUnauthorizedError } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { OrderSummary } from './order-summary';
import { usePublicConfig } from '@client/lib/public-config';
import { useCheckoutSubmission, usePaymentIntent } from './payments-api';
import { ReturnToDashboard } from './return-to-dashboard';
import { CHECKOUT_TEXTS } from './checkout-texts';

const CardPaymentForm = lazy(() => import('./card-payment-form'));


/** SPEC §2 "Checkout": the order summary and the card form of a paid submission. */
export function CheckoutPage({ submissionId }: { submissionId: string }) {
  useDocumentTitle('Checkout');
  const submission = useCheckoutSubmission(submissionId);

  if (submission.isPending) return <CenteredStatus text="Loading checkout..." />;
  if (submission.isError) {
    // A 401 is handled for every page: a toast, then /api/login after 500 ms (SPEC §8, §9).
    if (isUnauthorizedError(submission.error)) return <CenteredStatus text="Redirecting to sign in..." />;
    if (errorCodeOf(submission.error) === 'submission_not_found') return <SubmissionNotFound />;
    return (
      <Message icon={<AlertTriangle />} title="Checkout could not be loaded" text={errorMessage(submission.error)}>
        <Button onClick={() => void submission.refetch()}>
          <RotateCcw aria-hidden />
          Try again
        </Button>
      </Message>
    );
  }
  const s = submission.data;
  // SPEC §4: only a paid tier awaiting payment has a checkout; anything else goes back to /.
  if (!isPaidTier(s.pricingTier) || !isPaymentDue(s.status)) return <Redirect to="/" replace />;
  return <Checkout submission={s} />;
}

function Checkout({ submission }: { submission: Submission }) {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  return (
    <div className="min-h-dvh">
      {user ? <ArtistHeader user={user} /> : null}
      <main className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12">
        <BackLink />
        <PageHeading title="Checkout" description="Complete your payment and your submission goes to the label's team for review." />
        {/*
          On a phone the card follows the summary and "Change plan" comes last: between them it put
          Pay ~1,350 px down at 360 px (issue 36). From lg the plan sits under the summary, the card beside both.
        */}
        <div className="grid items-start gap-6 lg:grid-cols-2 lg:grid-rows-[auto_1fr]">
          <div className="lg:col-start-1 lg:row-start-1">
            <OrderSummary submission={submission} />
          </div>
          <div className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
            <PaymentCard submission={submission} />
          </div>
          <div className="lg:col-start-1 lg:row-start-2">
            <ChangeTierControl
              submission={submission}
              className="bg-card p-6"
              onChanged={(tier) => (tier === 'free' ? navigate('/dashboard') : undefined)}
            />
          </div>
        </div>
      </main>
    </div>
  );
}

function PaymentCard({ submission }: { submission: Submission }) {
  const submissionId = submission.id;
  const config = usePublicConfig();
  const publishableKey = config.data?.stripePublishableKey ?? null;
  const intent = usePaymentIntent(submissionId, publishableKey !== null);
  const [scriptFailed, setScriptFailed] = useState(false);
  const onLoadFailed = useCallback(() => setScriptFailed(true), []);

  const intentError = intent.error instanceof ApiError ? intent.error : null;
  const intentCode = errorCodeOf(intent.error);
  // The submission stopped awaiting payment (paid meanwhile, or reviewed), or is gone.
  const leaveCheckout = intentCode === 'not_a_paid_tier' || intentCode === 'not_awaiting_payment' || intentCode === 'submission_not_found';
  // Paid already, or a payment is under way: said in words, with the way back.
  const settled = intentCode === 'already_paid' || intentCode === 'payment_in_progress';
  const notConfigured =
    (config.isSuccess && publishableKey === null) ||
    intentCode === 'payments_not_configured' ||
    (intent.isSuccess && !intent.data.clientSecret);
  const initFailed =
    scriptFailed ||
    config.isError ||
    (intent.isError && !notConfigured && !isUnauthorizedError(intent.error) && !leaveCheckout && !settled);

  const failureTitle = scriptFailed ? CHECKOUT_TEXTS.cardFormFailedTitle : CHECKOUT_TEXTS.intentFailedTitle;
  useEffect(() => {
    if (initFailed) toast({ title: failureTitle, variant: 'destructive' });
  }, [initFailed, failureTitle]);

  // SPEC §4: a submission that no longer awaits payment has no checkout; the artist goes to /.
  if (leaveCheckout) return <Redirect to="/" replace />;

  let body: ReactNode;
  if (notConfigured) {
    body = (
      <div className="grid gap-3" role="alert">
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          <AlertTriangle className="size-5 text-warning" aria-hidden />
          Payment Configuration Required
        </h2>
        <p className="text-sm text-muted-foreground">
          Card payments are not set up on this site yet, so this order cannot be paid right now. Your submission is
          saved: try again later, contact the label's team, or switch it to the Free plan under "Change plan" below.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link href={conversationHref(TEAM_CONVERSATION_ID, submissionId)}>Contact Support</Link>
          </Button>
          <ReturnToDashboard variant="ghost" />
        </div>
      </div>
    );
  } else if (settled && intentError) {
    body = (
      <div className="grid gap-3" role="status">
        <p className="text-sm">{intentError.serverMessage}</p>
        <ReturnToDashboard variant="outline" className="justify-self-start" />
      </div>
    );
  } else if (initFailed) {
    const detail = scriptFailed ? null : errorMessage(intent.error ?? config.error);
    body = (
      <div className="grid gap-3" role="alert" data-testid="checkout-failed">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <AlertTriangle className="size-5 text-warning" aria-hidden />
          {failureTitle}
        </h2>
        {detail === null ? (
          <>
            <p className="text-sm text-muted-foreground">{CHECKOUT_TEXTS.cardFormFailed}</p>
            <ul className="grid list-disc gap-1 pl-5 text-sm">
              {CHECKOUT_TEXTS.cardFormSteps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{CHECKOUT_TEXTS.intentFailed(detail)}</p>
        )}
        <p className="text-sm text-muted-foreground">{CHECKOUT_TEXTS.saved}</p>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            onClick={() => {
              setScriptFailed(false);
              void config.refetch();
              void intent.refetch();
            }}
          >
            <RotateCcw aria-hidden />
            {CHECKOUT_TEXTS.retry}
          </Button>
          <Button asChild variant="ghost">
            <Link href={conversationHref(TEAM_CONVERSATION_ID, submissionId)}>{CHECKOUT_TEXTS.contact}</Link>
          </Button>
        </div>
      </div>
    );
  } else if (intent.isSuccess && publishableKey) {
    body = (
      <Suspense fallback={<Preparing />}>
        <CardPaymentForm
          publishableKey={publishableKey}
          clientSecret={intent.data.clientSecret}
          submissionId={submissionId}
          // The tier's price from the table the server charges from (CONTRACT: never a fixed figure).
          amount={tierAmount(submission.pricingTier)}
          onLoadFailed={onLoadFailed}
        />
      </Suspense>
    );
  } else {
    body = <Preparing />;
  }

  return (
    <Card role="region" aria-labelledby="payment-title">
      <CardHeader>
        <CardTitle id="payment-title" className="flex items-center gap-2">
          <ShieldCheck className="size-5 text-success" aria-hidden />
          Secure Payment
        </CardTitle>
        <CardDescription>Card details go straight to Stripe, our payment provider; this site never sees them.</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

function Preparing() {
  return (
    <div className="flex items-center gap-3 py-8 text-sm text-muted-foreground" role="status">
      <Spinner className="size-5" />
      Preparing secure payment...
    </div>
  );
}

function SubmissionNotFound() {
  return (
    <Message
      icon={<FileQuestion />}
      title="Submission Not Found"
      text="This submission does not exist, or it is not yours. Check the link, or find your submissions on the dashboard."
    >
      <ReturnToDashboard />
    </Message>
  );
}

function CenteredStatus({ text }: { text: string }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4" role="status" aria-live="polite">
      <Spinner className="size-8" />
      <p className="text-sm text-muted-foreground">{text}</p>
    </main>
  );
}

function Message({ icon, title, text, children }: { icon: ReactNode; title: string; text: string; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-8">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 pt-6 text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/15 text-primary-soft [&_svg]:size-6" aria-hidden>
            {icon}
          </span>
          <h1 className="text-2xl font-semibold">{title}</h1>
          <p className="text-muted-foreground">{text}</p>
          {children}
        </CardContent>
      </Card>
    </main>
  );
}
