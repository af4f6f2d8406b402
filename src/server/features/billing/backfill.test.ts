import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueBillingDocument } from '../../domain/billing/issue-document';
import { migrationsFolder } from '../../platform/db/client';
import { billingDocuments, submissionHistory } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { createArtist, createSubmissionRow, createTestApp, type TestApp } from '../../test/helpers';

/**
 * Migration 0020's backfill (CONTRACT §19): payments made before invoices existed get invoices
 * numbered per year in payment order, refunded ones a credit note, and the counters continue
 * from there. The migration ran on an empty database, so its backfill statements are run again
 * here on payments made as they were before it.
 */
const MIGRATION = readFileSync(path.join(migrationsFolder, '0020_billing-documents.sql'), 'utf8');
const backfill = MIGRATION.split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter((statement) => statement.startsWith('-- Backfill') || statement.startsWith('-- And every refund') || statement.startsWith('INSERT INTO "billing_document_counters"'));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the invoice backfill of migration 0020', () => {
  it('numbers earlier payments per year in payment order, credit notes for refunds, and the counters go on from there', async () => {
    expect(backfill).toHaveLength(3);
    const artist = await createArtist(t.db, { firstName: 'Zoë', lastName: 'Ł', country: 'Poland' });
    const paidAt = [new Date('2025-12-30T10:00:00Z'), new Date('2026-01-05T10:00:00Z'), new Date('2025-06-01T10:00:00Z'), new Date('2026-01-02T10:00:00Z')];
    const ids: string[] = [];
    for (const [index, at] of paidAt.entries()) {
      const sub = await createSubmissionRow(t.db, artist, {
        pricingTier: 'premium',
        status: 'pending',
        paymentStatus: index === 1 ? 'refunded' : 'succeeded',
        stripePaymentIntentId: `pi_old_${index}`,
        ...(index === 1 ? { refundReason: 'admin' as const, refundRequestedAt: new Date('2026-02-01T00:00:00Z') } : {}),
      });
      await t.db.insert(submissionHistory).values({ id: newId(), submissionId: sub.id, field: 'payment_status', fromValue: 'pending', toValue: 'succeeded', createdAt: at });
      ids.push(sub.id);
    }
    for (const statement of backfill) await t.db.execute(sql.raw(statement));

    const docs = await t.db.select().from(billingDocuments).orderBy(billingDocuments.number);
    const numberOf = (id: string, kind: 'invoice' | 'credit_note') => docs.find((d) => d.submissionId === id && d.kind === kind)?.number;
    expect(numberOf(ids[2]!, 'invoice')).toBe('INV-2025-000001');
    expect(numberOf(ids[0]!, 'invoice')).toBe('INV-2025-000002');
    expect(numberOf(ids[3]!, 'invoice')).toBe('INV-2026-000001');
    expect(numberOf(ids[1]!, 'invoice')).toBe('INV-2026-000002');
    expect(numberOf(ids[1]!, 'credit_note')).toBe('CN-2026-000001');
    expect(docs.find((d) => d.kind === 'credit_note')).toMatchObject({ invoiceNumber: 'INV-2026-000002', amountCents: 9900 });
    expect(docs.find((d) => d.submissionId === ids[0])).toMatchObject({ amountCents: 9900, currency: 'usd', buyerName: 'Zoë Ł', buyerCountry: 'Poland', issuedAt: paidAt[0] });

    // The next payment takes the next number of the year it is issued in (dated when issued: now).
    const next = await createSubmissionRow(t.db, artist, { pricingTier: 'basic', status: 'pending', paymentStatus: 'succeeded' });
    const issued = await t.db.transaction((tx) =>
      issueBillingDocument(tx, { kind: 'invoice', submission: next, stripePaymentIntentId: 'pi_new', amountCents: 4900, currency: 'usd', seller: {} }),
    );
    const year = new Date().getUTCFullYear();
    expect(issued.number).toBe(year === 2026 ? 'INV-2026-000003' : `INV-${year}-000001`);
    expect((await t.db.select().from(billingDocuments).where(eq(billingDocuments.submissionId, next.id))).length).toBe(1);
  });
});
