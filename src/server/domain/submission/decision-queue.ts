import { and, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
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
 * The places in the desk's order (1 = next) of those of `rows` that wait, in one query however
 * many they are (the dashboard's list page, GET /api/submissions): the queue is numbered once by
 * `queueOrder`, and only the rows asked for are read back. A row that does not wait has no place.
 */
export async function queuePlacesOf(
  db: Db | Tx,
  rows: readonly Pick<SubmissionRow, 'id' | 'decisionDueAt' | 'decidedAt' | 'status'>[],
): Promise<Map<string, number>> {
  const ids = rows.filter(isWaitingForDecision).map((row) => row.id);
  if (ids.length === 0) return new Map();
  const numbered = db
    .select({
      id: submissions.id,
      position: sql<number>`row_number() over (order by ${sql.join(queueOrder(), sql`, `)})`.mapWith(Number).as('position'),
    })
    .from(submissions)
    .where(waitingForDecision())
    .as('numbered');
  const places = await db.select({ id: numbered.id, position: numbered.position }).from(numbered).where(inArray(numbered.id, ids));
  return new Map(places.map(({ id, position }) => [id, position]));
}

/**
 * GET /api/submissions/{id}'s `queue`: the submission's place in the desk's order (1 = next); null
 * once it no longer waits (decided, or not yet submitted).
 */
export async function queuePlaceOf(
  db: Db | Tx,
  row: Pick<SubmissionRow, 'id' | 'decisionDueAt' | 'decidedAt' | 'status'>,
): Promise<QueuePlace> {
  const places = await queuePlacesOf(db, [row]);
  return { position: places.get(row.id) ?? null, decisionDueAt: row.decisionDueAt?.toISOString() ?? null };
}
