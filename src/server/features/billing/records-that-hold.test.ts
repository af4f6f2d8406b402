import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDueAt, type PricingTier } from '@shared/submissions';
import { billingDocuments, outboxEmails, submissions, uploads, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';

// CONTRACT §21: withdrawing or deleting paid work refunds it first; documents outlive what they describe.
const WEBHOOK_SECRET = 'whsec_test_records_secret';

let stub: StripeStub;
let t: TestApp;
let artist: UserRow;
let other: UserRow;
let admin: UserRow;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_records',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
  });
  artist = await createArtist(t.db, { artistName: 'Ash' });
  other = await createArtist(t.db);
  admin = await createAdmin(t.db);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const rowOf = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0];
const documentsOfIntent = (intentId: string) => t.db.select().from(billingDocuments).where(eq(billingDocuments.stripePaymentIntentId, intentId));
const refundsOf = (intentId: string) => [...stub.refunds.values()].filter((r) => r.payment_intent === intentId);
const deliver = (event: { payload: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });

async function checkedOut(tier: PricingTier = 'premium', owner = artist, songTitle = `Song ${Math.random().toString(36).slice(2, 7)}`) {
  const sub = await createSubmissionRow(t.db, owner, { pricingTier: tier, songTitle });
  const res = await t.call('POST', '/api/create-payment-intent', owner, { submissionId: sub.id });
  expect(res.statusCode).toBe(200);
  const intentId = res.json().clientSecret.split('_secret_')[0] as string;
  const intent = stub.setIntent(intentId, { status: 'succeeded', amount_received: stub.intents.get(intentId)!.amount });
  return { id: sub.id, intentId, songTitle, succeeded: (createdAt?: Date) => signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent }, undefined, createdAt) };
}
async function paid(tier: PricingTier = 'premium', owner = artist, songTitle?: string) {
  const sub = await checkedOut(tier, owner, songTitle);
  expect((await deliver(sub.succeeded())).statusCode).toBe(200);
  return sub;
}

describe('withdrawing paid work', () => {
  it('refunds it in full with a credit note, then deletes it and its files (204); its documents stay the artist’s', async () => {
    const sub = await paid('premium', artist, 'Cinder Lights');
    await t.db.insert(uploads).values({ id: `up-${sub.id}`, userId: artist.id, submissionId: sub.id, fileName: 'cinder.mp3', contentType: 'audio/mpeg', status: 'stored', uploadExpiresAt: new Date() });
    const res = await t.call('DELETE', `/api/submissions/${sub.id}`, artist);
    expect(res.statusCode).toBe(204);
    expect(await rowOf(sub.id)).toBeUndefined();
    expect(await t.db.select().from(uploads).where(eq(uploads.submissionId, sub.id))).toEqual([]);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
    expect(refundsOf(sub.intentId)[0]!.amount).toBe(9900);

    const documents = await documentsOfIntent(sub.intentId);
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    for (const d of documents) expect(d).toMatchObject({ submissionId: null, userId: artist.id, songTitle: 'Cinder Lights', amountCents: 9900 });
    const note = documents.find((d) => d.kind === 'credit_note')!;
    const invoice = documents.find((d) => d.kind === 'invoice')!;
    expect(note.invoiceNumber).toBe(invoice.number);

    // The artist is told, with the credit note's link by number (the submission's own is gone).
    const emails = await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.userId, artist.id), eq(outboxEmails.kind, 'refund_issued')));
    const told = emails.filter((e) => (e.templateData as { submissionId: string }).submissionId === sub.id);
    expect(told.map((e) => e.templateData)).toEqual([expect.objectContaining({ reason: 'withdrawn', amount: '$99.00', creditNoteNumber: note.number })]);

    // GET /api/billing still lists both, and each PDF is served by number to the artist and the team.
    const billing = (await t.call('GET', '/api/billing', artist)).json();
    expect(billing.payments.map((p: { submissionId: string }) => p.submissionId)).not.toContain(sub.id);
    expect(billing.documents).toEqual(
      expect.arrayContaining([
        { id: invoice.id, kind: 'invoice', number: invoice.number, issuedAt: invoice.issuedAt.toISOString(), amount: '99.00', currency: 'usd', songTitle: 'Cinder Lights', submissionId: null, url: `/api/billing/documents/${invoice.number}.pdf` },
        expect.objectContaining({ kind: 'credit_note', number: note.number, amount: '99.00', submissionId: null }),
      ]),
    );
    for (const d of [invoice, note]) {
      for (const caller of [artist, admin]) {
        const pdf = await t.call('GET', `/api/billing/documents/${d.number}.pdf`, caller);
        expect(pdf.statusCode).toBe(200);
        expect(pdf.headers['content-type']).toBe('application/pdf');
        expect(pdf.headers['content-disposition']).toContain(`${d.number}.pdf`);
      }
      // Anyone else: not found, as for a number never issued.
      expect((await t.call('GET', `/api/billing/documents/${d.number}.pdf`, other)).statusCode).toBe(404);
      expect((await t.call('GET', `/api/billing/documents/${d.number}.pdf`, null)).statusCode).toBe(401);
    }
    expect((await t.call('GET', '/api/billing/documents/INV-1999-000001.pdf', admin)).statusCode).toBe(404);
    expect((await t.call('GET', '/api/billing/documents/not-a-number.pdf', admin)).json().code).toBe('document_not_found');
    expect((await t.call('GET', '/api/billing', other)).json().documents).toEqual([]);
  });

  it('deletes nothing when Stripe refuses the refund: 502 refund_failed', async () => {
    const sub = await paid('basic');
    stub.failNext(10);
    const res = await t.call('DELETE', `/api/submissions/${sub.id}`, artist);
    stub.failNext(0);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'refund_failed', message: expect.stringContaining('nothing was deleted') });
    expect(await rowOf(sub.id)).toMatchObject({ paymentStatus: 'succeeded', refundRequestedAt: null });
    expect((await documentsOfIntent(sub.intentId)).map((d) => d.kind)).toEqual(['invoice']);
    // Tried again once Stripe answers: refunded once, then deleted.
    expect((await t.call('DELETE', `/api/submissions/${sub.id}`, artist)).statusCode).toBe(204);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
  });

  it('leaves free and refunded work to the plain delete, and licensed work to §12’s 409; another artist’s is 404', async () => {
    const free = await createSubmissionRow(t.db, artist, { status: 'pending' });
    expect((await t.call('DELETE', `/api/submissions/${free.id}`, artist)).statusCode).toBe(204);
    const licensed = await paid('basic');
    await t.db.update(submissions).set({ status: 'approved' }).where(eq(submissions.id, licensed.id));
    expect((await t.call('DELETE', `/api/submissions/${licensed.id}`, artist)).json().code).toBe('submission_licensed');
    const others = await paid('basic', other);
    expect((await t.call('DELETE', `/api/submissions/${others.id}`, artist)).statusCode).toBe(404);
    expect(refundsOf(licensed.intentId)).toEqual([]);
    expect(refundsOf(others.intentId)).toEqual([]);
  });
});

