import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PricingTier } from '@shared/submissions';
import { billingDocuments, outboxEmails, paymentRecords, submissions, users, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, TEST_PASSWORD, type TestApp } from '../../test/helpers';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

// CONTRACT §21: the one removal of paid work (decision 188). A withdrawal and an approval at the
// same moment end one way or the other; an open payment is cancelled; an account deletion refunds
// what a withdrawal would.
const WEBHOOK_SECRET = 'whsec_test_removal_secret';

let stub: StripeStub;
let t: TestApp;
let admin: UserRow;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_removal',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
  });
  admin = await createAdmin(t.db);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const rowOf = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0];
const refundsOf = (intentId: string) => [...stub.refunds.values()].filter((r) => r.payment_intent === intentId);
const documentsOfIntent = (intentId: string) => t.db.select().from(billingDocuments).where(eq(billingDocuments.stripePaymentIntentId, intentId));

/** A submission whose checkout created a payment intent that is still open at Stripe. */
async function checkedOut(owner: UserRow, tier: PricingTier = 'premium', songTitle = `Song ${Math.random().toString(36).slice(2, 7)}`) {
  const sub = await createSubmissionRow(t.db, owner, { pricingTier: tier, songTitle });
  const res = await t.call('POST', '/api/create-payment-intent', owner, { submissionId: sub.id });
  expect(res.statusCode).toBe(200);
  return { id: sub.id, intentId: res.json().clientSecret.split('_secret_')[0] as string, songTitle };
}

/** A submission paid for: the intent succeeded at Stripe and its event was delivered. */
async function paid(owner: UserRow, tier: PricingTier = 'premium', songTitle?: string) {
  const sub = await checkedOut(owner, tier, songTitle);
  const intent = stub.setIntent(sub.intentId, { status: 'succeeded', amount_received: stub.intents.get(sub.intentId)!.amount });
  const event = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent });
  const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });
  expect(res.statusCode).toBe(200);
  return sub;
}

describe('a withdrawal and an approval at the same moment', () => {
  it('end one way or the other, never both: refunded and deleted, or approved with nothing refunded (409)', async () => {
    const artist = await createArtist(t.db);
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const sub = await paid(artist, 'basic');
      const [withdrawal, approval] = await Promise.all([
        t.call('DELETE', `/api/submissions/${sub.id}`, artist),
        t.call('PATCH', `/api/admin/submissions/${sub.id}/status`, admin, { status: 'approved' }),
      ]);
      const row = await rowOf(sub.id);
      const refunds = refundsOf(sub.intentId);
      if (row === undefined) {
        // The withdrawal went first: refunded once, with its credit note; the approval found nothing.
        expect(withdrawal.statusCode).toBe(204);
        expect(approval.statusCode).toBe(404);
        expect(refunds).toHaveLength(1);
        expect((await documentsOfIntent(sub.intentId)).map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
        outcomes.push('withdrawn');
      } else {
        // The approval went first: licensed to the label, the payment kept, the withdrawal refused.
        expect(approval.statusCode).toBe(200);
        expect(withdrawal.statusCode).toBe(409);
        expect(withdrawal.json().code).toBe('submission_licensed');
        expect(row).toMatchObject({ status: 'approved', paymentStatus: 'succeeded', refundRequestedAt: null });
        expect(refunds).toEqual([]);
        expect((await documentsOfIntent(sub.intentId)).map((d) => d.kind)).toEqual(['invoice']);
        outcomes.push('approved');
      }
    }
    expect(outcomes).toHaveLength(8);
  });

  it('the team’s delete and an approval at the same moment end refunded and deleted, whichever goes first', async () => {
    const artist = await createArtist(t.db);
    for (let i = 0; i < 4; i++) {
      const sub = await paid(artist, 'basic');
      const [removal] = await Promise.all([
        t.call('DELETE', `/api/admin/submissions/${sub.id}`, admin),
        t.call('PATCH', `/api/admin/submissions/${sub.id}/status`, admin, { status: 'approved' }),
      ]);
      expect(removal.statusCode).toBe(204);
      expect(await rowOf(sub.id)).toBeUndefined();
      expect(refundsOf(sub.intentId)).toHaveLength(1);
    }
  });
});

