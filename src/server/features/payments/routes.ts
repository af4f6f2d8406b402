import type { BillingSeller } from '@shared/billing';
import { PRODUCT_NAME } from '@shared/brand';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { apiError, parseInput } from '../../platform/errors';
import { rateLimited } from '../../platform/rate-limits';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';
import { changeTierSchema } from '@shared/submission-schemas';
import { createPaymentIntentSchema } from '@shared/payments';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import { changeSubmissionTier } from './change-tier';
import { handleStripeEvent } from './handle-stripe-event';
import { findPaymentReceipt, renderReceiptHtml } from './payment-receipt';
import { preparePaymentIntent } from './prepare-payment-intent';
import { payEarning, payoutAccountState, startPayeeOnboarding, startPayoutOnboarding } from './payouts';
import { payeeByToken } from '../../domain/bonus/payees';
import { createStripeClient } from '../../platform/stripe/stripe-client';
import { attachment } from '../../platform/content-disposition';

/** How the receipt names the seller; the same words as the client's PRODUCT_NAME. */
const RECEIPT_ISSUER = PRODUCT_NAME;

interface PaymentRouteOptions {
  db: Db;
  config: Config;
  /** The time as the feature sees it (when an earning was paid). */
  now?: () => Date;
}

/** CONTRACT §6: the checkout's intent, the receipt of a payment, and Stripe's webhook. */
export async function paymentRoutes(app: FastifyInstance, { db, config, now = () => new Date() }: PaymentRouteOptions) {
  const stripe = config.stripe ? createStripeClient(config.stripe) : undefined;
  const requireStripe = (): Stripe => {
    if (!stripe) throw apiError('payments_not_configured');
    return stripe;
  };

  await app.register(async (guarded) => {
    guarded.addHook('preHandler', requireUser);
    guarded.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    guarded.post('/api/create-payment-intent', async (request) => {
      const client = requireStripe();
      const { submissionId } = parseInput(createPaymentIntentSchema, request.body);
      const prepared = await preparePaymentIntent(db, client, userOf(request).id, submissionId);
      request.log.info({ submissionId }, 'payment intent prepared');
      return prepared;
    });

    // The submissions feature's URL space, but a payment matter: it cancels the open PaymentIntent.
    guarded.post<{ Params: { id: string } }>('/api/submissions/:id/tier', async (request, reply) => {
      if (!OBJECT_ID_PATTERN.test(request.params.id)) throw apiError('submission_not_found');
      const { pricingTier } = parseInput(changeTierSchema, request.body);
      await changeSubmissionTier(db, stripe, userOf(request).id, request.params.id, pricingTier);
      request.log.info({ submissionId: request.params.id, tier: pricingTier }, 'plan changed');
      return reply.status(204).send();
    });

    guarded.get<{ Params: { submissionId: string } }>('/api/payments/:submissionId/receipt', async (request) =>
      findPaymentReceipt(db, userOf(request).id, request.params.submissionId),
    );

    guarded.get<{ Params: { submissionId: string } }>(
      '/api/payments/:submissionId/receipt/download',
      async (request, reply) => {
        const receipt = await findPaymentReceipt(db, userOf(request).id, request.params.submissionId);
        const html = renderReceiptHtml(receipt, RECEIPT_ISSUER);
        return reply
          .type('text/html; charset=utf-8')
          .header('content-disposition', attachment(`receipt-${receipt.orderId}.html`))
          .send(html);
      },
    );
  });

  // Bonus payouts through Stripe Connect (CONTRACT §19): the artist's account, the team's transfer.
  await app.register(async (artist) => {
    artist.addHook('onRequest', requireUser);
    artist.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    artist.get('/api/payouts/account', async (request) => {
      const user = userOf(request);
      if (user.role === 'admin') throw apiError('payouts_for_artists');
      return payoutAccountState(db, user.id);
    });

    artist.post('/api/payouts/account', rateLimited('payoutLinks'), async (request) => {
      const user = userOf(request);
      if (user.role === 'admin') throw apiError('payouts_for_artists');
      return startPayoutOnboarding(db, requireStripe(), user, config.publicUrl, request.log);
    });
  });

  // A payee's own Express account, by their emailed link (CONTRACT §24): the token, not a session, decides.
  await app.register(async (link) => {
    link.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    link.post<{ Params: { token: string } }>('/api/payee/:token/payout-account', rateLimited('signingLinks', 'address'), async (request) => {
      const { token } = request.params;
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw apiError('payee_link_gone');
      const payee = await payeeByToken(db, token, now());
      return startPayeeOnboarding(db, requireStripe(), payee, config.publicUrl, request.log);
    });
  });

  await app.register(async (team) => {
    team.addHook('onRequest', requireAdmin);
    team.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    team.post<{ Params: { submissionId: string } }>('/api/admin/bonus/earnings/:submissionId/pay', async (request) => {
      // The earning is named by the id the router matched, checked once and passed on as it is.
      const { submissionId } = request.params;
      if (!OBJECT_ID_PATTERN.test(submissionId)) throw apiError('earning_not_found');
      return payEarning(db, requireStripe(), { adminId: userOf(request).id, submissionId, now: now() }, request.log);
    });
  });

  await app.register(stripeWebhookRoutes, { db, stripe, webhookSecret: config.stripe?.webhookSecret, seller: config.billing });
}

interface WebhookOptions {
  db: Db;
  stripe: Stripe | undefined;
  webhookSecret: string | undefined;
  /** Kept with the invoices and credit notes the events issue. */
  seller: BillingSeller;
}

/**
 * Whether a verified event has what every handler reads: an id, a type and `data.object` with an
 * id of its own. Stripe always sends these; an event without them is signed but malformed.
 */
function isReadableEvent(event: Stripe.Event): boolean {
  const data: unknown = (event as { data?: unknown }).data;
  const object: unknown = data !== null && typeof data === 'object' ? (data as { object?: unknown }).object : undefined;
  return (
    typeof event.id === 'string' &&
    event.id !== '' &&
    typeof event.type === 'string' &&
    object !== null &&
    typeof object === 'object' &&
    typeof (object as { id?: unknown }).id === 'string'
  );
}

/**
 * POST /api/webhooks/stripe. Its own plugin, so that only here the body stays raw bytes: the
 * signature covers the exact bytes Stripe sent, which a JSON parse and re-serialise would lose.
 */
async function stripeWebhookRoutes(app: FastifyInstance, { db, stripe, webhookSecret, seller }: WebhookOptions) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/api/webhooks/stripe', async (request) => {
    if (!stripe || !webhookSecret) throw apiError('webhooks_not_configured');
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || signature === '') throw apiError('invalid_signature', 'Missing Stripe-Signature header');
    if (!Buffer.isBuffer(request.body)) throw apiError('bad_request', 'Missing request body');

    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(request.body, signature, webhookSecret);
    } catch (error) {
      request.log.warn({ err: error }, 'Stripe webhook refused: signature does not verify');
      throw apiError('invalid_signature', 'Invalid Stripe-Signature');
    }

    // Signed but not an event this product can read: acknowledged and ignored (CONTRACT §23), so
    // Stripe does not redeliver it and nothing below meets a missing field.
    if (!isReadableEvent(event)) {
      request.log.warn({ eventId: typeof event.id === 'string' ? event.id : null }, 'Stripe event ignored: it has no id, type or object');
      return { received: true };
    }
    const outcome = await handleStripeEvent(db, app.outbox, stripe, event, request.log, seller);
    request.log.info({ eventId: event.id, type: event.type, outcome }, 'Stripe event handled');
    return { received: true };
  });
}
