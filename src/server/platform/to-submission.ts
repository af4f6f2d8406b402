import type { Submission } from '@shared/submission-schemas';
import type { SubmissionRow } from './db/schema';

/**
 * A submission row as its artist sees it: no internal notes, dates as ISO strings (CONTRACT §4),
 * and whether the label changed its status or review since the artist last opened it (every
 * status change by the team stamps `adminReviewedAt`).
 */
export function toSubmission(row: Omit<SubmissionRow, 'adminNotes'> & { adminNotes?: unknown }): Submission {
  const {
    adminNotes: _adminNotes,
    artistSeenAt,
    createdAt,
    updatedAt,
    adminReviewedAt,
    dueAt,
    deliveredAt,
    refundRequestedAt,
    termsAcceptedAt,
    ...rest
  } = row;
  return {
    ...rest,
    dueAt: dueAt?.toISOString() ?? null,
    deliveredAt: deliveredAt?.toISOString() ?? null,
    refundRequestedAt: refundRequestedAt?.toISOString() ?? null,
    termsAcceptedAt: termsAcceptedAt?.toISOString() ?? null,
    hasUnseenUpdate: adminReviewedAt !== null && (artistSeenAt === null || adminReviewedAt > artistSeenAt),
    adminReviewedAt: adminReviewedAt ? adminReviewedAt.toISOString() : null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}
