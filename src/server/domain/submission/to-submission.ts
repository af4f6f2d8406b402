import { standingDueAt } from '@shared/production';
import { ownersOf } from '@shared/rights';
import type { Submission } from '@shared/submission-schemas';
import type { SubmissionRow } from '../../platform/db/schema';

/**
 * A submission row as its artist sees it: no internal notes, dates as ISO strings (CONTRACT §4),
 * and whether the label changed its status or review since the artist last opened it (every
 * status change by the team stamps `adminReviewedAt`).
 *
 * Written as a spread with the hidden fields set to undefined (which no serialiser writes) rather
 * than a rest destructuring that leaves them out: V8 copies a rest with exclusions property by
 * property, about three times slower, and a page of the list maps 50 rows (issue 16).
 */
export function toSubmission(row: Omit<SubmissionRow, 'adminNotes'> & { adminNotes?: unknown }): Submission {
  const { artistSeenAt, adminReviewedAt } = row;
  const submission = {
    ...row,
    // A deadline that no longer stands (turned down, refunded, published) is no to-do (issue 43 item 10).
    dueAt: standingDueAt(row)?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    refundRequestedAt: row.refundRequestedAt?.toISOString() ?? null,
    termsAcceptedAt: row.termsAcceptedAt?.toISOString() ?? null,
    cutApprovedAt: row.cutApprovedAt?.toISOString() ?? null,
    owners: ownersOf(row),
    allowlistDoneAt: row.allowlistDoneAt?.toISOString() ?? null,
    allowlistDoneBy: undefined,
    // CONTRACT §26: the date the label promised an answer by, while it runs (a decision stops it);
    // the clock's bookkeeping stays inside.
    decisionDueAt: row.decidedAt === null ? (row.decisionDueAt?.toISOString() ?? null) : null,
    decisionClockAt: undefined,
    decidedAt: undefined,
    decisionRemindedAt: undefined,
    decisionOverdueAt: undefined,
    lateDecisionAt: undefined,
    hasUnseenUpdate: adminReviewedAt !== null && (artistSeenAt === null || adminReviewedAt > artistSeenAt),
    adminReviewedAt: adminReviewedAt ? adminReviewedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  submission.adminNotes = undefined;
  (submission as { artistSeenAt?: Date | null }).artistSeenAt = undefined;
  return submission;
}
