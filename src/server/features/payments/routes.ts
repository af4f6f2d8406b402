import { PRODUCT_NAME } from '@shared/brand';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { HttpError, badRequest, parseInput } from '../../platform/errors';
import { requireUser, userOf } from '../../platform/sessions';
import { handleStripeEvent } from './handle-stripe-event';
import { findPaymentReceipt, renderReceiptHtml } from './payment-receipt';
import { preparePaymentIntent } from './prepare-payment-intent';
import { createStripeClient } from './stripe-client';

export const PAYMENTS_NOT_CONFIGURED = 'Card payments are not configured';
export const WEBHOOK_NOT_CONFIGURED = 'Stripe webhooks are not configured';
/** How the receipt names the seller; the same words as the client's PRODUCT_NAME. */
const RECEIPT_ISSUER = PRODUCT_NAME;

const createPaymentIntentSchema = z.object({
  submissionId: z.string({ message: 'submissionId is required' }).trim().min(1, 'submissionId is required').max(100),
});

interface PaymentRouteOptions {
  db: Db;
  config: Config;
}

/** CONTRACT §6: the checkout's intent, the receipt of a payment, and Stripe's webhook. */
export async function paymentRoutes(app: FastifyInstance, { db, config }: PaymentRouteOptions) {
  const stripe = config.stripe ? createStripeClient(config.stripe) : undefined;
  const requireStripe = (): Stripe => {
    if (!stripe) throw new HttpError(503, PAYMENTS_NOT_CONFIGURED);
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
          .header('content-disposition', `attachment; filename="receipt-${receipt.orderId}.html"`)
          .send(html);
      },
    );
  });

  await app.register(stripeWebhookRoutes, { db, stripe, webhookSecret: config.stripe?.webhookSecret });
}

interface WebhookOptions {
  db: Db;
  stripe: Stripe | undefined;
  webhookSecret: string | undefined;
}

/**
 * POST /api/webhooks/stripe. Its own plugin, so that only here the body stays raw bytes: the
 * signature covers the exact bytes Stripe sent, which a JSON parse and re-serialise would lose.
 */
async function stripeWebhookRoutes(app: FastifyInstance, { db, stripe, webhookSecret }: WebhookOptions) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/api/webhooks/stripe', async (request) => {
    if (!stripe || !webhookSecret) throw new HttpError(503, WEBHOOK_NOT_CONFIGURED);
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || signature === '') throw badRequest('Missing Stripe-Signature header');
    if (!Buffer.isBuffer(request.body)) throw badRequest('Missing request body');

    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(request.body, signature, webhookSecret);
    } catch (error) {
      request.log.warn({ err: error }, 'Stripe webhook refused: signature does not verify');
      throw badRequest('Invalid Stripe-Signature');
    }

    const outcome = await handleStripeEvent(db, stripe, event, request.log);
    request.log.info({ eventId: event.id, type: event.type, outcome }, 'Stripe event handled');
    return { received: true };
  });
}
