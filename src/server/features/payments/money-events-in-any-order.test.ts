import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingDocuments, outboxEmails, submissions, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

// CONTRACT §21 "Money events in any order, and at the same moment": whatever order Stripe's events
// arrive in, twice or at once, a payment ends as Stripe has it, with its invoice and credit note.
const WEBHOOK_SECRET = 'whsec_test_money_events_secret';

let stub: StripeStub;
let t: TestApp;
let artist: UserRow;
let admin: UserRow;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_money_events',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
  });
  artist = await createArtist(t.db, { artistName: 'Ines Moreau' });
  admin = await createAdmin(t.db);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

type SignedEvent = ReturnType<typeof signedEvent>;
/** The money events the webhook acts on: a failed attempt, the payment's success, its refund (from Stripe's dashboard). */
type Kind = 'failed' | 'succeeded' | 'refunded';
const KINDS: Kind[] = ['failed', 'succeeded', 'refunded'];

const deliver = (event: SignedEvent) => t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });
const rowOf = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0];
const documentsOfIntent = (intentId: string) => t.db.select().from(billingDocuments).where(eq(billingDocuments.stripePaymentIntentId, intentId));
const refundsOf = (intentId: string) => [...stub.refunds.values()].filter((r) => r.payment_intent === intentId);
const emailsAbout = async (kind: 'payment_received' | 'refund_issued', submissionId: string) =>
  (await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.userId, artist.id), eq(outboxEmails.kind, kind)))).filter(
    (e) => (e.templateData as { submissionId: string }).submissionId === submissionId,
  );

async function openCheckout(songTitle: string) {
  const sub = await createSubmissionRow(t.db, artist, { pricingTier: 'basic', songTitle });
  const res = await t.call('POST', '/api/create-payment-intent', artist, { submissionId: sub.id });
  expect(res.statusCode).toBe(200);
  return { id: sub.id, intentId: res.json().clientSecret.split('_secret_')[0] as string };
}

/**
 * A payment whose history at Stripe holds the given events, each signed as Stripe sent it at that
 * moment: a declined card first, then a card that went through, then the team's refund from the
 * dashboard. Stripe ends as the last of them left it; the events are delivered afterwards.
 */
async function paymentAtStripe(kinds: readonly Kind[]) {
  const sub = await openCheckout(`Order ${kinds.join(' ')} ${Math.random().toString(36).slice(2, 6)}`);
  const events = {} as Record<Kind, SignedEvent>;
  if (kinds.includes('failed')) {
    const declined = stub.setIntent(sub.intentId, { status: 'requires_payment_method', last_payment_error: { message: 'Your card was declined.', code: 'card_declined' } });
    events.failed = signedEvent(WEBHOOK_SECRET, 'payment_intent.payment_failed', { ...declined });
  }
  if (kinds.includes('succeeded') || kinds.includes('refunded')) {
    const paid = stub.setIntent(sub.intentId, { status: 'succeeded', amount_received: 4900, last_payment_error: null });
    events.succeeded = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...paid });
  }
  if (kinds.includes('refunded')) {
    stub.refundFromDashboard(sub.intentId);
    events.refunded = signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(sub.intentId));
  }
  return { ...sub, events };
}

/** Where the submission must end, from what happened at Stripe (not from the order its events came in). */
async function expectSettled(sub: { id: string; intentId: string }, kinds: readonly Kind[]) {
  const row = await rowOf(sub.id);
  const documents = await documentsOfIntent(sub.intentId);
  const invoice = documents.find((d) => d.kind === 'invoice');
  const note = documents.find((d) => d.kind === 'credit_note');
  if (kinds.includes('refunded')) {
    expect(row).toMatchObject({ status: 'pending', paymentStatus: 'refunded', stripePaymentIntentId: sub.intentId });
    expect(documents).toHaveLength(2);
    expect(invoice).toMatchObject({ amountCents: 4900, currency: 'usd', submissionId: sub.id, userId: artist.id });
    expect(note).toMatchObject({ amountCents: 4900, currency: 'usd', invoiceNumber: invoice!.number });
    // The credit note follows its invoice.
    expect(note!.issuedAt.getTime()).toBeGreaterThanOrEqual(invoice!.issuedAt.getTime());
  } else if (kinds.includes('succeeded')) {
    expect(row).toMatchObject({ status: 'pending', paymentStatus: 'succeeded', stripePaymentIntentId: sub.intentId });
    expect(documents.map((d) => d.kind)).toEqual(['invoice']);
  } else {
    expect(row).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed' });
    expect(documents).toEqual([]);
  }
  if (kinds.includes('succeeded') || kinds.includes('refunded')) {
    // Paid (and perhaps refunded): the delivery promise runs, the receipt went out once, nothing more to pay.
    expect(row!.dueAt).not.toBeNull();
    expect(await emailsAbout('payment_received', sub.id)).toHaveLength(1);
    const again = await t.call('POST', '/api/create-payment-intent', artist, { submissionId: sub.id });
    expect(again.json().code).toBe('not_awaiting_payment');
  }
  // The webhook never refunds a live submission's payment by itself: only the dashboard's refund exists.
  expect(refundsOf(sub.intentId)).toHaveLength(kinds.includes('refunded') ? 1 : 0);
}