describe('the team’s delete of paid work', () => {
  it('refunds first, for the reason "admin", then deletes; a refusal deletes nothing', async () => {
    const sub = await paid('premium');
    stub.failNext(10);
    const refused = await t.call('DELETE', `/api/admin/submissions/${sub.id}`, admin);
    stub.failNext(0);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().code).toBe('refund_failed');
    expect(await rowOf(sub.id)).toBeDefined();

    expect((await t.call('DELETE', `/api/admin/submissions/${sub.id}`, admin)).statusCode).toBe(204);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
    const emails = await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.userId, artist.id), eq(outboxEmails.kind, 'refund_issued')));
    expect(emails.filter((e) => (e.templateData as { submissionId: string }).submissionId === sub.id).map((e) => e.templateData)).toEqual([
      expect.objectContaining({ reason: 'admin' }),
    ]);
    expect((await documentsOfIntent(sub.intentId)).map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
  });

  it('a bulk delete refunds each paid one before deleting any', async () => {
    const a = await paid('basic');
    const b = await paid('premium');
    const res = await t.call('POST', '/api/admin/submissions/bulk', admin, { action: 'delete', ids: [a.id, b.id] });
    expect(res.statusCode).toBe(200);
    expect(refundsOf(a.intentId)).toHaveLength(1);
    expect(refundsOf(b.intentId)).toHaveLength(1);
    expect(await rowOf(a.id)).toBeUndefined();
  });

  it('delivered work is deleted without a refund: the label did the work', async () => {
    const sub = await paid('basic');
    await t.db.update(submissions).set({ deliveredAt: new Date() }).where(eq(submissions.id, sub.id));
    expect((await t.call('DELETE', `/api/admin/submissions/${sub.id}`, admin)).statusCode).toBe(204);
    expect(refundsOf(sub.intentId)).toEqual([]);
    expect((await documentsOfIntent(sub.intentId)).map((d) => d.kind)).toEqual(['invoice']);
  });
});

describe('documents are dated when issued', () => {
  it('a webhook delivered three days late takes the next number and a date after the previous one', async () => {
    const first = await checkedOut('basic');
    const late = await checkedOut('basic');
    expect((await deliver(first.succeeded())).statusCode).toBe(200);
    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000);
    expect((await deliver(late.succeeded(threeDaysAgo))).statusCode).toBe(200);
    const [a] = await documentsOfIntent(first.intentId);
    const [b] = await documentsOfIntent(late.intentId);
    expect(b!.sequence).toBeGreaterThan(a!.sequence);
    expect(b!.issuedAt.getTime()).toBeGreaterThan(a!.issuedAt.getTime());
    // The delivery deadline still runs from when Stripe recorded the payment.
    const row = await rowOf(late.id);
    expect(row!.dueAt!.getTime()).toBe(deliveryDueAt('basic', new Date(Math.floor(threeDaysAgo.getTime() / 1000) * 1000))!.getTime());
  });

  it('50 payments at once, their webhooks delivered out of order: numbers and dates rise together', async () => {
    const subs = [];
    for (let i = 0; i < 50; i++) subs.push(await checkedOut('basic'));
    // Out of order: later-made events first, each made a different number of hours ago.
    const events = subs.map((s, i) => s.succeeded(new Date(Date.now() - ((i * 7) % 50) * 3600_000))).reverse();
    const results = await Promise.all(events.map(deliver));
    expect(results.map((r) => r.statusCode)).toEqual(events.map(() => 200));
    const invoices = (await Promise.all(subs.map((s) => documentsOfIntent(s.intentId)))).flat();
    expect(invoices).toHaveLength(50);
    invoices.sort((x, y) => x.sequence - y.sequence);
    expect(invoices.map((d) => d.sequence)).toEqual(invoices.map((_, i) => invoices[0]!.sequence + i));
    for (let i = 1; i < invoices.length; i++) expect(invoices[i]!.issuedAt.getTime()).toBeGreaterThanOrEqual(invoices[i - 1]!.issuedAt.getTime());
  }, 60_000);
});
