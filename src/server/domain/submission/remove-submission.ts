import type { FastifyBaseLogger } from 'fastify';
import { and, eq, ne } from 'drizzle-orm';
import Stripe from 'stripe';
import type { BillingSeller } from '@shared/billing';
import { isArtistDeletable } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { paymentRecords, submissions, type SubmissionRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { removeUploadBytes } from '../../platform/storage/upload-files';
import type { EmailQueue } from '../email/email-kinds';
import { isRefundOwed, refundSubmission } from '../billing/refunds';
import { recordArtistActivity } from './artist-activity';
import { deleteSubmissionRows } from './submission-deletion';

/**
 * How long the submission's row stays locked while Stripe is asked (decision 188): one attempt
 * and one retry (same idempotency key), each cut off after this long. On the embedded database
 * an open transaction holds the whole database, so the bound is what another request may wait.
 */
export const STRIPE_CALL_UNDER_LOCK: Stripe.RequestOptions = { timeout: 6_000, maxNetworkRetries: 1 };

/** Who removes the submission, which decides what may be removed and why it is refunded. */
export type Remover =
  /** The artist's withdrawal (CONTRACT §12, §21): their own, and only until approval. */
  | { kind: 'artist'; userId: string }
  /** The artist's account deletion (§11, §21): a withdrawal of each, whose row leaves a payment record. */
  | { kind: 'account'; userId: string }
  /** The team's delete, single or bulk: any submission sent to the label, in any status. */
  | { kind: 'team'; adminId: string };

export interface RemovalDeps {
  db: Db;
  stripe: Stripe | undefined;
  outbox: EmailQueue;
  storage: ObjectStorage;
  seller: BillingSeller;
  log: FastifyBaseLogger;
}

/** A payment asked for and not settled: the intent may still be paid from a checkout left open. */
const hasOpenIntent = (row: Pick<SubmissionRow, 'stripePaymentIntentId' | 'paymentStatus'>) =>
  row.stripePaymentIntentId !== null && (row.paymentStatus === 'pending' || row.paymentStatus === 'failed');

/**
 * THE removal of a submission (CONTRACT §21): check, refund what the rule owes (with its credit
 * note and the artist's email) or cancel a payment still open, delete the rows, then remove the
 * files. The artist's withdrawal, the account deletion and the team's deletes all come here.
 *
 * Checked and refunded under one row lock, held across the Stripe call (decision 188): a status
 * change sent at the same moment waits for it, so the end is one way or the other, never both —
 * refunded and deleted, or (the change first) approved and the withdrawal refused 409 with
 * nothing refunded. Nothing is committed before Stripe answers: a refusal or a crash leaves the
 * submission as it was, and a refund Stripe made just before a crash is found again by the retry
 * (idempotency key `refund:{id}`) or recorded by its `charge.refunded` event.
 */
export async function removeSubmission(deps: RemovalDeps, submissionId: string, by: Remover): Promise<void> {
  const fileIds = await deps.db.transaction((tx) => removeSubmissionRows(tx, deps, submissionId, by));
  await removeFiles(deps, fileIds);
}

/**
 * The removal's database part in the caller's transaction (a bulk delete's: all or nothing), the
 * row locked by it until the commit. Answers the upload ids whose bytes `removeFiles` takes after
 * the commit, so a rollback never leaves a row pointing at deleted bytes.
 */
export async function removeSubmissionRows(tx: Tx, deps: Omit<RemovalDeps, 'db' | 'storage'>, submissionId: string, by: Remover): Promise<string[]> {
  const row = await lockRemovable(tx, submissionId, by);
  const now = new Date();
  if (isRefundOwed(row)) await refundUnderLock(tx, deps, row, by, now);
  else if (hasOpenIntent(row) && deps.stripe) await cancelOpenIntent(deps.stripe, row.stripePaymentIntentId!);
  // A draft was never the team's to hear of; anything the artist sent to the label was (issue 33 part 4).
  if (by.kind !== 'team' && row.status !== 'draft') {
    await recordArtistActivity(tx, { submissionId, songTitle: row.songTitle, kind: 'withdrawn', at: now });
  }
  if (by.kind === 'account' && row.stripePaymentIntentId) await keepPaymentRecord(tx, submissionId);
  deps.log.info({ submissionId, by: by.kind }, 'submission removed');
  return deleteSubmissionRows(tx, submissionId);
}

/** The bytes of removed submissions' uploads, once their rows are committed gone. */
export async function removeFiles(deps: Pick<RemovalDeps, 'storage' | 'log'>, fileIds: string[]): Promise<void> {
  try {
    await removeUploadBytes(deps.storage, fileIds);
  } catch (error) {
    // The rows are gone; the bytes stay as orphans in the store. Logged so they can be swept.
    deps.log.error({ err: error, uploadIds: fileIds }, 'could not remove the files of a deleted submission');
  }
}

/** The row, locked, if `by` may remove it: else 404, or the licence's 409 for the artist. */
async function lockRemovable(tx: Tx, submissionId: string, by: Remover): Promise<SubmissionRow> {
  const whose = by.kind === 'team' ? ne(submissions.status, 'draft') : eq(submissions.userId, by.userId);
  const [row] = await tx
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), whose))
    .for('update');
  if (!row) throw apiError('submission_not_found');
  if (by.kind !== 'team' && !isArtistDeletable(row.status)) throw apiError('submission_licensed');
  return row;
}