describe('a payment still open', () => {
  it('is cancelled at Stripe by a withdrawal, the team’s delete and a bulk delete, before the submission goes', async () => {
    const artist = await createArtist(t.db);
    const withdrawn = await checkedOut(artist);
    expect((await t.call('DELETE', `/api/submissions/${withdrawn.id}`, artist)).statusCode).toBe(204);
    const deleted = await checkedOut(artist);
    expect((await t.call('DELETE', `/api/admin/submissions/${deleted.id}`, admin)).statusCode).toBe(204);
    const bulk = await checkedOut(artist);
    expect((await t.call('POST', '/api/admin/submissions/bulk', admin, { action: 'delete', ids: [bulk.id] })).statusCode).toBe(200);
    for (const sub of [withdrawn, deleted, bulk]) {
      expect(await rowOf(sub.id)).toBeUndefined();
      expect(stub.intents.get(sub.intentId)!.status).toBe('canceled');
    }
  });

  it('that went through before its event arrived keeps the submission (409): the next try refunds it', async () => {
    const artist = await createArtist(t.db);
    const sub = await checkedOut(artist);
    const intent = stub.setIntent(sub.intentId, { status: 'succeeded', amount_received: stub.intents.get(sub.intentId)!.amount });
    const res = await t.call('DELETE', `/api/submissions/${sub.id}`, artist);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('payment_in_progress');
    expect(await rowOf(sub.id)).toMatchObject({ paymentStatus: 'pending' });
    const event = signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent });
    expect((await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/api/submissions/${sub.id}`, artist)).statusCode).toBe(204);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
  });
});

describe('deleting an account with paid work', () => {
  it('names the amount first, then refunds each paid, undelivered submission with its credit note; approved work stays, and the label keeps the documents', async () => {
    const artist = await createArtist(t.db, { artistName: 'Leaving Soon' });
    const cookie = await t.signIn(artist);
    const owed = await paid(artist, 'basic', 'Paper Boats');
    const open = await checkedOut(artist, 'premium', 'Half Paid');
    const licensed = await paid(artist, 'premium', 'Kept Song');
    await t.db.update(submissions).set({ status: 'approved' }).where(eq(submissions.id, licensed.id));
    const free = await createSubmissionRow(t.db, artist, { status: 'pending' });

    const preview = await t.call('GET', '/api/account/deletion', cookie);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({ refunds: [{ submissionId: owed.id, songTitle: 'Paper Boats', amount: '$49.00' }], refundTotal: '$49.00' });

    const res = await t.call('DELETE', '/api/account', cookie, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(204);

    // Refunded in full through Stripe, as its withdrawal would be; the open payment cancelled.
    expect(refundsOf(owed.intentId).map((r) => r.amount)).toEqual([4900]);
    expect(stub.intents.get(open.intentId)!.status).toBe('canceled');
    expect(refundsOf(licensed.intentId)).toEqual([]);
    for (const id of [owed.id, open.id, free.id]) expect(await rowOf(id)).toBeUndefined();
    expect(await rowOf(licensed.id)).toMatchObject({ status: 'approved', paymentStatus: 'succeeded', refundRequestedAt: null });

    // The invoice and the credit note stay, with the anonymous account; the team still opens them.
    const documents = await documentsOfIntent(owed.intentId);
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    for (const d of documents) expect(d).toMatchObject({ userId: artist.id, submissionId: null, amountCents: 4900, songTitle: 'Paper Boats' });
    const note = documents.find((d) => d.kind === 'credit_note')!;
    const pdf = await t.call('GET', `/api/billing/documents/${note.number}.pdf`, admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const [record] = await t.db.select().from(paymentRecords).where(eq(paymentRecords.submissionId, owed.id));
    expect(record).toMatchObject({ stripePaymentIntentId: owed.intentId, paymentStatus: 'refunded' });

    // The refund's email is still sent to the address it was queued for; the rest of the kept mail went.
    const mail = await t.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id));
    expect(mail.map((e) => [e.kind, e.toAddress, (e.templateData as { submissionId?: string }).submissionId])).toEqual([['refund_issued', artist.email, owed.id]]);
    const [gone] = await t.db.select().from(users).where(eq(users.id, artist.id));
    expect(gone).toMatchObject({ email: null, password: null });
  });

  it('keeps the account and the work when Stripe refuses a refund: 502 refund_failed', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    const owed = await paid(artist, 'basic');
    stub.failNext(10);
    const res = await t.call('DELETE', '/api/account', cookie, { password: TEST_PASSWORD });
    stub.failNext(0);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'refund_failed', message: expect.stringContaining('nothing was deleted') });
    expect(await rowOf(owed.id)).toMatchObject({ paymentStatus: 'succeeded', refundRequestedAt: null });
    const [kept] = await t.db.select().from(users).where(eq(users.id, artist.id));
    expect(kept).toMatchObject({ email: artist.email, deletedAt: null });
    expect((await t.call('GET', '/api/user', cookie)).statusCode).toBe(200);
    expect(await t.db.select().from(billingDocuments).where(and(eq(billingDocuments.stripePaymentIntentId, owed.intentId), eq(billingDocuments.kind, 'credit_note')))).toEqual([]);
  });
});
