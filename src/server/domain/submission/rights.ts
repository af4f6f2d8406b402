import { eq } from 'drizzle-orm';
import { isPublishable } from '@shared/submissions';
import { RIGHTS_PART_LABELS, ownersOf, rightsOverrideSchema, type RightsPart, type RightsState } from '@shared/rights';
import type { Db, Tx } from '../../platform/db/client';
import { agreements, submissions, type SubmissionRow } from '../../platform/db/schema';
import { HttpError, apiError, parseInput } from '../../platform/errors';
import { agreementStatusOf, signaturesOf } from './agreement';
import { recordHistory, type HistoryEntry } from './history';

/** Content ID yes or don't know: the distributor may claim the label's video, so the allowlist step is needed. */
export const needsAllowlist = (contentId: SubmissionRow['contentId']) => contentId !== 'no';

/** What publishing still waits for (CONTRACT §22), in RIGHTS_PARTS' order. */
async function missingRights(tx: Tx | Db, submission: Pick<SubmissionRow, 'id' | 'contentId' | 'allowlistDoneAt'>): Promise<RightsPart[]> {
  const missing: RightsPart[] = [];
  const signatures = await signaturesOf(tx, submission.id);
  if (signatures.length === 0 || agreementStatusOf(signatures) !== 'signed') missing.push('agreement');
  if (needsAllowlist(submission.contentId) && submission.allowlistDoneAt === null) missing.push('allowlist');
  return missing;
}

/**
 * THE publishing gate (CONTRACT §22): both ways a video goes out — publishing on the channel and
 * recording a publication by hand — call this first, with the request's body. Without a signed
 * agreement, or (Content ID yes or don't know) without the allowlist done, it refuses with 409
 * `rights_incomplete` and what is missing, unless the body carries `override: {reason}`: then it
 * answers the history entry of the admin's decision (who and why), which the publishing writes
 * in its own transaction, so a publish that fails leaves no override recorded. Null when nothing
 * is overridden. An unknown or unpublishable submission is left to the route to refuse as it does.
 */
export async function requireRights(db: Db, adminId: string, submissionId: string, body: unknown): Promise<HistoryEntry | null> {
  const [submission] = await db
    .select({ id: submissions.id, contentId: submissions.contentId, allowlistDoneAt: submissions.allowlistDoneAt, status: submissions.status })
    .from(submissions)
    .where(eq(submissions.id, submissionId))
    .limit(1);
  // Not publishable at all (a draft, one not approved): the route refuses it as it does.
  if (!submission || !isPublishable(submission.status)) return null;
  const missing = await missingRights(db, submission);
  if (missing.length === 0) return null;
  const { override } = parseInput(rightsOverrideSchema, body && typeof body === 'object' ? { override: (body as { override?: unknown }).override } : {});
  if (!override) {
    const message = `Publishing waits for ${missing.map((m) => RIGHTS_PART_LABELS[m]).join(' and ')}`;
    throw new HttpError('rights_incomplete', message, undefined, undefined, { missing });
  }
  return { kind: 'rights_override', by: adminId, from: missing.join(', '), to: override.reason, at: new Date() };
}

/** GET /api/admin/submissions/{id}/rights: the desk's rights step. */
export async function rightsState(db: Db, submission: SubmissionRow): Promise<RightsState> {
  const [agreement] = await db.select({ sha256: agreements.sha256 }).from(agreements).where(eq(agreements.submissionId, submission.id));
  const signatures = agreement ? await signaturesOf(db, submission.id) : [];
  return {
    owners: ownersOf(submission),
    agreement: agreement ? { status: agreementStatusOf(signatures), sha256: agreement.sha256 } : null,
    contentId: submission.contentId,
    distributor: submission.distributor,
    isrc: submission.isrc,
    allowlistNeeded: needsAllowlist(submission.contentId),
    allowlistDoneAt: submission.allowlistDoneAt?.toISOString() ?? null,
    missing: await missingRights(db, submission),
  };
}

/** POST /api/admin/submissions/{id}/allowlist {done}: the team marks the allowlist request done (or not), in the history. */
export async function markAllowlist(db: Db, adminId: string, submissionId: string, done: boolean, now: Date): Promise<SubmissionRow> {
  return db.transaction(async (tx) => {
    const [submission] = await tx.select().from(submissions).where(eq(submissions.id, submissionId)).for('update');
    if (!submission || submission.status === 'draft') throw apiError('submission_not_found');
    if (done === (submission.allowlistDoneAt !== null)) return submission;
    const [row] = await tx
      .update(submissions)
      .set({ allowlistDoneAt: done ? now : null, allowlistDoneBy: done ? adminId : null, updatedAt: now })
      .where(eq(submissions.id, submissionId))
      .returning();
    await recordHistory(tx, submissionId, { kind: 'allowlist', by: adminId, from: done ? null : 'done', to: done ? 'done' : null, at: now });
    return row!;
  });
}
