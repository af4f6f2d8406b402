import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { DEFAULT_DECISION_DAYS, defaultLateDecisionMessage, OPEN_WORK_STATUSES, type DecisionSettings } from '@shared/decisions';
import { PRODUCT_NAME } from '@shared/brand';
import type { Tx } from '../../platform/db/client';
import { submissionDesk, submissions, users } from '../../platform/db/schema';
import { recordHistory } from './history';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The label's decision settings (CONTRACT §26), handed over by the app when it is built
 * (`useDecisionSettings`): the clock's writer keeps the signature it shares with §27's new
 * versions, `(tx, submissionId, now)`, so the plans' days are read from here, not passed in.
 * Every instance of one deployment has the same configuration, so one value per process holds.
 */
let settings: DecisionSettings = {
  days: { ...DEFAULT_DECISION_DAYS },
  late: true,
  lateMessage: defaultLateDecisionMessage(PRODUCT_NAME),
  autoAssign: false,
};

export function useDecisionSettings(next: DecisionSettings): void {
  settings = next;
}

export const decisionSettings = (): DecisionSettings => settings;

/**
 * THE writer of a submission's decision clock (CONTRACT §26, §27): the label promises an answer
 * within the plan's decision days from `now` (the payment's success; free: the submission; a new
 * version of §27). Sets the date, clears a decision recorded before and the reminders and late
 * action already sent, so the new period is reminded and kept like the first. In the caller's
 * transaction, with the change that starts it.
 */
export async function startDecisionClock(tx: Tx, submissionId: string, now: Date): Promise<void> {
  const [row] = await tx.select({ tier: submissions.pricingTier }).from(submissions).where(eq(submissions.id, submissionId)).limit(1);
  if (!row) return;
  const decisionDueAt = new Date(now.getTime() + Math.round(settings.days[row.tier] * DAY_MS));
  await tx
    .update(submissions)
    .set({ decisionClockAt: now, decisionDueAt, decidedAt: null, decisionRemindedAt: null, decisionOverdueAt: null, lateDecisionAt: null })
    .where(eq(submissions.id, submissionId));
}

/**
 * A decision was made (the status moved into DECISION_STATUSES, through the one transition): the
 * clock stops, and with it the queue place, the reminders and the late action.
 */
export async function stopDecisionClocks(tx: Tx, submissionIds: readonly string[], now: Date): Promise<void> {
  if (submissionIds.length === 0) return;
  await tx
    .update(submissions)
    .set({ decidedAt: now })
    .where(and(inArray(submissions.id, [...submissionIds]), isNull(submissions.decidedAt)));
}

/**
 * AUTO_ASSIGN=on (CONTRACT §26): a submission that reaches the team unassigned goes to the admin
 * with the fewest open assigned submissions (OPEN_WORK_STATUSES), ties to the one assigned least
 * recently (never assigned: first), skipping admins who are away. One instance assigns at a time
 * (a transaction-scoped advisory lock), so two submissions arriving together are counted one after
 * the other. Answers the assignee, or null (off, already assigned, nobody available).
 */
export async function autoAssign(tx: Tx, submissionId: string, now: Date): Promise<string | null> {
  if (!settings.autoAssign) return null;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('submission-auto-assign'))`);
  const [current] = await tx.select({ assigneeId: submissionDesk.assigneeId }).from(submissionDesk).where(eq(submissionDesk.submissionId, submissionId)).limit(1);
  if (current?.assigneeId) return null;
  const open = sql.join(OPEN_WORK_STATUSES.map((s) => sql`${s}`), sql`, `);
  const [choice] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deletedAt), isNull(users.awayAt)))
    .orderBy(
      sql`(select count(*) from ${submissionDesk} d join ${submissions} s on s.id = d.submission_id
            where d.assignee_id = ${users.id} and s.status in (${open})) asc`,
      sql`(select max(d.assigned_at) from ${submissionDesk} d where d.assignee_id = ${users.id}) asc nulls first`,
      users.createdAt,
      users.id,
    )
    .limit(1);
  if (!choice) return null;
  await tx
    .insert(submissionDesk)
    .values({ submissionId, assigneeId: choice.id, assignedAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: submissionDesk.submissionId, set: { assigneeId: choice.id, assignedAt: now, updatedAt: now } });
  await recordHistory(tx, submissionId, { kind: 'assignee', by: null, from: null, to: choice.id, at: now });
  return choice.id;
}