const orderedPairs = KINDS.flatMap((a) => KINDS.filter((b) => b !== a).map((b) => [a, b] as const));
const permutations = (items: readonly Kind[]): Kind[][] =>
  items.length <= 1 ? [[...items]] : items.flatMap((item, i) => permutations(items.filter((_, j) => j !== i)).map((rest) => [item, ...rest]));

describe('money events in any order', () => {
  it.each(orderedPairs)('%s then %s, then both again: ends as Stripe has it, once', async (first, second) => {
    const sub = await paymentAtStripe([first, second]);
    for (const kind of [first, second]) expect((await deliver(sub.events[kind])).statusCode).toBe(200);
    await expectSettled(sub, [first, second]);
    const before = (await documentsOfIntent(sub.intentId)).map((d) => d.number).sort();
    // Stripe delivers again (a lost answer, a retry): nothing more.
    for (const kind of [first, second]) expect((await deliver(sub.events[kind])).statusCode).toBe(200);
    await expectSettled(sub, [first, second]);
    expect((await documentsOfIntent(sub.intentId)).map((d) => d.number).sort()).toEqual(before);
  });

  it.each(KINDS)('%s delivered twice: applied once', async (kind) => {
    const sub = await paymentAtStripe([kind]);
    expect((await deliver(sub.events[kind])).statusCode).toBe(200);
    expect((await deliver(sub.events[kind])).statusCode).toBe(200);
    await expectSettled(sub, [kind]);
  });

  it.each(permutations(KINDS))('all three, in the order %s, %s, %s', async (...order) => {
    const sub = await paymentAtStripe(KINDS);
    for (const kind of order) expect((await deliver(sub.events[kind])).statusCode).toBe(200);
    await expectSettled(sub, KINDS);
  });

  it.each(orderedPairs.filter(([a, b]) => a < b))('%s and %s at the same moment', async (a, b) => {
    const sub = await paymentAtStripe([a, b]);
    const answers = await Promise.all([deliver(sub.events[a]), deliver(sub.events[b]), deliver(sub.events[a])]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    await expectSettled(sub, [a, b]);
  });

  it('a partial refund before the success: the payment is recorded, the refund left to the team', async () => {
    const sub = await openCheckout('Half Back');
    const paid = stub.setIntent(sub.intentId, { status: 'succeeded', amount_received: 4900 });
    stub.refundFromDashboard(sub.intentId, 1000);
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(sub.intentId)))).statusCode).toBe(200);
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...paid }))).statusCode).toBe(200);
    expect(await rowOf(sub.id)).toMatchObject({ status: 'pending', paymentStatus: 'succeeded' });
    expect((await documentsOfIntent(sub.intentId)).map((d) => d.kind)).toEqual(['invoice']);
  });

  it('numbers and dates of the documents these events issued rise together', async () => {
    for (const kind of ['invoice', 'credit_note'] as const) {
      const issued = await t.db.select().from(billingDocuments).where(and(eq(billingDocuments.kind, kind), eq(billingDocuments.userId, artist.id)));
      expect(issued.length).toBeGreaterThan(5);
      issued.sort((x, y) => x.year - y.year || x.sequence - y.sequence);
      for (let i = 1; i < issued.length; i++) expect(issued[i]!.issuedAt.getTime()).toBeGreaterThanOrEqual(issued[i - 1]!.issuedAt.getTime());
    }
  });
});

