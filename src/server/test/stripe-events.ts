import Stripe from 'stripe';
import { randomBytes } from 'node:crypto';
import type { StubAccount, StubCharge, StubIntent } from './stripe-stub';

/** A Stripe event as delivered to the webhook: JSON body and a `Stripe-Signature` made by the SDK's own signer. */
export function signedEvent(
  secret: string,
  type: string,
  intent: (Partial<StubIntent> & { id: string }) | StubCharge | StubAccount,
  id = `evt_${randomBytes(12).toString('hex')}`,
  /** When Stripe made the event; a retried delivery is signed anew but keeps this. */
  createdAt = new Date(),
): { id: string; payload: string; headers: Record<string, string> } {
  const payload = JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(createdAt.getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: intent },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return { id, payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } };
}
