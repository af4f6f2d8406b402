import { and, desc, eq } from 'drizzle-orm';
import { TIERS, isPaidTier, type PaymentStatus, type PricingTier, type SubmissionStatus } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { submissionHistory, submissions, type SubmissionRow } from '../../platform/db/schema';
import { transitionSubmissions } from '../../domain/submission/transition';
import type { StatusChangeReason } from '@shared/admin';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';

/** A transaction handle or the database: the functions below work inside or outside one. */
type TxOrDb = Tx | Db;

export const CURRENCY = 'usd';


export type PaymentSubmission = Pick<
  SubmissionRow,
  'id' | 'userId' | 'pricingTier' | 'submissionType' | 'status' | 'paymentStatus' | 'stripePaymentIntentId' | 'songTitle' | 'artistName'
>;

const paymentColumns = {
  id: submissions.id,
  userId: submissions.userId,
  pricingTier: submissions.pricingTier,
  submissionType: submissions.submissionType,
  status: submissions.status,
  paymentStatus: submissions.paymentStatus,
  stripePaymentIntentId: submissions.stripePaymentIntentId,
  songTitle: submissions.songTitle,
  artistName: submissions.artistName,
};

/** The price of a tier in cents, as Stripe counts it; computed on the server only. */
function amountInCents(tier: PricingTier): number {
  return TIERS[tier].priceUsd * 100;
}

/** What the artist pays for this submission: its tier's price, never a stored or sent figure. */
export function expectedAmount(submission: Pick<PaymentSubmission, 'pricingTier'>): number | null {
  return isPaidTier(submission.pricingTier) ? amountInCents(submission.pricingTier) : null;
}


/** The caller's own submission; anyone else's is "not found" (CONTRACT §2). */
export async function findOwnedSubmission(db: Db, userId: string, submissionId: string): Promise<PaymentSubmission> {
  const [row] = await db
    .select(paymentColumns)
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.userId, userId)))
    .limit(1);
  if (!row) throw apiError('submission_not_found');
  return row;
}

/** Locks the submission row for the rest of the transaction, so concurrent events apply one at a time. */
export async function lockSubmission(
  tx: TxOrDb,
  by: { id: string } | { paymentIntentId: string },
): Promise<PaymentSubmission | undefined> {
  const where = 'id' in by ? eq(submissions.id, by.id) : eq(submissions.stripePaymentIntentId, by.paymentIntentId);
  const [row] = await tx.select(paymentColumns).from(submissions).where(where).limit(1).for('update');
  return row;
}

interface PaymentChange {
  status?: SubmissionStatus;
  /** Why the status moves (ALLOWED_STATUS_MOVES); required with `status`. */
  reason?: StatusChangeReason;
  paymentStatus?: PaymentStatus;
  stripePaymentIntentId?: string;
  /** The delivery deadline, set when the payment succeeds (CONTRACT §13). */
  dueAt?: Date | null;
}

/**
 * Applies a payment-driven change and records each changed field in the history, with no actor
 * (the change came from Stripe or the checkout, not from a person on the team): a status through
 * the one transition, with its reason, and the payment's fields in the same UPDATE. Returns
 * whether anything changed.
 */
export async function applyPaymentChange(tx: Tx, current: PaymentSubmission, change: PaymentChange): Promise<boolean> {
  const set: Omit<PaymentChange, 'status' | 'reason'> = {};
  const history: { field: 'payment_status'; fromValue: string | null; toValue: string }[] = [];
  const moves = change.status !== undefined && change.status !== current.status;
  if (change.paymentStatus !== undefined && change.paymentStatus !== current.paymentStatus) {
    set.paymentStatus = change.paymentStatus;
    history.push({ field: 'payment_status', fromValue: current.paymentStatus, toValue: change.paymentStatus });
  }
  if (change.stripePaymentIntentId !== undefined && change.stripePaymentIntentId !== current.stripePaymentIntentId) {
    set.stripePaymentIntentId = change.stripePaymentIntentId;
  }
  if (change.dueAt !== undefined && (moves || Object.keys(set).length > 0)) set.dueAt = change.dueAt;
  if (!moves && Object.keys(set).length === 0) return false;
  const now = new Date();
  if (moves) {
    // The status goes through the one transition, with the payment's fields in the same UPDATE.
    await transitionSubmissions(tx, [current], { to: change.status!, reason: change.reason!, by: null, also: set, now });
  } else {
    await tx
      .update(submissions)
      .set({ ...set, updatedAt: now })
      .where(eq(submissions.id, current.id));
  }
  if (history.length > 0) {
    await tx
      .insert(submissionHistory)
      .values(history.map((h) => ({ ...h, id: newId(), submissionId: current.id, actorId: null, createdAt: now })));
  }
  return true;
}

/** When the payment was confirmed: the history row of its move to `succeeded`. */
export async function paidAt(db: Db, submissionId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: submissionHistory.createdAt })
    .from(submissionHistory)
    .where(
      and(
        eq(submissionHistory.submissionId, submissionId),
        eq(submissionHistory.field, 'payment_status'),
        eq(submissionHistory.toValue, 'succeeded'),
      ),
    )
    .orderBy(desc(submissionHistory.createdAt))
    .limit(1);
  return row?.at ?? null;
}
