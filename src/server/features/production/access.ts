import { and, eq, ne, or, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client';
import { submissions, type SubmissionRow, type UserRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';

/**
 * Who may see a submission's production (deliveries, revisions, publication): its artist and the
 * team. Anyone else, and a draft, is "not found" (CONTRACT §2).
 */
function visibleTo(user: Pick<UserRow, 'id' | 'role'>, id: string): SQL {
  const notDraft = ne(submissions.status, 'draft');
  return user.role === 'admin'
    ? and(eq(submissions.id, id), notDraft)!
    : and(eq(submissions.id, id), notDraft, or(eq(submissions.userId, user.id)))!;
}

export async function findVisibleSubmission(db: Tx | Db, user: Pick<UserRow, 'id' | 'role'>, id: string): Promise<SubmissionRow> {
  const [row] = await db.select().from(submissions).where(visibleTo(user, id)).limit(1);
  if (!row) throw apiError('submission_not_found');
  return row;
}

/** The submission locked for the rest of the transaction, as the team sees it (any artist's, not a draft). */
export async function lockDeskSubmission(tx: Tx | Db, id: string): Promise<SubmissionRow> {
  const [row] = await tx
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, id), ne(submissions.status, 'draft')))
    .for('update');
  if (!row) throw apiError('submission_not_found');
  return row;
}
