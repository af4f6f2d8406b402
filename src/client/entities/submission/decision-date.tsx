import { Hourglass } from 'lucide-react';
import { decisionByText, queuePlaceText, WAITING_STATUSES } from '@shared/decisions';
import type { Submission, SubmissionListItem } from '@shared/submission-schemas';
import { formatLongDate } from '@client/lib/format';
import { useSubmission } from './submission-queries';

/** A queue place moves as the team decides other artists' work: the details read it again every minute while shown. */
const PLACE_REFRESH_MS = 60_000;

/** Whether the label still owes this submission a decision (CONTRACT §26). */
export const awaitsDecision = (submission: Pick<Submission, 'status' | 'decisionDueAt'>): boolean =>
  submission.decisionDueAt !== null && (WAITING_STATUSES as readonly string[]).includes(submission.status);

/**
 * The dashboard row's "Decision by {date}" and the artist's place in the team's queue (CONTRACT §26),
 * while the label owes an answer: both as the list carries them, so the row reads nothing of its own
 * (the list is read again every minute while it shows a place: submission-queries.ts).
 */
export function RowDecisionDate({ submission }: { submission: Pick<SubmissionListItem, 'status' | 'decisionDueAt' | 'queuePosition'> }) {
  if (!awaitsDecision(submission)) return null;
  const position = submission.queuePosition;
  return (
    // Its own line, wrapping on a phone, where the date column is the full width of the card.
    <span className="block text-xs whitespace-normal text-foreground" data-testid="row-decision">
      {decisionByText(formatLongDate(submission.decisionDueAt))}
      {position !== null ? <span className="text-muted-foreground"> · {queuePlaceText(position)}</span> : null}
    </span>
  );
}

/**
 * The same in the submission's details, read with the submission alone (and again every minute while
 * shown): the details may show one no loaded page of the list holds.
 */
export function DecisionDate({ submission }: { submission: Submission }) {
  const waiting = awaitsDecision(submission);
  const details = useSubmission(waiting ? submission.id : null, { refetchInterval: PLACE_REFRESH_MS });
  if (!waiting) return null;
  const date = formatLongDate(details.data?.queue.decisionDueAt ?? submission.decisionDueAt);
  const position = details.data?.queue.position ?? null;
  const overdue = new Date(submission.decisionDueAt!).getTime() < Date.now();
  return (
    <p
      data-testid="decision-promise"
      className={`flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border p-3 text-sm font-medium ${overdue ? 'border-destructive/50 bg-destructive/10' : 'border-primary/40 bg-primary/10'}`}
    >
      <Hourglass className="size-4 shrink-0" aria-hidden />
      <span>{decisionByText(date)}</span>
      {position !== null ? (
        <span className="font-normal text-muted-foreground" data-testid="queue-place">
          {queuePlaceText(position)}
        </span>
      ) : null}
    </p>
  );
}
