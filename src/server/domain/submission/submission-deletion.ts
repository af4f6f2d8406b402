import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client';
import { submissions, uploads } from '../../platform/db/schema';
import { announceSubmissionChange } from './transition';

/**
 * Deletes a submission and the rows of the uploads attached to it, in the caller's transaction,
 * and answers those uploads' ids: the caller removes their bytes (`removeUploadBytes`) after the
 * commit, so a rollback never leaves a row pointing at deleted bytes. Its artist and the team
 * hear of it (`submission_changed`, status null) when the transaction commits.
 *
 * Who may delete what, and the refund owed first, are not decided here: the one removal of a
 * submission (remove-submission.ts) checks, locks and refunds, then calls this.
 */
export async function deleteSubmissionRows(tx: Tx | Db, submissionId: string): Promise<string[]> {
  const files = await tx.delete(uploads).where(eq(uploads.submissionId, submissionId)).returning({ id: uploads.id });
  const [gone] = await tx.delete(submissions).where(eq(submissions.id, submissionId)).returning({ userId: submissions.userId });
  if (gone) await announceSubmissionChange(tx, gone.userId, { submissionId, status: null });
  return files.map((f) => f.id);
}
