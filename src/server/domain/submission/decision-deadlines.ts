import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { BillingSeller } from '@shared/billing';
import { DECISION_REMINDER_SHARE, WAITING_STATUSES } from '@shared/decisions';
import { statusLabel, TIERS } from '@shared/submissions';
import type { Db, Tx } from '../../platform/db/client';
import { submissionDesk, submissions, users } from '../../platform/db/schema';
import type { EmailQueue } from '../email/email-kinds';
import { isRefundOwed, refundSubmission } from '../billing/refunds';
import { decisionSettings, startDecisionClock } from './decision-date';
import { isWaitingForDecision, waitingForDecision } from './decision-queue';
import { recordHistory } from './history';
import { transitionSubmissions } from './transition';

/** How many submissions one run takes per kind of action; the next run (within a minute) takes the rest. */
const BATCH = 100;

/** The moment 75% of the decision time has passed, in SQL. */
const reminderMoment = sql`(${submissions.decisionClockAt} + (${submissions.decisionDueAt} - ${submissions.decisionClockAt}) * ${DECISION_REMINDER_SHARE})`;

export interface DecisionDeadlineDeps {
  db: Db;
  outbox: EmailQueue;
  /** Null without Stripe: a late paid submission cannot be refunded (and cannot have been paid). */
  stripe: Stripe | null;
  seller: BillingSeller;
  log: FastifyBaseLogger;
}

export interface DeadlineOutcome {
  reminded: number;
  overdue: number;
  refunded: number;
  closed: number;
  /** The next moment something falls due (a reminder or a date), for the caller to run again then. */
  next: Date | null;
}

/**
 * Everything of CONTRACT §26 that falls due by `now`: the 75% reminder, the overdue reminder, and
 * (LATE_DECISION=on) the late action: a paid submission refunded in full (§13's refund, reason
 * `late_decision`; it stays in review), a free one closed `rejected` with LATE_DECISION_MESSAGE by
 * the system. Each is done once, also when two instances run this at the same moment: a reminder
 * is claimed by a conditional UPDATE (the one that sets its column sends the emails, in the same
 * transaction); the refund is refundSubmission's (one Stripe refund by its idempotency key, one
 * record by its conditional update); the close holds the row lock and checks it still waits.
 * One failing submission does not stop the others; what fails is taken again by the next run.
 */
export async function runDecisionDeadlines(deps: DecisionDeadlineDeps, now: Date): Promise<DeadlineOutcome> {
  const outcome: DeadlineOutcome = { reminded: 0, overdue: 0, refunded: 0, closed: 0, next: null };
  const settings = decisionSettings();

  // Waiting without a clock: the backlog of the day this was deployed. Its period runs from now.
  const unclocked = await deps.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(isNull(submissions.decisionDueAt), isNull(submissions.decidedAt), inArray(submissions.status, [...WAITING_STATUSES])))
    .limit(BATCH);
  for (const { id } of unclocked) {
    await guarded(deps, id, 'starting the clock', () =>
      deps.db.transaction(async (tx) => {
        const [row] = await tx.select({ due: submissions.decisionDueAt }).from(submissions).where(eq(submissions.id, id)).for('update');
        if (!row || row.due !== null) return false;
        await startDecisionClock(tx, id, now);
        return true;
      }),
    );
  }

  // Overdue first: a submission whose both moments passed while nothing ran gets the overdue email only.
  const overdue = await deps.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(waitingForDecision(), isNull(submissions.decisionOverdueAt), lte(submissions.decisionDueAt, now)))
    .orderBy(asc(submissions.decisionDueAt))
    .limit(BATCH);
  for (const { id } of overdue) {
    if (await guarded(deps, id, 'overdue reminder', () => remind(deps, id, 'decision_overdue', now))) outcome.overdue++;
  }

  const nearlyDue = await deps.db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(waitingForDecision(), isNull(submissions.decisionRemindedAt), sql`${reminderMoment} <= ${now.toISOString()}::timestamptz`, gt(submissions.decisionDueAt, now)))
    .orderBy(asc(submissions.decisionDueAt))
    .limit(BATCH);
  for (const { id } of nearlyDue) {
    if (await guarded(deps, id, 'decision reminder', () => remind(deps, id, 'decision_reminder', now))) outcome.reminded++;
  }

  if (settings.late) {
    const late = await deps.db
      .select()
      .from(submissions)
      .where(and(waitingForDecision(), isNull(submissions.lateDecisionAt), lte(submissions.decisionDueAt, now)))
      .orderBy(asc(submissions.decisionDueAt))
      .limit(BATCH);
    for (const row of late) {
      if (row.pricingTier === 'free') {
        if (await guarded(deps, row.id, 'late close', () => closeLateFree(deps, row.id, settings.lateMessage, now))) outcome.closed++;
      } else if (await guarded(deps, row.id, 'late refund', () => refundLatePaid(deps, row, now))) {
        outcome.refunded++;
      }
    }
  }

  outcome.next = await nextMoment(deps.db, now);
  return outcome;
}

async function guarded(deps: DecisionDeadlineDeps, submissionId: string, what: string, action: () => Promise<boolean>): Promise<boolean> {
  try {
    return await action();
  } catch (error) {
    deps.log.error({ err: error, submissionId }, `${what} failed; the next run tries again`);
    return false;
  }
}

