import { and, asc, inArray } from 'drizzle-orm';
import { tooManyTagsFor, tooManyTagsInBulkMessage, type BulkAction } from '@shared/review-desk';
import type { Db } from '../../platform/db/client';
import { submissions } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError } from '../../platform/errors';
import { errorText, type FieldError } from '@shared/errors';
import { removeSubmissionRows, type RemovalDeps } from '../../domain/submission/remove-submission';
import { applyStatusChange, notADraft, statusChangeColumns } from './admin-submissions';
import { assignSubmission, changeSubmissionTags, checkAssignee, TooManyTagsError } from './review-desk';

/**
 * POST /api/admin/submissions/bulk (CONTRACT §14): all or nothing, in ONE transaction. A status
 * change goes through the set-based core its single-item route also uses (applyStatusChange: a
 * fixed number of statements, one batch of outbox emails), so history rows and emails come out
 * exactly as if the changes were made one by one. Assign, tag and delete call their single-item
 * functions per submission (each in a savepoint); a delete is the one removal of a submission
 * (`removeSubmissionRows`: refunded under the lock this transaction holds). Answers how many
 * submissions changed and, for a delete, the upload ids whose bytes the caller removes after
 * the commit.
 */
export async function applyBulkAction(
  db: Db,
  outbox: EmailQueue,
  adminId: string,
  action: BulkAction,
  removal: Omit<RemovalDeps, 'db' | 'storage'>,
): Promise<{ updated: number; removedUploadIds: string[] }> {
  return db.transaction(async (tx) => {
    // Locked in id order, so two bulk changes over overlapping sets queue instead of deadlocking.
    const rows = await tx
      .select(statusChangeColumns)
      .from(submissions)
      .where(and(inArray(submissions.id, action.ids), notADraft))
      .orderBy(asc(submissions.id))
      .for('update');
    const owners = new Map(rows.map((r) => [r.id, r.userId]));
    const missing = action.ids.flatMap((id, index) => (owners.has(id) ? [] : [{ path: `ids.${index}`, message: errorText('submission_not_found') }]));
    if (missing.length) throw apiError('submission_not_found', undefined, missing);

    const removedUploadIds: string[] = [];
    if (action.action === 'assign') await checkAssignee(tx, action.assigneeId);
    if (action.action === 'status') {
      // Set-based: the same statements whatever the number of submissions (the single route's code).
      const byId = new Map(rows.map((r) => [r.id, r]));
      const targets = action.ids.map((id) => byId.get(id)!);
      await applyStatusChange(tx, outbox, adminId, targets, { status: action.status, review: action.review });
      return { updated: action.ids.length, removedUploadIds };
    }
    const overfull: FieldError[] = [];
    for (const [index, id] of action.ids.entries()) {
      switch (action.action) {
        case 'assign':
          await assignSubmission(tx, adminId, id, action.assigneeId);
          break;
        case 'tag':
          // Every submission the change would take past the limit is named, then nothing is kept:
          // the refused one's savepoint is rolled back and the throw below ends the transaction.
          try {
            await changeSubmissionTags(tx, adminId, id, { add: action.add, remove: action.remove });
          } catch (error) {
            if (!(error instanceof TooManyTagsError)) throw error;
            overfull.push({ path: `ids.${index}`, message: tooManyTagsFor(error.tagCount) });
          }
          break;
        case 'delete':
          removedUploadIds.push(...(await removeSubmissionRows(tx, removal, id, { kind: 'team', adminId })));
          break;
      }
    }
    if (overfull.length) throw apiError('too_many_tags', tooManyTagsInBulkMessage(overfull.length), overfull);
    return { updated: action.ids.length, removedUploadIds };
  });
}
