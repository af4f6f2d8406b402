import { REFUND_REASON_TEAM_LABEL } from '@shared/billing';
import { REFUND_REASONS, type RefundReason } from '@shared/submissions';
import { History } from 'lucide-react';
import { statusLabel } from '@shared/submissions';
import type { SubmissionHistoryEntry } from '@shared/admin';
import { Spinner } from '@client/components/ui/spinner';
import { formatLongDateTime } from '@client/lib/format';
import { useSubmissionHistory, useTeam } from './admin-queries';
import { DetailsSection } from '@client/components/details-section';

/** A history row's refund reason, when it names one this version knows. */
const isRefundReason = (value: string | null): value is RefundReason => (REFUND_REASONS as readonly (string | null)[]).includes(value);

function describe(entry: SubmissionHistoryEntry, nameOf: (id: string) => string): { action: string; detail?: string } {
  switch (entry.field) {
    case 'status':
      return { action: `changed the status from ${statusLabel(entry.fromValue)} to ${statusLabel(entry.toValue)}` };
    case 'payment_status':
      return { action: `payment status changed from ${entry.fromValue ?? 'none'} to ${entry.toValue ?? 'none'}` };
    case 'review':
      return entry.toValue ? { action: 'wrote the review for the artist', detail: entry.toValue } : { action: 'removed the review' };
    case 'notes':
      return entry.toValue ? { action: 'updated the internal notes', detail: entry.toValue } : { action: 'cleared the internal notes' };
    case 'assignee':
      return entry.toValue ? { action: `assigned it to ${nameOf(entry.toValue)}` } : { action: 'removed the assignee' };
    case 'tags':
      return entry.toValue ? { action: `set the tags to ${entry.toValue}` } : { action: 'removed every tag' };
    case 'delivery':
      return { action: 'delivered files to the artist', ...(entry.toValue ? { detail: entry.toValue } : {}) };
    case 'revision':
      return { action: `artist asked for revision ${entry.fromValue ?? ''}`.trim(), ...(entry.toValue ? { detail: entry.toValue } : {}) };
    case 'refund':
      return { action: `refunded the payment (${isRefundReason(entry.toValue) ? REFUND_REASON_TEAM_LABEL[entry.toValue] : 'by the team'})` };
    case 'publication':
      return { action: 'recorded the publication', ...(entry.toValue ? { detail: readableTimes(entry.toValue) } : {}) };
    case 'views':
      return { action: `recorded ${entry.toValue ?? 'no'} views at 14 days${entry.fromValue ? ` (was ${entry.fromValue})` : ''}` };
    case 'owners':
      return { action: 'changed the owners', ...(entry.toValue ? { detail: entry.toValue } : {}) };
    case 'agreement':
      return { action: 'recorded a signature of the licence agreement', ...(entry.toValue ? { detail: entry.toValue } : {}) };
    case 'allowlist':
      return { action: entry.toValue ? 'marked the Content ID allowlist done' : 'marked the Content ID allowlist not done' };
    case 'rights_override':
      return { action: `published without ${entry.fromValue ?? 'the rights'}`, ...(entry.toValue ? { detail: `Reason: ${entry.toValue}` } : {}) };
    case 'version':
      return { action: `sent a new version: round ${entry.toValue ?? '?'} (was round ${entry.fromValue ?? '1'})` };
    case 'viral_review':
      return entry.fromValue
        ? { action: `${entry.toValue?.startsWith('confirmed') ? 'confirmed' : 'rejected'} the viral hit`, ...(entry.toValue ? { detail: `Reason: ${entry.toValue.replace(/^(confirmed|rejected): /, '')}` } : {}) }
        : { action: 'the viral screen found the hit suspect', ...(entry.toValue ? { detail: entry.toValue.replace(/^suspect: /, '') } : {}) };
    case 'viral_hit':
      return { action: 'the second look at 28 days withdrew the viral hit', ...(entry.toValue ? { detail: entry.toValue } : {}) };
  }
}

/** Who changed status, review and notes, and when (CONTRACT §8), newest first. */
export function SubmissionHistory({ submissionId }: { submissionId: string }) {
  const history = useSubmissionHistory(submissionId);
  const team = useTeam();
  const nameOf = (id: string) => team.data?.find((m) => m.id === id)?.name ?? 'a former team member';
  const entries = [...(history.data ?? [])].reverse();
  return (
    <DetailsSection id="history-heading" icon={History} title="History" className="grid gap-3">
      {history.isLoading ? (
        <Spinner label="Loading history" />
      ) : history.isError ? (
        <p className="text-sm text-muted-foreground">The history could not be loaded.</p>
      ) : entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">No status or note changes yet.</p>
      ) : (
        <ol className="grid gap-3 border-l border-border pl-4" data-testid="submission-history">
          {entries.map((entry) => {
            const { action, detail } = describe(entry, nameOf);
            return (
              <li key={entry.id} className="relative grid gap-0.5 text-sm">
                <span className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-primary" aria-hidden />
                <p className="break-words">
                  <span className="font-medium">{entry.actor?.name ?? 'System'}</span> {action}
                </p>
                {detail ? <p className="line-clamp-3 text-xs break-words whitespace-pre-line text-muted-foreground">“{detail}”</p> : null}
                <time dateTime={entry.createdAt} className="text-xs text-muted-foreground">
                  {formatLongDateTime(entry.createdAt)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
    </DetailsSection>
  );
}

/** "{url} at 2026-11-25T17:04:30.000Z", as the server records it, with the moment as a local date and time. */
function readableTimes(text: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b/g, (iso) => formatLongDateTime(iso));
}
