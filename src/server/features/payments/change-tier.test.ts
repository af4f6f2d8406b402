import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissionHistory, submissions, type UserRow } from '../../platform/db/schema';
import {
  TEST_ORIGIN,
  createArtist,
  createSubmissionRow,
  createTestApp,
  sessionCookie,
  type TestApp,
} from '../../test/helpers';
import { errorText } from '@shared/errors';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

/** POST /api/submissions/{id}/tier (CONTRACT §12), against the local Stripe stub and without Stripe. */

let stub: StripeStub;
let t: TestApp;
let bare: TestApp;
let artist: UserRow;
let cookie: string;
let otherCookie: string;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_tier',
    STRIPE_WEBHOOK_SECRET: 'whsec_test_tier',
    STRIPE_API_URL: stub.url,
  });
  bare = await createTestApp();
  artist = await createArtist(t.db);
  cookie = await sessionCookie(t.app, t.db, artist);
  otherCookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await stub?.close();
});

const changeTier = (app: TestApp, id: string, body: unknown, as: string | null = cookie) =>
  app.app.inject({
    method: 'POST',
    url: `/api/submissions/${id}/tier`,
    headers: as ? { cookie: as, origin: TEST_ORIGIN } : { origin: TEST_ORIGIN },
    payload: body as Record<string, unknown>,
  });

async function openIntent(id: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: { cookie, origin: TEST_ORIGIN },
    payload: { submissionId: id },
  });
  expect(res.statusCode).toBe(200);
  const [row] = await t.db.select().from(submissions).where(eq(submissions.id, id));
  return row!.stripePaymentIntentId!;
}

const rowOf = async (app: TestApp, id: string) => (await app.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;

describe('POST /api/submissions/{id}/tier', () => {
  it('switches to Free: the open intent is cancelled at Stripe and the submission goes to the label', async () => {
    const { id } = await createSubmissionRow(t.db, artist, { pricingTier: 'premium' });
    const intentId = await openIntent(id);
    const res = await changeTier(t, id, { pricingTier: 'free' });
    expect(res.statusCode).toBe(204);
    expect(stub.intents.get(intentId)!.status).toBe('canceled');
    expect(stub.requests.some((r) => r.method === 'POST' && r.path === `/v1/payment_intents/${intentId}/cancel`)).toBe(true);
    expect(await rowOf(t, id)).toMatchObject({ pricingTier: 'free', status: 'pending', paymentStatus: null, amount: '0.00' });
    const history = await t.db.select().from(submissionHistory).where(eq(submissionHistory.submissionId, id));
    expect(history).toContainEqual(expect.objectContaining({ field: 'status', fromValue: 'payment_pending', toValue: 'pending', actorId: artist.id }));
  });

  it('switches between paid plans: the old intent is cancelled and the checkout makes a new one at the new price', async () => {
    const { id } = await createSubmissionRow(t.db, artist, { pricingTier: 'premium', status: 'payment_failed', paymentStatus: 'failed' });
    const first = await openIntent(id);
    expect((await changeTier(t, id, { pricingTier: 'basic' })).statusCode).toBe(204);
    expect(stub.intents.get(first)!.status).toBe('canceled');
    expect(await rowOf(t, id)).toMatchObject({ pricingTier: 'basic', amount: '49.00' });
    const second = await openIntent(id);
    expect(second).not.toBe(first);
    expect(stub.intents.get(second)!.amount).toBe(4900);
  });

  it('keeps the plan when the payment has already gone through (409)', async () => {
    const { id } = await createSubmissionRow(t.db, artist, { pricingTier: 'professional' });
    const intentId = await openIntent(id);
    stub.setIntent(intentId, { status: 'succeeded', amount_received: 19900 });
    const res = await changeTier(t, id, { pricingTier: 'free' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'already_paid', message: errorText('already_paid') });
    expect(await rowOf(t, id)).toMatchObject({ pricingTier: 'professional', status: 'payment_pending' });
  });

  it('refuses a paid plan for a finished video (400), which takes the Free plan only (decision 154)', async () => {
    const { id } = await createSubmissionRow(t.db, artist, { pricingTier: 'basic', submissionType: 'video', musicUrl: null, videoUrl: 'https://vimeo.com/1' });
    const res = await changeTier(t, id, { pricingTier: 'premium' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'plan_not_offered', message: errorText('plan_not_offered') });
    expect((await changeTier(t, id, { pricingTier: 'free' })).statusCode).toBe(204);
  });

  it.each(['pending', 'approved', 'draft'] as const)('refuses a change while the submission is %s (409)', async (status) => {
    const { id } = await createSubmissionRow(t.db, artist, { pricingTier: 'premium', status });
    const res = await changeTier(t, id, { pricingTier: 'free' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'tier_change_not_allowed', message: errorText('tier_change_not_allowed') });
  });

  it('answers 401 signed out, 404 for another artist, 400 for a NUL in the id or a bad plan', async () => {
    const { id } = await createSubmissionRow(t.db, artist, { pricingTier: 'premium' });
    expect((await changeTier(t, id, { pricingTier: 'free' }, null)).statusCode).toBe(401);
    expect((await changeTier(t, id, { pricingTier: 'free' }, otherCookie)).statusCode).toBe(404);
    // A NUL in the path is refused before any lookup (CONTRACT §9).
    expect((await changeTier(t, encodeURIComponent(`${id}\u0000`), { pricingTier: 'free' })).statusCode).toBe(400);
    for (const body of [{}, { pricingTier: 'platinum' }, { pricingTier: 7 }]) {
      const res = await changeTier(t, id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Choose a plan: free, basic, premium or professional');
    }
    expect(await rowOf(t, id)).toMatchObject({ pricingTier: 'premium', status: 'payment_pending' });
  });

  it('switches to Free when payments are not configured at all', async () => {
    const owner = await createArtist(bare.db);
    const { id } = await createSubmissionRow(bare.db, owner, { pricingTier: 'basic' });
    const res = await changeTier(bare, id, { pricingTier: 'free' }, await sessionCookie(bare.app, bare.db, owner));
    expect(res.statusCode).toBe(204);
    expect(await rowOf(bare, id)).toMatchObject({ pricingTier: 'free', status: 'pending' });
  });
});
