import { and, count, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { WAITING_STATUSES, type QueuePlace } from '@shared/decisions';
import type { Db, Tx } from '../../platform/db/client';
import { submissions, type SubmissionRow } from '../../platform/db/schema';

/**
 * The team's queue (CONTRACT §26, decision 196): every submission that waits for a decision: its
 * clock runs (a decision date, no decision recorded since) and its status is one of WAITING_STATUSES.
 */
export const waitingForDecision = (): SQL =>
  and(isNotNull(submissions.decisionDueAt), isNull(submissions.decidedAt), inArray(submissions.status, [...WAITING_STATUSES]))!;

/** Paid before free (0 before 1): the queue's first key. */
const freeLast = sql`(case when ${submissions.pricingTier} = 'free' then 1 else 0 end)`;

/** The desk's order of the queue: paid before free, then the soonest decision date, then the id. */
export const queueOrder = (): SQL[] => [sql`${freeLast} asc`, sql`${submissions.decisionDueAt} asc`, sql`${submissions.id} asc`];

export function isWaitingForDecision(row: Pick<SubmissionRow, 'decisionDueAt' | 'decidedAt' | 'status'>): boolean {
  return row.decisionDueAt !== null && row.decidedAt === null && (WAITING_STATUSES as readonly string[]).includes(row.status);
}

/**
 * GET /api/submissions/{id}'s `queue`: the submission's place in the desk's order (1 = next), counted
 * as the waiting submissions before it; null once it no longer waits (decided, or not yet submitted).
 */
export async function queuePlaceOf(
  db: Db | Tx,
  row: Pick<SubmissionRow, 'id' | 'pricingTier' | 'decisionDueAt' | 'decidedAt' | 'status'>,
): Promise<QueuePlace> {
  const decisionDueAt = row.decisionDueAt?.toISOString() ?? null;
  if (!isWaitingForDecision(row)) return { position: null, decisionDueAt };
  const mine = row.pricingTier === 'free' ? 1 : 0;
  const [ahead] = await db
    .select({ n: count() })
    .from(submissions)
    .where(
      and(
        waitingForDecision(),
        sql`(${freeLast}, ${submissions.decisionDueAt}, ${submissions.id}) < (${mine}::int, ${row.decisionDueAt!.toISOString()}::timestamptz, ${row.id})`,
      ),
    );
  return { position: (ahead?.n ?? 0) + 1, decisionDueAt };
}
