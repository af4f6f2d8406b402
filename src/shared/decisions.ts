/**
 * Every artist answered (CONTRACT §26, docs/decisions/196-every-artist-answered.md): what a
 * decision is, which submissions wait for one, the plans' decision days and the texts around them.
 * The one source for both sides: every query of the queue, the reminders and the late sweep is
 * written from these lists.
 */
import type { PricingTier, SubmissionStatus } from './submissions';

/**
 * The statuses that are a decision: moving into one stops the submission's decision clock (its
 * `decidedAt` is stamped by the one transition writer) and takes it out of the queue. Asking for
 * changes (§27) is one: the submission then waits for the artist, and their new version starts the
 * clock again (`startDecisionClock`).
 */
export const DECISION_STATUSES = ['approved', 'rejected', 'changes_requested'] as const satisfies readonly SubmissionStatus[];

/** Whether moving into `status` is a decision. */
export const isDecisionStatus = (status: string): boolean => (DECISION_STATUSES as readonly string[]).includes(status);

/**
 * The statuses in which a submitted, undecided submission waits for the team: the queue, the
 * reminders and the late sweep look only at these (and only while no decision was recorded).
 */
export const WAITING_STATUSES = ['pending', 'under_review'] as const satisfies readonly SubmissionStatus[];

/**
 * A submission still on someone's plate, for fair assignment (CONTRACT §26): not a draft, not
 * awaiting payment, not finished, turned down or archived. One waiting for the artist's new
 * version (§27) stays its assignee's: it comes back to them.
 */
export const OPEN_WORK_STATUSES = ['pending', 'under_review', 'changes_requested', 'approved', 'in_creation'] as const satisfies readonly SubmissionStatus[];

/** DECISION_DAYS' default: the label's own promise, per plan, in days (fractions allowed). */
export const DEFAULT_DECISION_DAYS: Record<PricingTier, number> = { professional: 3, premium: 5, basic: 7, free: 30 };

/** The first reminder goes out when this share of the decision time has passed. */
export const DECISION_REMINDER_SHARE = 0.75;

/** The label's kind close of a free submission nobody decided in time (LATE_DECISION_MESSAGE's default). */
export const defaultLateDecisionMessage = (labelName: string): string =>
  `Thank you for sending us your music. We could not give it the answer it deserved by the date we promised, so it is not selected this time. ` +
  `That says nothing about the music: we would love to hear your next track. — ${labelName}`;

/** GET /api/submissions/{id}'s `queue`: 1 = next; null position once it no longer waits. */
export interface QueuePlace {
  position: number | null;
  decisionDueAt: string | null;
}

/** What the artist reads beside a waiting submission ("Decision by {date}"). */
export const decisionByText = (date: string): string => `Decision by ${date}`;
/** Their place in the team's queue. */
export const queuePlaceText = (position: number): string => (position === 1 ? 'Next in the queue' : `Number ${position} in the queue`);

/** The desk's decision filters (`?decision=`). */
export const DECISION_FILTERS = ['overdue', 'today'] as const;
export type DecisionFilter = (typeof DECISION_FILTERS)[number];

/** The label's settings for all of this (DECISION_DAYS, LATE_DECISION, LATE_DECISION_MESSAGE, AUTO_ASSIGN). */
export interface DecisionSettings {
  days: Record<PricingTier, number>;
  /** LATE_DECISION=on: a late paid submission is refunded, a late free one closed; off: reminders only. */
  late: boolean;
  lateMessage: string;
  autoAssign: boolean;
}
