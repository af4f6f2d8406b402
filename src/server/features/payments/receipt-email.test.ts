import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtist, createSubmissionRow, createTestApp, outboxRowsOf, type TestApp } from '../../test/helpers';
import { headerOf, sentTo, type TestSmtpServer } from '../../test/smtp-test-server';
import { handleStripeEvent } from './handle-stripe-event';

let t: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  t = await createTestApp({}, { smtp: true });
  smtp = t.smtp;
});
afterAll(() => t?.close());

const outboxRows = (userId: string) => outboxRowsOf(t.db, userId);

describe('the payment receipt over SMTP', () => {
  it('sends a receipt in the same transaction as the payment, once even when Stripe delivers twice', async () => {
    const artist = await createArtist(t.db);
    const submission = await createSubmissionRow(t.db, artist, { pricingTier: 'premium', songTitle: 'Paid Song', stripePaymentIntentId: 'pi_test_1' });
    const event = {
      id: 'evt_receipt_1',
      type: 'payment_intent.succeeded',
      // When Stripe made the event: the moment the payment succeeded (Stripe sends it on every event).
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'pi_test_1', amount: 9900, amount_received: 9900, currency: 'usd', metadata: { submissionId: submission.id } } },
    } as unknown as Stripe.Event;
    const log = t.app.log as FastifyBaseLogger;
    expect(await handleStripeEvent(t.db, t.app.outbox, {} as Stripe, event, log, {})).toBe('applied');
    expect(await handleStripeEvent(t.db, t.app.outbox, {} as Stripe, event, log, {})).toBe('duplicate');
    const email = await smtp.waitFor(sentTo(artist.email));
    expect(email.mail.subject).toBe('Receipt: $99.00 for "Paid Song"');
    expect(email.mail.text).toContain('pi_test_1');
    // A receipt is not a notification: no unsubscribe.
    expect(headerOf(email, 'list-unsubscribe')).toBe('');
    expect(await outboxRows(artist.id)).toHaveLength(1);
  });

});
