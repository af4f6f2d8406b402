import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { StatusChangeReason } from '@shared/admin';
import { liveEventSchema } from '@shared/live-event-schema';
import type { LiveEvent } from '@shared/live-events';
import {
  ADMIN_SETTABLE_STATUSES,
  CHANGES_REQUESTABLE_STATUSES,
  PAYMENT_DUE_STATUSES,
  PUBLISHABLE_STATUSES,
  SUBMISSION_STATUSES,
  type PaymentStatus,
  type SubmissionStatus,
} from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { submissions, users } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { notifyOnCommit } from '../../platform/realtime/hub';
import { queueWebhookEvent } from '../webhook/queue-webhook-event';
import { recordHistoryRows } from './history';
import { isDecisionStatus, WAITING_STATUSES } from '@shared/decisions';
import { autoAssign, startDecisionClock, stopDecisionClocks } from './decision-date';

const DESK_STATUSES = SUBMISSION_STATUSES.filter((status) => status !== 'draft');
/** What the desk sets by hand besides asking for changes, which has its own row (CONTRACT §27). */
const REVIEW_STATUSES = ADMIN_SETTABLE_STATUSES.filter((status) => status !== 'changes_requested');

/**
 * Every move a submission's status may make, by why it is made: the one place that says what is
 * allowed (CONTRACT §4, §8, §12, §13, §27). A move not in this table is refused with a 409.
 */
export const ALLOWED_STATUS_MOVES = {
  /** The artist sends a draft to the label: free → pending, paid → awaiting payment (§12). */
  submitted: { from: ['draft'], to: ['pending', 'payment_pending'] },
  /** The team on the desk sets any status it may set, from any status the desk shows (§8). */
  review: { from: DESK_STATUSES, to: REVIEW_STATUSES },
  /** The team asks for a new version while it is still deciding (§27). */
  changes_requested: { from: CHANGES_REQUESTABLE_STATUSES, to: ['changes_requested'] },
  /** The artist sent the new version: back in the team's queue, payment carried over (§27). */
  resubmitted: { from: ['changes_requested'], to: ['pending'] },
  /** The artist picks the free plan while the payment is due: the submission goes to the label (§12). */
  tier_changed: { from: PAYMENT_DUE_STATUSES, to: ['pending'] },
  /** The artist opens the checkout again after a failed payment (§6). */
  checkout_reopened: { from: ['payment_failed'], to: ['payment_pending'] },
  /** Stripe confirmed the payment: the submission joins the team's queue (§6). */
  payment_succeeded: { from: PAYMENT_DUE_STATUSES, to: ['pending'] },
  /** Stripe reported the payment failed (§6). */
  payment_failed: { from: ['payment_pending'], to: ['payment_failed'] },
  /** The team recorded the video's publication (§13). */
  published: { from: PUBLISHABLE_STATUSES, to: ['published'] },
  /** No decision by the promised date: the system closes a free submission (§26). */
  late_decision: { from: WAITING_STATUSES, to: ['rejected'] },
} as const satisfies Record<StatusChangeReason, { from: readonly SubmissionStatus[]; to: readonly SubmissionStatus[] }>;

/**
 * Every move a submission's payment may make, by why it is made (CONTRACT §6, §12, §13, §19, §21):
 * beside the status moves, the one place that says what is allowed. Each is made by its own verb in
 * domain/submission/payment-state.ts; a move not in this table is refused with a 409 (or, coming
 * from a Stripe event, left as it is).
 */
export const ALLOWED_PAYMENT_MOVES = {
  /** The artist opens the checkout again after a failed payment (§6). */
  checkout_reopened: { from: ['failed', 'pending'], to: 'pending' },
  /** Stripe confirmed the payment (§6); null: a plan chosen again after the free one. */
  succeeded: { from: [null, 'pending', 'failed'], to: 'succeeded' },
  /** Stripe reported the payment failed (§6). */
  failed: { from: [null, 'pending'], to: 'failed' },
  /** The payment went back to the card (§13, §19, §21); pending: Stripe's success event has not arrived yet. */
  refunded: { from: ['succeeded', 'pending'], to: 'refunded' },
  /** The artist picked the free plan while the payment was due: nothing is owed any more (§12). */
  plan_changed: { from: [null, 'pending', 'failed'], to: null },
} as const satisfies Record<string, { from: readonly (PaymentStatus | null)[]; to: PaymentStatus | null }>;
export type PaymentMove = keyof typeof ALLOWED_PAYMENT_MOVES;

export const isAllowedPaymentMove = (move: PaymentMove, from: PaymentStatus | null): boolean =>
  from === ALLOWED_PAYMENT_MOVES[move].to || (ALLOWED_PAYMENT_MOVES[move].from as readonly (PaymentStatus | null)[]).includes(from);

export const isAllowedMove = (reason: StatusChangeReason, from: SubmissionStatus, to: SubmissionStatus): boolean =>
  (ALLOWED_STATUS_MOVES[reason].from as readonly string[]).includes(from) && (ALLOWED_STATUS_MOVES[reason].to as readonly string[]).includes(to);

