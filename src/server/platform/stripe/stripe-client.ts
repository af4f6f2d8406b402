import Stripe from 'stripe';
import type { Config } from '../../config';

type StripeConfig = NonNullable<Config['stripe']>;

/**
 * The Stripe SDK, pointed at Stripe or, when STRIPE_API_URL is set, at a Stripe-compatible server
 * (the test double in tests, stripe-mock in development). Nothing else in the server talks to Stripe.
 */
export function createStripeClient(stripe: StripeConfig): Stripe {
  return new Stripe(stripe.secretKey, {
    ...apiAddress(stripe.apiUrl),
    // The SDK retries network errors with the same idempotency key, so a retry never pays twice.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
}

/** STRIPE_API_URL as the host, port and protocol the SDK's constructor takes. */
function apiAddress(apiUrl: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}
