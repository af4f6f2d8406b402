import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ArtistStats } from '@shared/submission-schemas';
import { DASHBOARD_FILTER_STATUSES, type SubmissionStatus } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { submissions } from '../../platform/db/schema';

/** The card's count, by the statuses it stands for (DASHBOARD_FILTER_STATUSES). */
const countWhereStatus = (status: SubmissionStatus) =>
  sql<number>`(count(*) filter (where ${inArray(submissions.status, [...(DASHBOARD_FILTER_STATUSES[status] ?? [status])])}))::int`;

function prepareArtistStats(db: Db) {
  return db
    .select({
      total: sql<number>`count(*)::int`,
      approved: countWhereStatus('approved'),
      underReview: countWhereStatus('under_review'),
      completed: countWhereStatus('completed'),
    })
    .from(submissions)
    .where(and(eq(submissions.userId, sql.placeholder('userId')), ne(submissions.status, 'draft')))
    .prepare('artist_stats');
}
/** Prepared once per database: the hot read skips building and planning the query again. */
const prepared = new WeakMap<Db, ReturnType<typeof prepareArtistStats>>();

/**
 * GET /api/stats: the caller's counts in one aggregate query over the (user_id, created_at) index.
 * Drafts have not gone to the label, so they are not counted (CONTRACT §12).
 */
export async function artistStats(db: Db, userId: string): Promise<ArtistStats> {
  let statement = prepared.get(db);
  if (!statement) prepared.set(db, (statement = prepareArtistStats(db)));
  const [row] = await statement.execute({ userId });
  return row ?? { total: 0, approved: 0, underReview: 0, completed: 0 };
}