/** The moves by which a submission reaches the team for the first time (CONTRACT §26's clock starts). */
const JOINS_QUEUE = ['submitted', 'tier_changed', 'payment_succeeded'] as const satisfies readonly StatusChangeReason[];

/** A submission about to change, as the caller read it locked FOR UPDATE in `tx`. */
interface TransitionTarget {
  id: string;
  status: SubmissionStatus;
  userId: string;
}

interface StatusChange {
  to: SubmissionStatus;
  reason: StatusChangeReason;
  /** Who made the change: a person's id, or null for the system (a Stripe webhook). */
  by: string | null;
  now?: Date;
}

/**
 * THE way a submission's status changes (docs/decisions/145-domain-layer.md): checks each move
 * against ALLOWED_STATUS_MOVES, writes the status in one UPDATE, one history row per
 * submission whose status really moved, with who and why, and announces `submission_changed` to
 * its artist and the team when `tx` commits. All in the caller's transaction, so nothing of it
 * exists if the change rolls back; the email that goes with a change is queued by the caller in
 * the same transaction, since what it says (a review, a receipt, a publication) is the caller's.
 * What else the same change writes (the payment's fields, the reviewer) is written by the named
 * verb that calls this (domain/submission/payment-state.ts, the desk's review), in the same
 * transaction. Targets already in `to` are not recorded or announced as moved.
 */
export async function transitionSubmissions(tx: Tx, targets: TransitionTarget[], change: StatusChange): Promise<TransitionTarget[]> {
  if (targets.length === 0) return [];
  const moving = targets.filter((t) => t.status !== change.to);
  for (const target of moving) {
    if (!isAllowedMove(change.reason, target.status, change.to)) throw apiError('conflict', `A submission cannot move from ${target.status} to ${change.to} (${change.reason})`);
  }
  const now = change.now ?? new Date();
  await tx
    .update(submissions)
    .set({ status: change.to, updatedAt: now })
    .where(inArray(submissions.id, targets.map((t) => t.id)));
  if (moving.length === 0) return [];
  await recordHistoryRows(
    tx,
    moving.map((t) => ({ submissionId: t.id, kind: 'status', by: change.by, from: t.status, to: change.to, why: change.reason, at: now })),
  );
  // CONTRACT §26: reaching the team starts the decision clock (and, with AUTO_ASSIGN=on, assigns
  // it); a decision stops the clock.
  if (change.to === 'pending' && (JOINS_QUEUE as readonly string[]).includes(change.reason)) {
    for (const target of moving) {
      await startDecisionClock(tx, target.id, now);
      await autoAssign(tx, target.id, now);
    }
  }
  if (isDecisionStatus(change.to)) await stopDecisionClocks(tx, moving.map((t) => t.id), now);
  const team = await adminIds(tx);
  for (const target of moving) await notifyOnCommit(tx, [target.userId, ...team], submissionChanged(target.id, change.to));
  // The label's other tools hear it in the same transaction (CONTRACT §28): a submission reaching
  // the label is `submission.created` (drafts never leave the artist), every move a status change.
  for (const target of moving) {
    if (change.reason === 'submitted') await queueWebhookEvent(tx, 'submission.created', () => submissionFacts(tx, target.id), now);
    await queueWebhookEvent(
      tx,
      'submission.status_changed',
      { submissionId: target.id, from: target.status, to: change.to, reason: change.reason, changedAt: now.toISOString() },
      now,
    );
  }
  return moving;
}

/**
 * `submission_changed` to the submission's artist and every admin, when `tx` commits: the
 * dashboard and the desk refetch it. Also for a submission that came or went without a status
 * change (status null: deleted).
 */
export async function announceSubmissionChange(
  tx: Tx | Db,
  ownerId: string,
  change: { submissionId: string; status: SubmissionStatus | null },
): Promise<void> {
  await notifyOnCommit(tx, [ownerId, ...(await adminIds(tx))], submissionChanged(change.submissionId, change.status));
}

/** The event, checked against the shared schema where it is made. */
const submissionChanged = (submissionId: string, status: SubmissionStatus | null): LiveEvent =>
  liveEventSchema.parse({ type: 'submission_changed', submissionId, status });

/** What `submission.created` tells of a submission: what it is, never the artist's contact details. */
async function submissionFacts(tx: Tx, id: string): Promise<Record<string, unknown>> {
  const [row] = await tx
    .select({
      songTitle: submissions.songTitle,
      artistName: submissions.artistName,
      submissionType: submissions.submissionType,
      pricingTier: submissions.pricingTier,
      genre: submissions.genre,
      createdAt: submissions.createdAt,
    })
    .from(submissions)
    .where(eq(submissions.id, id));
  return { submissionId: id, ...row, createdAt: row?.createdAt.toISOString() };
}

async function adminIds(tx: Tx | Db): Promise<string[]> {
  const admins = await tx.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
  return admins.map((a) => a.id);
}