describe('a payment that succeeds for a submission that is gone', () => {
  async function withdrawnWhilePaying(songTitle: string) {
    const sub = await openCheckout(songTitle);
    // The artist withdraws while a checkout tab is still open…
    expect((await t.call('DELETE', `/api/submissions/${sub.id}`, artist)).statusCode).toBe(204);
    expect(await rowOf(sub.id)).toBeUndefined();
    // …and the card in that tab goes through anyway.
    const paid = stub.setIntent(sub.intentId, { status: 'succeeded', amount_received: 4900 });
    return { ...sub, succeeded: signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...paid }) };
  }

  async function expectRefundedAndDocumented(sub: { id: string; intentId: string }, songTitle: string) {
    expect(refundsOf(sub.intentId)).toHaveLength(1);
    expect(refundsOf(sub.intentId)[0]!.amount).toBe(4900);
    const documents = await documentsOfIntent(sub.intentId);
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    const invoice = documents.find((d) => d.kind === 'invoice')!;
    const note = documents.find((d) => d.kind === 'credit_note')!;
    expect(note.invoiceNumber).toBe(invoice.number);
    expect(note.issuedAt.getTime()).toBeGreaterThanOrEqual(invoice.issuedAt.getTime());
    const billing = (await t.call('GET', '/api/billing', artist)).json();
    expect(billing.documents).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'invoice', number: invoice.number, amount: '49.00', songTitle, submissionId: null }),
        expect.objectContaining({ kind: 'credit_note', number: note.number, amount: '49.00', songTitle, submissionId: null }),
      ]),
    );
    for (const d of [invoice, note]) expect((await t.call('GET', `/api/billing/documents/${d.number}.pdf`, artist)).statusCode).toBe(200);
    // The artist is told the money is back, with the credit note.
    expect((await emailsAbout('refund_issued', sub.id)).map((e) => e.templateData)).toEqual([
      expect.objectContaining({ amount: '$49.00', songTitle, creditNoteNumber: note.number, reason: 'withdrawn' }),
    ]);
  }

  it('is refunded at once through Stripe, and its invoice and credit note stay under GET /api/billing', async () => {
    const sub = await withdrawnWhilePaying('Gone Tomorrow');
    expect((await deliver(sub.succeeded)).statusCode).toBe(200);
    await expectRefundedAndDocumented(sub, 'Gone Tomorrow');
    // Delivered again, then the refund's own charge.refunded: nothing more is refunded or issued.
    expect((await deliver(sub.succeeded)).statusCode).toBe(200);
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(sub.intentId)))).statusCode).toBe(200);
    await expectRefundedAndDocumented(sub, 'Gone Tomorrow');
  });

  it('refunded from the dashboard before its success arrives: documented, not refunded twice', async () => {
    const sub = await withdrawnWhilePaying('Gone Twice');
    stub.refundFromDashboard(sub.intentId);
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(sub.intentId)))).statusCode).toBe(200);
    expect((await deliver(sub.succeeded)).statusCode).toBe(200);
    await expectRefundedAndDocumented(sub, 'Gone Twice');
  });

  it('Stripe unreachable: the event is answered with an error and refunded when Stripe delivers it again', async () => {
    const sub = await withdrawnWhilePaying('Gone Later');
    stub.failNext(10);
    const refused = await deliver(sub.succeeded);
    stub.failNext(0);
    expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    expect(await documentsOfIntent(sub.intentId)).toEqual([]);
    expect((await deliver(sub.succeeded)).statusCode).toBe(200);
    await expectRefundedAndDocumented(sub, 'Gone Later');
  });

  it('a payment invoiced before its submission was deleted is left to that deletion: nothing refunded again', async () => {
    const sub = await openCheckout('Paid Then Withdrawn');
    const paid = stub.setIntent(sub.intentId, { status: 'succeeded', amount_received: 4900 });
    const succeeded = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...paid });
    expect((await deliver(succeeded)).statusCode).toBe(200);
    expect((await t.call('DELETE', `/api/submissions/${sub.id}`, artist)).statusCode).toBe(204);
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(sub.intentId)))).statusCode).toBe(200);
    expect((await deliver(succeeded)).statusCode).toBe(200);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
    const documents = await documentsOfIntent(sub.intentId);
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    expect(await t.db.select().from(billingDocuments).where(inArray(billingDocuments.number, documents.map((d) => d.number)))).toHaveLength(2);
  });

  it('delivered work the team deleted, refunded later from the dashboard: its credit note is issued, nothing refunded again', async () => {
    const sub = await openCheckout('Delivered Then Deleted');
    const paid = stub.setIntent(sub.intentId, { status: 'succeeded', amount_received: 4900 });
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...paid }))).statusCode).toBe(200);
    await t.db.update(submissions).set({ deliveredAt: new Date() }).where(eq(submissions.id, sub.id));
    expect((await t.call('DELETE', `/api/admin/submissions/${sub.id}`, admin)).statusCode).toBe(204);
    expect(refundsOf(sub.intentId)).toEqual([]);
    stub.refundFromDashboard(sub.intentId);
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(sub.intentId)))).statusCode).toBe(200);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
    const documents = await documentsOfIntent(sub.intentId);
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    expect(documents.every((d) => d.userId === artist.id && d.submissionId === null)).toBe(true);
    expect(await emailsAbout('refund_issued', sub.id)).toEqual([]);
  });

  it('a signed success for an intent Stripe does not know, naming a submission that does not exist: acknowledged, nothing refunded', async () => {
    const event = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', {
      id: 'pi_unknown_to_stripe',
      object: 'payment_intent',
      amount: 4900,
      amount_received: 4900,
      currency: 'usd',
      status: 'succeeded',
      metadata: { submissionId: 'no-such-submission', userId: artist.id },
    });
    expect((await deliver(event)).statusCode).toBe(200);
    expect(refundsOf('pi_unknown_to_stripe')).toEqual([]);
    expect(await documentsOfIntent('pi_unknown_to_stripe')).toEqual([]);
  });
});
