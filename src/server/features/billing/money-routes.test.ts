import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingTier } from '@shared/submissions';
import { billingDocuments, bonusEarnings, payoutAccounts, submissionHistory, submissions, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

// CONTRACT §21: every route that moves money, walked once, with the history each leaves behind
// (written by the one verb) and the documents the label keeps afterwards.
const WEBHOOK_SECRET = 'whsec_test_money_routes';

let stub: StripeStub;
let t: TestApp;
let artist: UserRow;
let admin: UserRow;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_money',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
  });
  artist = await createArtist(t.db);
  admin = await createAdmin(t.db);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const deliver = (event: { payload: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });

/**
 * The submission's history as [field, from, to, reason, actor], oldest first; rows of one change
 * share its instant, and among them the order is the field's (a change's rows are one record).
 */
async function chainOf(id: string) {
  const rows = await t.db.select().from(submissionHistory).where(eq(submissionHistory.submissionId, id)).orderBy(asc(submissionHistory.createdAt));
  const order = ['status', 'review', 'refund', 'payment_status'];
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || order.indexOf(a.field) - order.indexOf(b.field));
  return rows.map((r) => [r.field, r.fromValue, r.toValue, r.reason, r.actorId]);
}
const documentsOf = async (intentId: string) =>
  (await t.db.select().from(billingDocuments).where(eq(billingDocuments.stripePaymentIntentId, intentId))).map((d) => ({ kind: d.kind, amountCents: d.amountCents, submissionId: d.submissionId }));

/** Opens the checkout (the route), and has Stripe report the card payment through the webhook (the route). */
async function pay(id: string): Promise<string> {
  const res = await t.call('POST', '/api/create-payment-intent', artist, { submissionId: id });
  expect(res.statusCode).toBe(200);
  const intentId = res.json().clientSecret.split('_secret_')[0] as string;
  const intent = stub.setIntent(intentId, { status: 'succeeded', amount_received: stub.intents.get(intentId)!.amount });
  expect((await deliver(signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent }))).statusCode).toBe(200);
  return intentId;
}
const awaitingPayment = (tier: PricingTier = 'premium') => createSubmissionRow(t.db, artist, { pricingTier: tier });
const paidChain = (amountFrom: 'pending' = 'pending') => [
  ['status', 'payment_pending', 'pending', 'payment_succeeded', null],
  ['payment_status', amountFrom, 'succeeded', null, null],
];

