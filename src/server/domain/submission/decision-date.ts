import type { Tx } from '../../platform/db/client';

/**
 * The decision date of CONTRACT §26 starts again from `now` for the submission: called in the
 * transaction that sends it back to the label's queue (a new version, CONTRACT §27).
 *
 * A placeholder that does nothing yet: the decision dates (issue 46) are built beside this issue,
 * and their verb of the same name and signature replaces this one when the two meet.
 */
export async function startDecisionClock(tx: Tx, submissionId: string, now: Date): Promise<void> {
  void tx;
  void submissionId;
  void now;
}
