import { and, eq, getTableColumns } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/client';
import { submissions, type SubmissionRow } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';

/**
 * The caller's own submission, its row locked FOR UPDATE for the rest of `tx` (`columns` of it, or
 * the whole row): anyone else's, or one that does not exist, is 404 (CONTRACT §2). What a change by
 * the artist (a draft's edit or submit, a revision request, a signature, the owners) checks next is
 * the caller's.
 */
export async function lockOwnSubmission(tx: Tx, userId: string, submissionId: string): Promise<SubmissionRow>;
export async function lockOwnSubmission<Columns extends SelectedFields>(
  tx: Tx,
  userId: string,
  submissionId: string,
  columns: Columns,
): Promise<SelectResultFields<Columns>>;
export async function lockOwnSubmission(tx: Tx, userId: string, submissionId: string, columns?: SelectedFields): Promise<unknown> {
  const rows: unknown[] = await tx
    .select(columns ?? getTableColumns(submissions))
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.userId, userId)))
    .for('update');
  const row = rows[0];
  if (!row) throw apiError('submission_not_found');
  return row;
}