/** The refund the rule owes, asked of Stripe under the lock; any failure is a 502 and rolls everything back. */
async function refundUnderLock(tx: Tx, deps: Omit<RemovalDeps, 'db' | 'storage'>, row: SubmissionRow, by: Remover, now: Date): Promise<void> {
  if (!deps.stripe) throw apiError('refund_failed', 'Card payments are not configured, so the payment cannot be refunded. Nothing was deleted.');
  const input = {
    submissionId: row.id,
    reason: by.kind === 'team' ? ('admin' as const) : ('withdrawn' as const),
    actorId: by.kind === 'team' ? by.adminId : by.userId,
    now,
    seller: deps.seller,
  };
  try {
    await refundSubmission(tx, deps.stripe, deps.outbox, input, deps.log, STRIPE_CALL_UNDER_LOCK, row);
  } catch (error) {
    const why = error instanceof Error ? error.message : 'Stripe could not refund the payment';
    throw apiError('refund_failed', `The refund did not go through, so nothing was deleted: ${why}`);
  }
}

/**
 * Cancels a payment still open at Stripe (CONTRACT §21), so a checkout tab left open cannot pay
 * for a submission that is gone. One already cancelled or unknown to Stripe is fine. One that went
 * through, or is going through, before its event reached us is not deleted: 409, and once the
 * payment is recorded the same removal refunds it.
 */
async function cancelOpenIntent(stripe: Stripe, intentId: string): Promise<void> {
  try {
    await stripe.paymentIntents.cancel(intentId, {}, STRIPE_CALL_UNDER_LOCK);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    if (error.code === 'resource_missing') return;
    if (error.code !== 'payment_intent_unexpected_state') throw apiError('stripe_unavailable');
    const intent = await stripe.paymentIntents.retrieve(intentId, {}, STRIPE_CALL_UNDER_LOCK);
    if (intent.status === 'canceled') return;
    throw apiError('payment_in_progress', 'A payment for this submission is going through right now. Try again in a minute: it will then be refunded.');
  }
}

/**
 * What stays of a payment when its submission goes with its account (CONTRACT §11): the label's
 * record, no personal data. Read again: a refund just made under the lock changed its payment state.
 */
async function keepPaymentRecord(tx: Tx, submissionId: string): Promise<void> {
  const [row] = await tx.select().from(submissions).where(eq(submissions.id, submissionId));
  if (!row?.stripePaymentIntentId) return;
  await tx
    .insert(paymentRecords)
    .values({
      stripePaymentIntentId: row.stripePaymentIntentId,
      submissionId,
      pricingTier: row.pricingTier,
      amount: row.amount,
      paymentStatus: row.paymentStatus,
      paidAt: row.updatedAt,
    })
    .onConflictDoNothing();
}
