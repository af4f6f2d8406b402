import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingTier } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { paymentEvents, submissionHistory, submissions, type UserRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { TEST_ORIGIN, createArtist, createSubmissionRow, createTestApp, sessionCookie, type TestApp } from '../../test/helpers';
import type { PaymentReceipt } from '@shared/payments';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

const WEBHOOK_SECRET = 'whsec_test_payments_secret';

let stub: StripeStub;
let t: TestApp;
let logs: { level: number; msg: string; [key: string]: unknown }[];
let artist: UserRow;
let otherArtist: UserRow;
let artistCookie: string;
let otherCookie: string;

/** The whole API against the Stripe stub, with its logs kept so tests can see what was logged. */
async function createPaymentsApp(): Promise<TestApp> {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  return createTestApp(
    {
      STRIPE_SECRET_KEY: stub.secretKey,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_payments',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stub.url,
    },
    { logger: { level: 'info', stream } },
  );
}

beforeAll(async () => {
  logs = [];
  stub = await startStripeStub();
  t = await createPaymentsApp();
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  otherArtist = await createArtist(t.db);
  artistCookie = await sessionCookie(t.app, t.db, artist);
  otherCookie = await sessionCookie(t.app, t.db, otherArtist);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

/** A submission row made directly, as POST /api/submissions would leave it; premium unless told. */
const createSubmission = async (db: Db, owner: UserRow, overrides: Partial<typeof submissions.$inferInsert> = {}) =>
  (await createSubmissionRow(db, owner, { pricingTier: 'premium', ...overrides })).id;

const createIntent = (body: unknown, cookie = artistCookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: { cookie, origin: TEST_ORIGIN },
    payload: body as Record<string, unknown>,
  });

const deliver = (event: { payload: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });

async function submissionRow(id: string) {
  const [row] = await t.db.select().from(submissions).where(eq(submissions.id, id));
  return row!;
}
const historyOf = (id: string) =>
  t.db
    .select({ field: submissionHistory.field, from: submissionHistory.fromValue, to: submissionHistory.toValue, actorId: submissionHistory.actorId })
    .from(submissionHistory)
    .where(eq(submissionHistory.submissionId, id))
    .orderBy(submissionHistory.createdAt, submissionHistory.field);

/** Opens the checkout for a new paid submission and returns it with its Stripe intent. */
async function checkout(tier: PricingTier = 'premium') {
  const id = await createSubmission(t.db, artist, { pricingTier: tier });
  const res = await createIntent({ submissionId: id });
  expect(res.statusCode).toBe(200);
  const intentId = (await submissionRow(id)).stripePaymentIntentId!;
  return { id, intentId, intent: stub.intents.get(intentId)! };
}

/** What Stripe would send once the card payment went through. */
function succeed(intentId: string) {
  const intent = stub.setIntent(intentId, { status: 'succeeded', amount_received: stub.intents.get(intentId)!.amount });
  return signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent });
}
function fail(intentId: string) {
  const intent = stub.setIntent(intentId, {
    status: 'requires_payment_method',
    last_payment_error: { message: 'Your card was declined.', code: 'card_declined' },
  });
  return signedEvent(WEBHOOK_SECRET, 'payment_intent.payment_failed', { ...intent });
}

describe('GET /api/config', () => {
  it('gives the publishable key, never the secret one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({ stripePublishableKey: 'pk_test_payments', googleEnabled: false, signInProvider: null, mailEnabled: false, vatRatePercent: null, labelName: null });
    expect(res.body).not.toContain(stub.secretKey);
  });
});