/** Claims the reminder (its column set once) and queues one email to each recipient, in one transaction. */
async function remind(deps: DecisionDeadlineDeps, submissionId: string, kind: 'decision_reminder' | 'decision_overdue', now: Date): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const set =
      kind === 'decision_overdue'
        ? { decisionOverdueAt: now, decisionRemindedAt: sql`coalesce(${submissions.decisionRemindedAt}, ${now.toISOString()}::timestamptz)` }
        : { decisionRemindedAt: now };
    const [row] = await tx
      .update(submissions)
      .set(set)
      .where(and(eq(submissions.id, submissionId), waitingForDecision(), kind === 'decision_overdue' ? isNull(submissions.decisionOverdueAt) : isNull(submissions.decisionRemindedAt)))
      .returning();
    if (!row) return false;
    const recipients = await reminderRecipients(tx, submissionId);
    const settings = decisionSettings();
    const lateAction = !settings.late ? 'none' : row.pricingTier === 'free' ? 'close' : isRefundOwed(row) ? 'refund' : 'none';
    await deps.outbox.queueMany(
      tx,
      recipients.map((userId) => ({
        kind,
        userId,
        data: {
          submissionId,
          songTitle: row.songTitle,
          artistName: row.artistName,
          tierName: TIERS[row.pricingTier].name,
          decisionDueAt: row.decisionDueAt!.toISOString(),
          decisionDueText: emailDate(row.decisionDueAt!),
          lateAction,
        },
      })),
    );
    return true;
  });
}

/** The assignee when the submission has one (an admin still on the team), else everyone on the team. */
async function reminderRecipients(tx: Tx, submissionId: string): Promise<string[]> {
  const [assignee] = await tx
    .select({ id: users.id })
    .from(submissionDesk)
    .innerJoin(users, eq(users.id, submissionDesk.assigneeId))
    .where(and(eq(submissionDesk.submissionId, submissionId), eq(users.role, 'admin'), isNull(users.deletedAt)))
    .limit(1);
  if (assignee) return [assignee.id];
  const team = await tx.select({ id: users.id }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletedAt)));
  return team.map((admin) => admin.id);
}

/**
 * A paid submission nobody decided in time: its payment back in full through the one refund
 * (which tells the artist, issues the credit note and writes the history), then marked late. It
 * stays where it is in review: the artist still gets an answer, and the team still may approve it.
 */
async function refundLatePaid(deps: DecisionDeadlineDeps, row: typeof submissions.$inferSelect, now: Date): Promise<boolean> {
  let refunded = false;
  if (isRefundOwed(row)) {
    if (!deps.stripe) {
      deps.log.warn({ submissionId: row.id }, 'a late paid submission cannot be refunded without Stripe');
      return false;
    }
    const result = await refundSubmission(deps.db, deps.stripe, deps.outbox, { submissionId: row.id, reason: 'late_decision', actorId: null, now, seller: deps.seller }, deps.log);
    refunded = result === 'refunded';
  }
  await deps.db
    .update(submissions)
    .set({ lateDecisionAt: now })
    .where(and(eq(submissions.id, row.id), isNull(submissions.lateDecisionAt)));
  return refunded;
}

/**
 * A free submission nobody decided in time: closed `rejected` with the label's kind message, by
 * the system (no person in its history), through the one transition; the artist is emailed as for
 * any status change. Under the row lock, and only while it still waits: a decision made in the same
 * moment wins.
 */
async function closeLateFree(deps: DecisionDeadlineDeps, submissionId: string, message: string, now: Date): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(submissions).where(eq(submissions.id, submissionId)).for('update');
    if (!row || row.lateDecisionAt !== null || !isWaitingForDecision(row) || row.decisionDueAt! > now) return false;
    await transitionSubmissions(tx, [row], { to: 'rejected', reason: 'late_decision', by: null, now });
    await tx
      .update(submissions)
      .set({ adminReview: message, adminReviewedAt: now, adminReviewedBy: null, lateDecisionAt: now })
      .where(eq(submissions.id, submissionId));
    if (row.adminReview !== message) await recordHistory(tx, submissionId, { kind: 'review', by: null, from: row.adminReview, to: message, at: now });
    await deps.outbox.queue(tx, {
      kind: 'status_changed',
      userId: row.userId,
      data: { submissionId, songTitle: row.songTitle, statusLabel: statusLabel('rejected'), review: message },
    });
    return true;
  });
}

/** The next reminder moment or decision date after `now` among the waiting submissions. */
async function nextMoment(db: Db, now: Date): Promise<Date | null> {
  const at = now.toISOString();
  const [row] = await db
    .select({
      next: sql<string | null>`min(case
        when ${submissions.decisionRemindedAt} is null and ${reminderMoment} > ${at}::timestamptz then ${reminderMoment}
        when ${submissions.decisionDueAt} > ${at}::timestamptz then ${submissions.decisionDueAt}
      end)`,
    })
    .from(submissions)
    .where(and(waitingForDecision(), or(isNull(submissions.decisionOverdueAt), isNull(submissions.lateDecisionAt)), ne(submissions.status, 'draft')));
  return row?.next ? new Date(row.next) : null;
}

/** "Tue, 1 Dec 2026, 14:00 UTC": a date every member of the team reads the same way. */
function emailDate(date: Date): string {
  return `${date.toLocaleString('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })} UTC`;
}
