import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Lock } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { formatUsd } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { failurePath, successPath } from './payments-api';

/**
 * The card form (Stripe Elements). Loaded on demand: Stripe's script is fetched only once there is
 * a payment to take, so every other state of the checkout works without it.
 */
interface CardPaymentFormProps {
  publishableKey: string;
  clientSecret: string;
  submissionId: string;
  /** Dollars with 2 decimals, as the server will charge them. */
  amount: string;
  onLoadFailed: () => void;
}

const stripeLoads = new Map<string, Promise<Stripe | null>>();
/** One Stripe.js instance per publishable key for the whole session. */
function loadStripeOnce(publishableKey: string): Promise<Stripe | null> {
  let load = stripeLoads.get(publishableKey);
  if (!load) {
    load = loadStripe(publishableKey);
    // A failed load (offline, blocked) may be retried later.
    load.catch(() => stripeLoads.delete(publishableKey));
    stripeLoads.set(publishableKey, load);
  }
  return load;
}

/** The product's dark palette, so the card fields match the page. */
const appearance: StripeElementsOptions['appearance'] = {
  theme: 'night',
  variables: {
    colorPrimary: '#8b5cf6',
    colorBackground: '#1d1a28',
    colorText: '#ecebf3',
    colorTextSecondary: '#a19db3',
    colorDanger: '#fca5a5',
    borderRadius: '6px',
  },
};

export default function CardPaymentForm({ publishableKey, clientSecret, submissionId, amount, onLoadFailed }: CardPaymentFormProps) {
  const [stripe, setStripe] = useState<Stripe | null>(null);

  useEffect(() => {
    let live = true;
    loadStripeOnce(publishableKey).then(
      (loaded) => {
        if (!live) return;
        if (loaded) setStripe(loaded);
        else onLoadFailed();
      },
      () => {
        if (live) onLoadFailed();
      },
    );
    return () => {
      live = false;
    };
  }, [publishableKey, onLoadFailed]);

  if (!stripe) return <Preparing />;
  return (
    <Elements stripe={stripe} options={{ clientSecret, appearance }}>
      <PayForm submissionId={submissionId} amount={amount} onLoadFailed={onLoadFailed} />
    </Elements>
  );
}

function Preparing() {
  return (
    <div className="flex items-center gap-3 py-8 text-sm text-muted-foreground" role="status">
      <Spinner className="size-5" />
      Loading secure payment form...
    </div>
  );
}

function PayForm({ submissionId, amount, onLoadFailed }: { submissionId: string; amount: string; onLoadFailed: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [, navigate] = useLocation();
  const [ready, setReady] = useState(false);
  const [paying, setPaying] = useState(false);

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || paying) return;
    setPaying(true);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}${successPath(submissionId)}` },
      // Cards without an extra step finish here; a bank's check (3-D Secure) comes back through return_url.
      redirect: 'if_required',
    });
    // The submission's status changes on the server: lists seen before are out of date.
    void queryClient.invalidateQueries({ queryKey: ['/api/submissions'] });
    void queryClient.invalidateQueries({ queryKey: ['/api/stats'] });
    if (result.error) {
      setPaying(false);
      // An incomplete or mistyped card is shown next to the field; only a refused payment leaves the page.
      if (result.error.type === 'validation_error') return;
      toast({ title: 'Payment Failed', description: result.error.message, variant: 'destructive' });
      navigate(failurePath(submissionId));
      return;
    }
    toast({ title: 'Payment Successful', description: 'Thank you! Your payment has been received.' });
    navigate(`${successPath(submissionId)}&payment_intent=${encodeURIComponent(result.paymentIntent.id)}`);
  }

  return (
    <form onSubmit={pay} className="grid gap-5">
      {!ready ? <Preparing /> : null}
      {/* The script loaded but its card fields did not (their frame blocked): the same "could not load". */}
      <PaymentElement options={{ layout: 'tabs' }} onReady={() => setReady(true)} onLoadError={onLoadFailed} />
      <Button type="submit" size="lg" disabled={!stripe || !elements || !ready || paying} className="w-full">
        {paying ? <Spinner className="text-primary-foreground" /> : <Lock aria-hidden />}
        {paying ? 'Processing...' : `Pay ${formatUsd(amount)}`}
      </Button>
    </form>
  );
}
