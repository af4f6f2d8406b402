import type { Submission } from '@shared/submission-schemas';
import type { SubmissionStatus } from '@shared/submissions';
import type { SubmissionRow } from '../../platform/db/schema';

/** A submission row as its artist sees it: no internal notes, dates as ISO strings (CONTRACT §4). */
export function toSubmission(row: Omit<SubmissionRow, 'adminNotes'> & { adminNotes?: unknown }): Submission {
  const { adminNotes: _adminNotes, createdAt, updatedAt, adminReviewedAt, status, ...rest } = row;
  return {
    ...rest,
    status: status as SubmissionStatus,
    adminReviewedAt: adminReviewedAt ? adminReviewedAt.toISOString() : null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}
