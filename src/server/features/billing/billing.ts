import { and, desc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import {
  billingDocumentNumberUrl,
  NO_DOCUMENT_MESSAGE,
  type BillingDocumentKind,
  type BillingDocumentListItem,
  type BillingResponse,
} from '@shared/billing';
import { TIERS } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { billingDocuments, submissions, type BillingDocumentRow, type UserRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';

/**
 * The submission's invoice or credit note, for its artist or the team (CONTRACT §19). Another
 * artist's submission, or a draft, is "not found" as everywhere (§2); a document not issued yet
 * is a 404 that says so.
 */
export async function findBillingDocument(
  db: Db,
  user: Pick<UserRow, 'id' | 'role'>,
  submissionId: string,
  kind: BillingDocumentKind,
): Promise<BillingDocumentRow> {
  const [submission] = await db
    .select({ userId: submissions.userId })
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), ne(submissions.status, 'draft')))
    .limit(1);
  if (!submission || (user.role !== 'admin' && submission.userId !== user.id)) throw apiError('submission_not_found');
  const [document] = await db
    .select()
    .from(billingDocuments)
    .where(and(eq(billingDocuments.submissionId, submissionId), eq(billingDocuments.kind, kind)))
    .limit(1);
  if (!document) throw apiError('document_not_found', NO_DOCUMENT_MESSAGE[kind]);
  return document;
}

/**
 * GET /api/billing/documents/{number}.pdf (CONTRACT §21): a document by its number, for the artist
 * it was issued to and for the team, also once its submission (or the artist's account) is gone.
 * Anyone else learns nothing: "not found", as for a number never issued.
 */
export async function findBillingDocumentByNumber(db: Db, user: Pick<UserRow, 'id' | 'role'>, number: string): Promise<BillingDocumentRow> {
  const [document] = await db.select().from(billingDocuments).where(eq(billingDocuments.number, number)).limit(1);
  if (!document || (user.role !== 'admin' && document.userId !== user.id)) throw apiError('document_not_found', 'Document not found');
  return document;
}

/** Every document issued to the artist, newest first: what the label keeps for years (CONTRACT §21). */
async function listDocuments(db: Db, userId: string): Promise<BillingDocumentListItem[]> {
  const rows = await db
    .select()
    .from(billingDocuments)
    .where(eq(billingDocuments.userId, userId))
    .orderBy(desc(billingDocuments.issuedAt), desc(billingDocuments.number));
  return rows.map((d) => ({
    id: d.id,
    kind: d.kind,
    number: d.number,
    issuedAt: d.issuedAt.toISOString(),
    amount: (d.amountCents / 100).toFixed(2),
    currency: d.currency,
    songTitle: d.songTitle,
    submissionId: d.submissionId,
    url: billingDocumentNumberUrl(d.number),
  }));
}

/**
 * GET /api/billing: the caller's paid submissions (a payment that succeeded, was refunded or is
 * under way), newest first, each with its documents; and every document issued to the caller,
 * also those whose submission was deleted since. The amount is the invoice's (what Stripe
 * charged); before one, the submission's price.
 */
export async function listBilling(db: Db, userId: string): Promise<BillingResponse> {
  const rows = await db
    .select({
      id: submissions.id,
      songTitle: submissions.songTitle,
      tier: submissions.pricingTier,
      amount: submissions.amount,
      paymentStatus: submissions.paymentStatus,
      refundReason: submissions.refundReason,
      createdAt: submissions.createdAt,
    })
    .from(submissions)
    .where(and(eq(submissions.userId, userId), isNotNull(submissions.paymentStatus), ne(submissions.status, 'draft')))
    .orderBy(desc(submissions.createdAt));
  const documents = rows.length
    ? await db
        .select()
        .from(billingDocuments)
        .where(inArray(billingDocuments.submissionId, rows.map((r) => r.id)))
        .orderBy(billingDocuments.issuedAt)
    : [];
  const payments = rows.map((row) => {
    const own = documents.filter((d) => d.submissionId === row.id);
    const invoice = own.find((d) => d.kind === 'invoice');
    return {
      submissionId: row.id,
      songTitle: row.songTitle,
      tier: row.tier,
      tierName: TIERS[row.tier].name,
      amount: invoice ? (invoice.amountCents / 100).toFixed(2) : Number(row.amount ?? TIERS[row.tier].priceUsd).toFixed(2),
      currency: invoice?.currency ?? 'usd',
      paymentStatus: row.paymentStatus!,
      paidAt: invoice?.issuedAt.toISOString() ?? null,
      refundReason: row.refundReason,
      documents: own.map((d) => ({ kind: d.kind, number: d.number, issuedAt: d.issuedAt.toISOString(), url: billingDocumentNumberUrl(d.number) })),
    };
  });
  // Newest payment first; those not paid yet after them, newest first.
  payments.sort((a, b) => (b.paidAt ?? '').localeCompare(a.paidAt ?? ''));
  return { payments, documents: await listDocuments(db, userId) };
}
