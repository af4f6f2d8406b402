import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { documentNumber, type BillingDocumentKind, type BillingSeller } from '@shared/billing';
import type { PricingTier } from '@shared/submissions';
import type { Tx } from '../../platform/db/client';
import { billingDocumentCounters, billingDocuments, users, type BillingDocumentRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';

interface IssueInput {
  kind: BillingDocumentKind;
  /**
   * What the document is for. `id` null: a payment whose submission was deleted before it
   * succeeded (CONTRACT §21); its documents are then known by their payment intent, and `userId`
   * null when its artist is gone too.
   */
  submission: { id: string | null; userId: string | null; pricingTier: PricingTier; songTitle: string; artistName: string };
  stripePaymentIntentId: string | null;
  /** What Stripe charged or refunded, in the currency's smallest unit. */
  amountCents: number;
  currency: string;
  /** The seller and VAT rate now (the configuration), kept with the document. */
  seller: BillingSeller;
}

/**
 * Issues the submission's invoice or credit note inside the caller's transaction (CONTRACT §19),
 * once: a second call finds the first document and returns it.
 *
 * The number comes from the (kind, year) counter row, bumped by one upsert in the same
 * transaction: a transaction that rolls back takes its number back with it, so numbers stay
 * gapless. Callers hold the submission's row lock (the payment or refund being recorded), so
 * "already issued?" cannot race with itself.
 *
 * A document is dated when it is issued (CONTRACT §21), never by the event that caused it (a
 * webhook Stripe delivers days late would otherwise date a later number earlier). Issuers of one
 * kind queue on a transaction lock first, then read the database's clock: each takes its date and
 * its number while holding the lock, so numbers and dates rise together, also across instances
 * (one clock, the database's) and across New Year (the year is the date's).
 */
export async function issueBillingDocument(tx: Tx, input: IssueInput): Promise<BillingDocumentRow> {
  const ofSame = documentsOfSamePayment(input);
  const [existing] = await tx
    .select()
    .from(billingDocuments)
    .where(and(ofSame, eq(billingDocuments.kind, input.kind)))
    .limit(1);
  if (existing) return existing;

  await tx.execute(sql`select pg_advisory_xact_lock(${ISSUE_LOCK[input.kind]})`);
  const issuedAt = await databaseNow(tx);
  const year = issuedAt.getUTCFullYear();
  const [counter] = await tx
    .insert(billingDocumentCounters)
    .values({ kind: input.kind, year, lastSequence: 1 })
    .onConflictDoUpdate({
      target: [billingDocumentCounters.kind, billingDocumentCounters.year],
      set: { lastSequence: sql`${billingDocumentCounters.lastSequence} + 1` },
    })
    .returning({ sequence: billingDocumentCounters.lastSequence });
  const sequence = counter!.sequence;

  const [buyer] = input.submission.userId
    ? await tx
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, artistName: users.artistName, email: users.email, country: users.country })
        .from(users)
        .where(eq(users.id, input.submission.userId))
        .limit(1)
    : [];
  const personName = [buyer?.firstName, buyer?.lastName].filter((part) => part && part.trim() !== '').join(' ').trim();
  const invoiceNumber =
    input.kind === 'credit_note'
      ? ((
          await tx
            .select({ number: billingDocuments.number })
            .from(billingDocuments)
            .where(and(ofSame, eq(billingDocuments.kind, 'invoice')))
            .limit(1)
        )[0]?.number ?? null)
      : null;

  const [row] = await tx
    .insert(billingDocuments)
    .values({
      id: newId(),
      kind: input.kind,
      year,
      sequence,
      number: documentNumber(input.kind, year, sequence),
      submissionId: input.submission.id,
      userId: buyer?.id ?? null,
      stripePaymentIntentId: input.stripePaymentIntentId,
      issuedAt,
      pricingTier: input.submission.pricingTier,
      songTitle: input.submission.songTitle,
      amountCents: input.amountCents,
      currency: input.currency,
      buyerName: personName || buyer?.artistName || input.submission.artistName,
      buyerEmail: buyer?.email ?? null,
      buyerCountry: buyer?.country ?? null,
      invoiceNumber,
      seller: input.seller,
    })
    .returning();
  return row!;
}

/**
 * The documents of the same payment: the submission's, or, for a submission that is gone, those of
 * the payment intent (its invoice and credit note may have been issued while it existed, and
 * kept with `submissionId` null when it was deleted).
 */
function documentsOfSamePayment(input: IssueInput): SQL {
  if (input.submission.id !== null) return eq(billingDocuments.submissionId, input.submission.id);
  if (input.stripePaymentIntentId === null) throw new Error('A document of no submission is known by its payment intent');
  return and(isNull(billingDocuments.submissionId), eq(billingDocuments.stripePaymentIntentId, input.stripePaymentIntentId))!;
}

/** The advisory lock each kind's issuers queue on (any fixed numbers no other lock in the product uses). */
const ISSUE_LOCK: Record<BillingDocumentKind, number> = { invoice: 190_021_001, credit_note: 190_021_002 };

/** The database's clock now (not the transaction's start): read after the lock, so it follows the previous issue. */
async function databaseNow(tx: Tx): Promise<Date> {
  const [row] = await tx.select({ now: sql<string>`clock_timestamp()` }).from(sql`(select 1) as one`);
  return new Date(row!.now);
}

/** The credit note repeats the invoice's amount and currency (a full refund); null without an invoice. */
export async function invoiceOf(tx: Tx, submissionId: string): Promise<BillingDocumentRow | undefined> {
  const [row] = await tx
    .select()
    .from(billingDocuments)
    .where(and(eq(billingDocuments.submissionId, submissionId), eq(billingDocuments.kind, 'invoice')))
    .limit(1);
  return row;
}