describe('POST /api/create-payment-intent', () => {
  it.each([
    ['basic', 4900, '49.00'],
    ['premium', 9900, '99.00'],
    ['professional', 19900, '199.00'],
  ] as const)('charges the %s tier %i cents in usd, tagged with the submission', async (tier, cents, dollars) => {
    const id = await createSubmission(t.db, artist, { pricingTier: tier });
    const res = await createIntent({ submissionId: id });
    expect(res.statusCode).toBe(200);
    const row = await submissionRow(id);
    const intent = stub.intents.get(row.stripePaymentIntentId!)!;
    expect(intent).toMatchObject({ amount: cents, currency: 'usd', metadata: { submissionId: id }, payment_method_types: ['card'] });
    expect(res.json()).toEqual({ clientSecret: intent.client_secret, amount: dollars, currency: 'usd' });
  });

  it('ignores any amount, status or price the client sends', async () => {
    const id = await createSubmission(t.db, artist, { pricingTier: 'professional' });
    const res = await createIntent({ submissionId: id, amount: 1, currency: 'jpy', status: 'pending', paymentStatus: 'succeeded' });
    expect(res.statusCode).toBe(200);
    const row = await submissionRow(id);
    expect(stub.intents.get(row.stripePaymentIntentId!)).toMatchObject({ amount: 19900, currency: 'usd' });
    expect(row).toMatchObject({ status: 'payment_pending', paymentStatus: 'pending' });
  });

  it('reuses the open intent of the submission instead of creating another', async () => {
    const { id, intent } = await checkout();
    const creates = () => stub.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length;
    const before = creates();
    const again = await createIntent({ submissionId: id });
    expect(again.json().clientSecret).toBe(intent.client_secret);
    expect(creates()).toBe(before);
  });

  it('creates one intent for checkouts opened at the same time (idempotency key)', async () => {
    const id = await createSubmission(t.db, artist);
    const answers = await Promise.all([1, 2, 3].map(() => createIntent({ submissionId: id })));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((r) => r.json().clientSecret)).size).toBe(1);
    const created = stub.requests.filter((r) => r.path === '/v1/payment_intents' && r.params.metadata && (r.params.metadata as Record<string, string>).submissionId === id);
    expect(new Set(created.map((r) => r.idempotencyKey))).toEqual(new Set([`submission-${id}-replaces-none`]));
    expect([...stub.intents.values()].filter((i) => i.metadata.submissionId === id)).toHaveLength(1);
  });

  it('replaces an intent Stripe canceled', async () => {
    const { id, intentId } = await checkout();
    stub.setIntent(intentId, { status: 'canceled' });
    const res = await createIntent({ submissionId: id });
    expect(res.statusCode).toBe(200);
    const row = await submissionRow(id);
    expect(row.stripePaymentIntentId).not.toBe(intentId);
    expect(res.json().clientSecret).toBe(stub.intents.get(row.stripePaymentIntentId!)!.client_secret);
  });

  it('replaces an intent Stripe does not know (any more)', async () => {
    const id = await createSubmission(t.db, artist, { stripePaymentIntentId: `pi_gone_${newId()}` });
    const res = await createIntent({ submissionId: id });
    expect(res.statusCode).toBe(200);
    const row = await submissionRow(id);
    expect(res.json().clientSecret).toBe(stub.intents.get(row.stripePaymentIntentId!)!.client_secret);
  });

  it('refuses a paid intent that is waiting for its webhook (409), without marking anything paid', async () => {
    const { id, intentId } = await checkout();
    stub.setIntent(intentId, { status: 'succeeded' });
    const res = await createIntent({ submissionId: id });
    expect(res.statusCode).toBe(409);
    expect(await submissionRow(id)).toMatchObject({ status: 'payment_pending', paymentStatus: 'pending' });
  });

  it('refuses a free tier and a submission not awaiting payment (400)', async () => {
    const free = await createSubmission(t.db, artist, { pricingTier: 'free' });
    expect((await createIntent({ submissionId: free })).statusCode).toBe(400);
    const reviewed = await createSubmission(t.db, artist, { status: 'under_review', paymentStatus: 'succeeded' });
    const res = await createIntent({ submissionId: reviewed });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'This submission is not awaiting payment', code: 'not_awaiting_payment' });
    expect((await submissionRow(reviewed)).stripePaymentIntentId).toBeNull();
  });

  it("answers 404 for another artist's submission and an unknown id", async () => {
    const id = await createSubmission(t.db, artist);
    expect((await createIntent({ submissionId: id }, otherCookie)).statusCode).toBe(404);
    expect((await createIntent({ submissionId: newId() })).statusCode).toBe(404);
    expect((await submissionRow(id)).stripePaymentIntentId).toBeNull();
  });

  it('answers 400 without a submission id and 401 signed out', async () => {
    expect((await createIntent({})).statusCode).toBe(400);
    const id = await createSubmission(t.db, artist);
    const res = await t.app.inject({ method: 'POST', url: '/api/create-payment-intent', headers: { origin: TEST_ORIGIN }, payload: { submissionId: id } });
    expect(res.statusCode).toBe(401);
  });

  it('answers 503 when Stripe is not configured', async () => {
    const bare = await createTestApp();
    try {
      const owner = await createArtist(bare.db);
      const id = await createSubmission(bare.db, owner);
      const res = await bare.app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: { cookie: await sessionCookie(bare.app, bare.db, owner), origin: TEST_ORIGIN },
        payload: { submissionId: id },
      });
      expect(res.statusCode).toBe(503);
      expect((await bare.app.inject({ method: 'GET', url: '/api/config' })).json().stripePublishableKey).toBeNull();
      const hook = await bare.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, payload: '{}' });
      expect(hook.statusCode).toBe(503);
    } finally {
      await bare.close();
    }
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('refuses a missing or bad signature with 400 and changes nothing', async () => {
    const { id, intentId } = await checkout();
    const good = succeed(intentId);
    const withoutSignature = { payload: good.payload, headers: { 'content-type': 'application/json' } };
    const wrongSecret = signedEvent('whsec_someone_else', 'payment_intent.succeeded', stub.intents.get(intentId)!);
    const tampered = { payload: good.payload.replace('"amount":9900', '"amount":100'), headers: good.headers };
    expect(tampered.payload).not.toBe(good.payload);
    for (const event of [withoutSignature, wrongSecret, tampered]) {
      const res = await deliver(event);
      expect(res.statusCode).toBe(400);
    }
    expect(await submissionRow(id)).toMatchObject({ status: 'payment_pending', paymentStatus: 'pending' });
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.id, wrongSecret.id))).toEqual([]);
    expect(await historyOf(id)).toEqual([]);
  });

  it('marks a matching succeeded payment: pending, succeeded, with history rows of no actor', async () => {
    const { id, intentId } = await checkout('basic');
    const res = await deliver(succeed(intentId));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(await submissionRow(id)).toMatchObject({ status: 'pending', paymentStatus: 'succeeded', stripePaymentIntentId: intentId });
    expect(await historyOf(id)).toEqual([
      { field: 'payment_status', from: 'pending', to: 'succeeded', actorId: null },
      { field: 'status', from: 'payment_pending', to: 'pending', actorId: null },
    ]);
  });

  it('changes nothing more when the same event arrives twice', async () => {
    const { id, intentId } = await checkout();
    const event = succeed(intentId);
    expect((await deliver(event)).statusCode).toBe(200);
    const after = await submissionRow(id);
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await submissionRow(id)).toEqual(after);
    expect(await historyOf(id)).toHaveLength(2);
    expect(await t.db.select().from(paymentEvents).where(eq(paymentEvents.id, event.id))).toHaveLength(1);
  });

  it('records a failure, and a retry reopens the submission and reuses the intent until it succeeds', async () => {
    const { id, intentId, intent } = await checkout();
    expect((await deliver(fail(intentId))).statusCode).toBe(200);
    expect(await submissionRow(id)).toMatchObject({ status: 'payment_failed', paymentStatus: 'failed' });

    const retry = await createIntent({ submissionId: id });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().clientSecret).toBe(intent.client_secret);
    expect(await submissionRow(id)).toMatchObject({ status: 'payment_pending', paymentStatus: 'pending' });

    expect((await deliver(succeed(intentId))).statusCode).toBe(200);
    expect(await submissionRow(id)).toMatchObject({ status: 'pending', paymentStatus: 'succeeded' });
    expect((await historyOf(id)).map((h) => `${h.field}:${h.from}->${h.to}`)).toEqual([
      'payment_status:pending->failed',
      'status:payment_pending->payment_failed',
      'payment_status:failed->pending',
      'status:payment_failed->payment_pending',
      'payment_status:pending->succeeded',
      'status:payment_pending->pending',
    ]);
  });

  it('never moves a succeeded payment back when a failure arrives late', async () => {
    const { id, intentId } = await checkout();
    const lateFailure = signedEvent(WEBHOOK_SECRET, 'payment_intent.payment_failed', {
      ...stub.intents.get(intentId)!,
      status: 'requires_payment_method',
    });
    expect((await deliver(succeed(intentId))).statusCode).toBe(200);
    expect((await deliver(lateFailure)).statusCode).toBe(200);
    expect(await submissionRow(id)).toMatchObject({ status: 'pending', paymentStatus: 'succeeded' });
  });

  it('ignores a failure report older than the intent it is about (Stripe says it succeeded since)', async () => {
    const { id, intentId } = await checkout();
    const failure = fail(intentId);
    stub.setIntent(intentId, { status: 'succeeded', amount_received: 9900 });
    expect((await deliver(failure)).statusCode).toBe(200);
    expect(await submissionRow(id)).toMatchObject({ status: 'payment_pending', paymentStatus: 'pending' });
  });

  it('leaves the submission unchanged and logs when the amount or currency does not match', async () => {
    const { id, intentId } = await checkout('professional');
    const intent = stub.setIntent(intentId, { status: 'succeeded', amount: 100, amount_received: 100 });
    const wrongAmount = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent });
    const wrongCurrency = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent, amount: 19900, amount_received: 19900, currency: 'eur' });
    for (const event of [wrongAmount, wrongCurrency]) {
      expect((await deliver(event)).statusCode).toBe(200);
    }
    expect(await submissionRow(id)).toMatchObject({ status: 'payment_pending', paymentStatus: 'pending' });
    expect(await historyOf(id)).toEqual([]);
    const mismatches = logs.filter((l) => l.submissionId === id && /does not match/.test(l.msg));
    expect(mismatches.map((l) => [l.eventId, l.level])).toEqual([
      [wrongAmount.id, 50],
      [wrongCurrency.id, 50],
    ]);
  });

  it('acknowledges event types it does not act on', async () => {
    const res = await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', { id: 'ch_123' }));
    expect(res.statusCode).toBe(200);
  });
});

