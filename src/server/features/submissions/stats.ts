import { and, eq, ne, sql } from 'drizzle-orm';
import type { ArtistStats } from '@shared/submission-schemas';
import type { Db } from '../../platform/db/client';
import { submissions } from '../../platform/db/schema';

const countWhereStatus = (status: string) =>
  sql<number>`(count(*) filter (where ${submissions.status} = ${status}))::int`;

/**
 * GET /api/stats: the caller's counts in one aggregate query over the (user_id, created_at) index.
 * Drafts have not gone to the label, so they are not counted (CONTRACT §12).
 */
export async function artistStats(db: Db, userId: string): Promise<ArtistStats> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      approved: countWhereStatus('approved'),
      underReview: countWhereStatus('under_review'),
      completed: countWhereStatus('completed'),
    })
    .from(submissions)
    .where(and(eq(submissions.userId, userId), ne(submissions.status, 'draft')));
  return row ?? { total: 0, approved: 0, underReview: 0, completed: 0 };
}
