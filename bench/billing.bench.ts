/**
 * Invoices (CONTRACT §19, issue 26): the time to render one invoice PDF (p50/p99 of 300 renders
 * after 20 warm-ups, a buyer name in Cyrillic and Polish so that the embedded font is used), and
 * the numbering under concurrency on both databases: 200 invoices issued by 200 transactions
 * started at once (each bumping the counter row), checked to be 200 consecutive, distinct
 * numbers. Figures only: no test asserts a time.
 */
import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { issueBillingDocument } from '../src/server/domain/billing/issue-document';
import { renderBillingDocument } from '../src/server/domain/billing/render-document';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { billingDocuments, submissions, users, type BillingDocumentRow } from '../src/server/platform/db/schema';
import { newId } from '../src/server/platform/ids';
import { createScratchDatabase, redact } from './support/scratch-database';

const RENDERS = 300;
const eqId = (id: string) => eq(submissions.id, id);
const CONCURRENT = 200;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function benchRender(): Promise<void> {
  const seller = { legalName: 'Nachtfalter Records GmbH', address: 'Torstraße 1\n10119 Berlin\nGermany', taxId: 'DE123456789', vatRatePercent: 19 };
  const document: BillingDocumentRow = {
    id: newId(),
    kind: 'invoice',
    year: 2026,
    sequence: 1234,
    number: 'INV-2026-001234',
    submissionId: newId(),
    userId: newId(),
    stripePaymentIntentId: 'pi_3QbenchBenchBench',
    issuedAt: new Date(),
    pricingTier: 'premium',
    songTitle: 'Ночной город (Zoë’s Łódź remix)',
    amountCents: 9900,
    currency: 'usd',
    buyerName: 'Zoë Łukasiewicz-Дмитриев',
    buyerEmail: 'zoe@example.com',
    buyerCountry: 'Poland',
    invoiceNumber: null,
    seller,
  };
  for (let i = 0; i < 20; i++) await renderBillingDocument(document, seller);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RENDERS; i++) {
    const start = performance.now();
    bytes = (await renderBillingDocument(document, seller)).byteLength;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(
    `render: invoice PDF (${(bytes / 1024).toFixed(1)} KB) p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, ` +
      `max ${times.at(-1)!.toFixed(1)} ms (${RENDERS} renders, one process)`,
  );
}

async function benchNumbering(label: string, database: Database): Promise<void> {
  const db = database.db;
  const userId = newId();
  await db.insert(users).values({ id: userId, email: `bench-${userId}@example.com`, firstName: 'Zoë', lastName: 'Ł', country: 'Poland' });
  const rows = Array.from({ length: CONCURRENT }, () => ({
    id: newId(),
    userId,
    submissionMethod: 'link' as const,
    musicUrl: 'https://example.com/t',
    releaseStatus: 'unreleased' as const,
    artistName: 'Bench',
    songTitle: 'Bench song',
    hasLyrics: false,
    aiUsage: false,
    videoStyle: 'non-custom' as const,
    pricingTier: 'basic' as const,
    status: 'pending' as const,
    paymentStatus: 'succeeded' as const,
  }));
  await db.insert(submissions).values(rows);
  const start = performance.now();
  const issued = await Promise.all(
    rows.map((row) =>
      db.transaction(async (tx) => {
        // The lock the payment webhook holds while it records the payment.
        await tx.select({ id: submissions.id }).from(submissions).where(eqId(row.id)).for('update');
        return issueBillingDocument(tx, {
          kind: 'invoice',
          submission: row,
          stripePaymentIntentId: `pi_${row.id}`,
          amountCents: 4900,
          currency: 'usd',
          seller: {},
        });
      }),
    ),
  );
  const elapsed = performance.now() - start;
  const sequences = issued.map((d) => d.sequence).sort((a, b) => a - b);
  const consecutive = sequences.every((s, i) => s === sequences[0]! + i);
  const distinct = new Set(issued.map((d) => d.number)).size;
  const stored = (await db.select({ n: billingDocuments.number }).from(billingDocuments)).length;
  console.log(
    `${label}: ${CONCURRENT} invoices issued at once in ${elapsed.toFixed(0)} ms (${(elapsed / CONCURRENT).toFixed(1)} ms each); ` +
      `${distinct} distinct numbers, ${sequences[0]}…${sequences.at(-1)} ${consecutive ? 'consecutive' : 'WITH GAPS'}, ${stored} stored`,
  );
  if (!consecutive || distinct !== CONCURRENT) process.exitCode = 1;
}

export default async function billingBench(): Promise<void> {
  await benchRender();

  const dir = mkdtempSync(path.join(os.tmpdir(), 'billing-bench-'));
  const pglite = await openDatabase({ pgliteDir: dir });
  try {
    await benchNumbering('PGlite', pglite);
  } finally {
    await pglite.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const scratch = await createScratchDatabase('billing');
  if (!scratch) {
    console.log('PostgreSQL: not reachable, skipped');
    return;
  }
  const postgres = await openDatabase({ databaseUrl: scratch.url, pgliteDir: '' });
  try {
    await benchNumbering(`PostgreSQL (${redact(scratch.url)}, pool of 10)`, postgres);
  } finally {
    await postgres.close();
    await scratch.drop();
  }
}