describe('receipts', () => {
  const receipt = (id: string, cookie = artistCookie) =>
    t.app.inject({ method: 'GET', url: `/api/payments/${id}/receipt`, headers: { cookie } });
  const download = (id: string, cookie = artistCookie) =>
    t.app.inject({ method: 'GET', url: `/api/payments/${id}/receipt/download`, headers: { cookie } });

  it('gives the owner the order id, tier, amount, paid-at and payment id once paid', async () => {
    const { id, intentId } = await checkout('premium');
    const waiting = await receipt(id);
    expect(waiting.json<PaymentReceipt>()).toMatchObject({ paymentStatus: 'pending', paidAt: null });
    expect((await download(id)).statusCode).toBe(409);

    await deliver(succeed(intentId));
    const res = await receipt(id);
    expect(res.statusCode).toBe(200);
    const body = res.json<PaymentReceipt>();
    expect(body).toMatchObject({
      submissionId: id,
      orderId: id.slice(-8).toUpperCase(),
      tier: 'premium',
      tierName: 'Premium',
      amount: '99.00',
      currency: 'usd',
      paymentStatus: 'succeeded',
      paymentId: intentId,
      songTitle: 'Night Drive',
    });
    expect(new Date(body.paidAt!).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const file = await download(id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="receipt-${body.orderId}.html"`);
    expect(file.body).toContain(body.orderId);
    expect(file.body).toContain('$99.00 USD');
    expect(file.body).toContain(intentId);
  });

  it('escapes what the artist typed', async () => {
    const id = await createSubmission(t.db, artist, { songTitle: '<script>alert(1)</script>' });
    await createIntent({ submissionId: id });
    await deliver(succeed((await submissionRow(id)).stripePaymentIntentId!));
    const file = await download(id);
    expect(file.body).not.toContain('<script>');
    expect(file.body).toContain('&lt;script&gt;');
  });

  it("is not found for another artist's submission, and 401 signed out", async () => {
    const { id } = await checkout();
    expect((await receipt(id, otherCookie)).statusCode).toBe(404);
    expect((await download(id, otherCookie)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/payments/${id}/receipt` })).statusCode).toBe(401);
  });
});

describe('no way to mark a submission paid but a signed event', () => {
  it('leaves payment state alone for every other request', async () => {
    const { id } = await checkout();
    await createIntent({ submissionId: id, paymentStatus: 'succeeded' });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ id: 'evt_forged', type: 'payment_intent.succeeded', data: { object: { id: 'pi_x', amount: 9900, currency: 'usd', metadata: { submissionId: id } } } }),
    });
    expect(unsigned.statusCode).toBe(400);
    const [row] = await t.db
      .select({ status: submissions.status, paymentStatus: submissions.paymentStatus })
      .from(submissions)
      .where(and(eq(submissions.id, id)));
    expect(row).toEqual({ status: 'payment_pending', paymentStatus: 'pending' });
  });
});
