import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DOCUMENT_MESSAGE, REFUND_REASON_TEXT } from '@shared/billing';
import type { PricingTier } from '@shared/submissions';
import { billingDocuments, outboxEmails, submissions, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';
import { signedEvent } from '../../test/stripe-events';
import { startStripeStub, type StripeStub } from '../../test/stripe-stub';
import { LATE_REFUND_JOB, REJECTION_REFUND_JOB } from '../../domain/billing/refunds';
import { includedVatCents } from '@shared/billing';

const WEBHOOK_SECRET = 'whsec_test_billing_secret';

let stub: StripeStub;
let t: TestApp;
let artist: UserRow;
let other: UserRow;
let admin: UserRow;

beforeAll(async () => {
  stub = await startStripeStub();
  t = await createTestApp({
    STRIPE_SECRET_KEY: stub.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_billing',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stub.url,
    LATE_DELIVERY_REFUND: 'auto',
    LABEL_LEGAL_NAME: 'Nachtfalter Records GmbH',
    LABEL_ADDRESS: 'Torstraße 1\\n10119 Berlin\\nGermany',
    LABEL_TAX_ID: 'DE123456789',
    VAT_RATE: '19',
  });
  // A name outside Latin-1: the invoice must still carry it.
  artist = await createArtist(t.db, { firstName: 'Zoë', lastName: 'Łukasiewicz-Дмитриев', artistName: 'Zoë Ł', country: 'Poland' });
  other = await createArtist(t.db);
  admin = await createAdmin(t.db);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const rowOf = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;
const documentsOf = (id: string) => t.db.select().from(billingDocuments).where(eq(billingDocuments.submissionId, id));
const refundsOf = (intentId: string) => [...stub.refunds.values()].filter((r) => r.payment_intent === intentId);
const deliver = (event: { payload: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: event.headers, payload: event.payload });

/** A paid-tier submission with its checkout opened, and the signed event of its card payment going through. */
async function checkedOut(tier: PricingTier = 'premium', owner = artist, songTitle = `Song ${Math.random().toString(36).slice(2, 7)}`) {
  const sub = await createSubmissionRow(t.db, owner, { pricingTier: tier, songTitle });
  const res = await t.call('POST', '/api/create-payment-intent', owner, { submissionId: sub.id });
  expect(res.statusCode).toBe(200);
  const intentId = res.json().clientSecret.split('_secret_')[0] as string;
  const intent = stub.setIntent(intentId, { status: 'succeeded', amount_received: stub.intents.get(intentId)!.amount });
  return { id: sub.id, intentId, event: signedEvent(WEBHOOK_SECRET, 'payment_intent.succeeded', { ...intent }) };
}
async function paid(tier: PricingTier = 'premium', owner = artist, songTitle?: string) {
  const sub = await checkedOut(tier, owner, songTitle);
  expect((await deliver(sub.event)).statusCode).toBe(200);
  return sub;
}

async function pdfText(body: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

describe('invoices', () => {
  it('numbers 20 payments that succeed at the same moment with 20 consecutive, distinct numbers', async () => {
    const subs = [];
    for (let i = 0; i < 20; i++) subs.push(await checkedOut('basic'));
    const results = await Promise.all(subs.map((s) => deliver(s.event)));
    expect(results.map((r) => r.statusCode)).toEqual(subs.map(() => 200));
    const invoices = (await Promise.all(subs.map((s) => documentsOf(s.id)))).flat();
    expect(invoices).toHaveLength(20);
    const year = new Date().getUTCFullYear();
    const sequences = invoices.map((d) => d.sequence).sort((a, b) => a - b);
    expect(new Set(invoices.map((d) => d.number)).size).toBe(20);
    expect(sequences).toEqual(sequences.map((_, i) => sequences[0]! + i));
    for (const d of invoices) expect(d.number).toBe(`INV-${year}-${String(d.sequence).padStart(6, '0')}`);
    // Redelivered events issue nothing more.
    await Promise.all(subs.slice(0, 5).map((s) => deliver(s.event)));
    expect((await Promise.all(subs.map((s) => documentsOf(s.id)))).flat()).toHaveLength(20);
  });

  it('is a PDF with the number, date, seller, buyer, plan, the amount charged and the VAT it includes', async () => {
    const sub = await paid('premium', artist, 'Ночной город');
    const res = await t.call('GET', `/api/submissions/${sub.id}/invoice.pdf`, artist);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const [invoice] = await documentsOf(sub.id);
    expect(res.headers['content-disposition']).toContain(`${invoice!.number}.pdf`);
    expect(invoice).toMatchObject({ kind: 'invoice', amountCents: stub.intents.get(sub.intentId)!.amount_received, currency: 'usd' });
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Invoice',
      invoice!.number,
      'Nachtfalter Records GmbH',
      'Torstraße 1',
      '10119 Berlin',
      'DE123456789',
      'Zoë Łukasiewicz-Дмитриев',
      artist.email!,
      'Poland',
      'Premium plan',
      'Ночной город',
      '$99.00',
      'VAT 19% (included)',
      `$${(includedVatCents(9900, 19) / 100).toFixed(2)}`,
      'USD',
      sub.intentId,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('tells the checkout and the landing page the VAT rate and the label’s name (GET /api/config, issue 36)', async () => {
    const config = (await t.app.inject({ url: '/api/config' })).json();
    expect(config).toMatchObject({ vatRatePercent: 19, labelName: 'Nachtfalter Records GmbH' });
    // The checkout's "VAT included" is the invoice's VAT line: $99.00 at 19% includes $15.81.
    expect(includedVatCents(9900, config.vatRatePercent)).toBe(1581);
  });

  it('keeps the seller and VAT rate it was issued with: a later change of address or rate does not rewrite it', async () => {
    const sub = await paid('basic');
    const [invoice] = await documentsOf(sub.id);
    expect(invoice!.seller).toEqual({ legalName: 'Nachtfalter Records GmbH', address: 'Torstraße 1\n10119 Berlin\nGermany', taxId: 'DE123456789', vatRatePercent: 19 });
    // As if the label had moved and the rate changed since: the document keeps what it was issued with.
    const issuedWith = { legalName: 'Nachtfalter Records UG', address: 'Alte Gasse 5\n04109 Leipzig', taxId: 'DE987654321', vatRatePercent: 7 };
    await t.db.update(billingDocuments).set({ seller: issuedWith }).where(eq(billingDocuments.id, invoice!.id));
    const kept = await pdfText((await t.call('GET', `/api/submissions/${sub.id}/invoice.pdf`, artist)).rawPayload);
    for (const expected of ['Nachtfalter Records UG', 'Alte Gasse 5', 'DE987654321', 'VAT 7% (included)']) expect(kept).toContain(expected);
    for (const configured of ['Torstraße 1', 'DE123456789', 'VAT 19%']) expect(kept).not.toContain(configured);
    // A document issued before sellers were kept (migration 0024) is drawn with the configured one.
    await t.db.update(billingDocuments).set({ seller: null }).where(eq(billingDocuments.id, invoice!.id));
    const older = await pdfText((await t.call('GET', `/api/submissions/${sub.id}/invoice.pdf`, artist)).rawPayload);
    for (const expected of ['Nachtfalter Records GmbH', 'Torstraße 1', 'VAT 19% (included)']) expect(older).toContain(expected);
  });

  it('is for the owner and the team only; another artist and a missing document are 404', async () => {
    const sub = await paid('basic');
    const draft = await createSubmissionRow(t.db, artist, { status: 'draft' });
    const unpaid = await checkedOut('basic');
    const cases: [string, UserRow | null, number][] = [
      [`/api/submissions/${sub.id}/invoice.pdf`, artist, 200],
      [`/api/submissions/${sub.id}/invoice.pdf`, admin, 200],
      [`/api/submissions/${sub.id}/invoice.pdf`, other, 404],
      [`/api/submissions/${sub.id}/invoice.pdf`, null, 401],
      [`/api/submissions/${sub.id}/credit-note.pdf`, artist, 404],
      [`/api/submissions/${sub.id}/credit-note.pdf`, other, 404],
      [`/api/submissions/${unpaid.id}/invoice.pdf`, artist, 404],
      [`/api/submissions/${draft.id}/invoice.pdf`, artist, 404],
      [`/api/submissions/not-an-id/invoice.pdf`, artist, 404],
      // An id far too long is refused before any route runs (CONTRACT §9).
      [`/api/submissions/${'x'.repeat(5000)}/invoice.pdf`, admin, 400],
    ];
    for (const [url, who, status] of cases) {
      const res = await t.call('GET', url, who);
      expect({ url: url.slice(0, 80), who: who?.role ?? null, status: res.statusCode }).toEqual({ url: url.slice(0, 80), who: who?.role ?? null, status });
    }
    expect((await t.call('GET', `/api/submissions/${sub.id}/credit-note.pdf`, artist)).json()).toMatchObject({
      code: 'document_not_found',
      message: NO_DOCUMENT_MESSAGE.credit_note,
    });
    expect((await t.call('GET', `/api/submissions/${unpaid.id}/invoice.pdf`, artist)).json().message).toBe(NO_DOCUMENT_MESSAGE.invoice);
    // Another artist learns nothing: the same answer as for a submission that does not exist.
    expect((await t.call('GET', `/api/submissions/${sub.id}/invoice.pdf`, other)).json().code).toBe('submission_not_found');
  });

  it('GET /api/billing lists the caller’s payments with their documents, nobody else’s', async () => {
    const sub = await paid('professional', artist, 'Billing list');
    const res = await t.call('GET', '/api/billing', artist);
    expect(res.statusCode).toBe(200);
    const payment = res.json().payments.find((p: { submissionId: string }) => p.submissionId === sub.id);
    expect(payment).toMatchObject({ tier: 'professional', tierName: 'Professional', amount: '199.00', currency: 'usd', paymentStatus: 'succeeded' });
    const [invoice] = await documentsOf(sub.id);
    expect(payment.documents).toEqual([expect.objectContaining({ kind: 'invoice', url: `/api/billing/documents/${invoice!.number}.pdf` })]);
    expect((await t.call('GET', '/api/billing', other)).json().payments).toEqual([]);
    expect((await t.call('GET', '/api/billing', null)).statusCode).toBe(401);
  });
});

describe('refund on rejection', () => {
  const reject = (id: string) => t.call('PATCH', `/api/admin/submissions/${id}/status`, admin, { status: 'rejected' });

  it('refunds a paid, undelivered submission in full once, with one credit note, also when rejected twice at once', async () => {
    const sub = await paid('premium');
    const results = await Promise.all([reject(sub.id), reject(sub.id)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await reject(sub.id).then((r) => r.statusCode)).toBe(200);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
    expect(refundsOf(sub.intentId)[0]!.amount).toBe(9900);
    expect(await rowOf(sub.id)).toMatchObject({ status: 'rejected', paymentStatus: 'refunded', refundReason: 'rejected' });
    const documents = await documentsOf(sub.id);
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice']);
    const invoice = documents.find((d) => d.kind === 'invoice')!;
    const note = documents.find((d) => d.kind === 'credit_note')!;
    expect(note).toMatchObject({ amountCents: 9900, invoiceNumber: invoice.number });
    expect(note.number).toMatch(new RegExp(`^CN-${new Date().getUTCFullYear()}-\\d{6}$`));

    // Stripe's charge.refunded arrives afterwards: nothing more is issued.
    expect((await deliver(signedEvent(WEBHOOK_SECRET, 'charge.refunded', stub.chargeOf(sub.intentId)))).statusCode).toBe(200);
    expect(await documentsOf(sub.id)).toHaveLength(2);

    const emails = await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.userId, artist.id), eq(outboxEmails.kind, 'refund_issued')));
    const told = emails.filter((e) => (e.templateData as { submissionId: string }).submissionId === sub.id);
    expect(told).toHaveLength(1);
    expect(told[0]!.templateData).toMatchObject({ reason: 'rejected', creditNoteNumber: note.number });

    const production = (await t.call('GET', `/api/submissions/${sub.id}/production`, artist)).json();
    expect(production.refund).toMatchObject({ reason: 'rejected' });
    expect(REFUND_REASON_TEXT.rejected).toMatch(/turned down/);

    const pdf = await t.call('GET', `/api/submissions/${sub.id}/credit-note.pdf`, artist);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    for (const expected of ['Credit note', note.number, invoice.number, '-$99.00', 'Nachtfalter Records GmbH']) expect(text).toContain(expected);
  });

  it('leaves delivered, unpaid and free submissions alone', async () => {
    const delivered = await paid('basic');
    await t.db.update(submissions).set({ deliveredAt: new Date() }).where(eq(submissions.id, delivered.id));
    const free = await createSubmissionRow(t.db, artist);
    for (const id of [delivered.id, free.id]) expect((await reject(id)).statusCode).toBe(200);
    expect(refundsOf(delivered.intentId)).toHaveLength(0);
    expect((await rowOf(delivered.id)).paymentStatus).toBe('succeeded');
    expect(await documentsOf(free.id)).toHaveLength(0);
  });

  it('a rejection Stripe could not refund at once is refunded later for that reason, never as a late delivery', async () => {
    const sub = await paid('basic');
    await t.db.update(submissions).set({ dueAt: new Date(Date.now() - 60_000) }).where(eq(submissions.id, sub.id));
    stub.failNext(3);
    expect((await reject(sub.id)).statusCode).toBe(200);
    stub.failNext(0);
    expect(await rowOf(sub.id)).toMatchObject({ status: 'rejected', paymentStatus: 'succeeded', refundReason: null });
    await t.app.jobs.run(LATE_REFUND_JOB);
    expect(refundsOf(sub.intentId)).toHaveLength(0);
    await t.app.jobs.run(REJECTION_REFUND_JOB);
    expect(await rowOf(sub.id)).toMatchObject({ paymentStatus: 'refunded', refundReason: 'rejected' });
    await t.app.jobs.run(REJECTION_REFUND_JOB);
    await t.app.jobs.run(LATE_REFUND_JOB);
    expect(refundsOf(sub.intentId)).toHaveLength(1);
    expect((await documentsOf(sub.id)).filter((d) => d.kind === 'credit_note')).toHaveLength(1);
  });

  it('a bulk rejection refunds each paid one', async () => {
    const a = await paid('basic');
    const b = await paid('premium');
    const res = await t.call('POST', '/api/admin/submissions/bulk', admin, { action: 'status', ids: [a.id, b.id], status: 'rejected' });
    expect(res.statusCode).toBe(200);
    expect(refundsOf(a.intentId)).toHaveLength(1);
    expect(refundsOf(b.intentId)).toHaveLength(1);
    expect((await rowOf(b.id)).refundReason).toBe('rejected');
  });
});