describe('every money route', () => {
  it('tier change to another paid plan, then pay: one invoice for the new price, the payment recorded once', async () => {
    const sub = await awaitingPayment('premium');
    expect((await t.call('POST', `/api/submissions/${sub.id}/tier`, artist, { pricingTier: 'basic' })).statusCode).toBe(204);
    const intentId = await pay(sub.id);
    expect(await chainOf(sub.id)).toEqual(paidChain());
    expect(await documentsOf(intentId)).toEqual([{ kind: 'invoice', amountCents: 4900, submissionId: sub.id }]);
  });

  it('tier change to the free plan: the submission goes to the label, nothing owed, no document', async () => {
    const sub = await awaitingPayment('premium');
    expect((await t.call('POST', `/api/submissions/${sub.id}/tier`, artist, { pricingTier: 'free' })).statusCode).toBe(204);
    expect(await chainOf(sub.id)).toEqual([
      ['status', 'payment_pending', 'pending', 'tier_changed', artist.id],
      ['payment_status', 'pending', null, null, artist.id],
    ]);
    expect(await t.db.select().from(billingDocuments).where(eq(billingDocuments.submissionId, sub.id))).toEqual([]);
  });

  it('pay, then the team’s refund: refund and payment rows by the admin, invoice and credit note', async () => {
    const sub = await awaitingPayment();
    const intentId = await pay(sub.id);
    expect((await t.call('POST', `/api/admin/submissions/${sub.id}/refund`, admin, {})).statusCode).toBe(200);
    expect(await chainOf(sub.id)).toEqual([
      ...paidChain(),
      ['refund', null, 'admin', null, admin.id],
      ['payment_status', 'succeeded', 'refunded', null, admin.id],
    ]);
    expect(await documentsOf(intentId)).toEqual(
      expect.arrayContaining([
        { kind: 'invoice', amountCents: 9900, submissionId: sub.id },
        { kind: 'credit_note', amountCents: 9900, submissionId: sub.id },
      ]),
    );
  });

  it('pay, then reject: the status by review, the refund for the rejection, and its credit note', async () => {
    const sub = await awaitingPayment('basic');
    const intentId = await pay(sub.id);
    expect((await t.call('PATCH', `/api/admin/submissions/${sub.id}/status`, admin, { status: 'rejected' })).statusCode).toBe(200);
    expect(await chainOf(sub.id)).toEqual([
      ...paidChain(),
      ['status', 'pending', 'rejected', 'review', admin.id],
      ['refund', null, 'rejected', null, admin.id],
      ['payment_status', 'succeeded', 'refunded', null, admin.id],
    ]);
    expect((await documentsOf(intentId)).map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    // Stripe's own charge.refunded arriving afterwards adds nothing.
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(intentId)))).statusCode).toBe(200);
    expect(await chainOf(sub.id)).toHaveLength(5);
  });

  it('pay, then withdraw, and pay, then the team’s delete: both refund first; the documents stay with no submission', async () => {
    for (const [caller, url, reason] of [
      [artist, (id: string) => `/api/submissions/${id}`, 'withdrawn'],
      [admin, (id: string) => `/api/admin/submissions/${id}`, 'admin'],
    ] as const) {
      const sub = await awaitingPayment();
      const intentId = await pay(sub.id);
      expect((await t.call('DELETE', url(sub.id), caller)).statusCode).toBe(204);
      expect(await t.db.select().from(submissions).where(eq(submissions.id, sub.id))).toEqual([]);
      expect(await documentsOf(intentId)).toEqual(
        expect.arrayContaining([
          { kind: 'invoice', amountCents: 9900, submissionId: null },
          { kind: 'credit_note', amountCents: 9900, submissionId: null },
        ]),
      );
      const refund = [...stub.refunds.values()].filter((r) => r.payment_intent === intentId);
      expect(refund.map((r) => (r.metadata as { reason?: string } | undefined)?.reason)).toEqual([reason]);
      // The artist's billing still lists both, by number.
      const listed = (await t.call('GET', '/api/billing', artist)).json().documents as { number: string; submissionId: string | null }[];
      const kept = await t.db.select().from(billingDocuments).where(eq(billingDocuments.stripePaymentIntentId, intentId));
      expect(listed.filter((d) => kept.some((k) => k.number === d.number))).toHaveLength(2);
    }
  });

  it('payout and mark paid: each earning paid once, through the one writer, the loser told already_paid', async () => {
    const published = async () => {
      const sub = await createSubmissionRow(t.db, artist, { pricingTier: 'premium', status: 'published' });
      await t.db.insert(bonusEarnings).values({ submissionId: sub.id, userId: artist.id, amount: '25.00' });
      return sub.id;
    };
    // The tax form every payee files before their first payout (CONTRACT §24).
    const form = { kind: 'w9', legalName: 'Nora Vex', country: 'US', address: '1 Main St, Austin TX', tin: '123456789', signature: { name: 'Nora Vex', consent: true } };
    expect((await t.call('POST', '/api/payouts/tax-form', artist, form)).statusCode).toBe(201);
    const res = await t.call('POST', '/api/payouts/account', artist, {});
    expect(res.statusCode).toBe(200);
    const [account] = await t.db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, artist.id));
    stub.setAccount(account!.stripeAccountId, { details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'active' } });
    expect((await deliver(stub.accountUpdatedEvent(account!.stripeAccountId, WEBHOOK_SECRET))).statusCode).toBe(200);

    const byStripe = await published();
    expect((await t.call('POST', `/api/admin/bonus/earnings/${byStripe}/pay`, admin, {})).statusCode).toBe(200);
    expect((await t.call('PATCH', `/api/admin/bonus/earnings/${byStripe}`, admin, { status: 'paid' })).json().code).toBe('already_paid');
    const byHand = await published();
    expect((await t.call('PATCH', `/api/admin/bonus/earnings/${byHand}`, admin, { status: 'paid' })).statusCode).toBe(200);
    expect((await t.call('POST', `/api/admin/bonus/earnings/${byHand}/pay`, admin, {})).json().code).toBe('already_paid');

    const rows = await t.db.select().from(bonusEarnings).where(eq(bonusEarnings.userId, artist.id));
    expect(rows.find((r) => r.submissionId === byStripe)).toMatchObject({ status: 'paid', paidBy: admin.id, transferId: expect.stringMatching(/^tr_/) });
    expect(rows.find((r) => r.submissionId === byHand)).toMatchObject({ status: 'paid', paidBy: admin.id, transferId: null });
    expect([...stub.transfers.values()].filter((tr) => tr.destination === account!.stripeAccountId)).toHaveLength(1);
  });
});
