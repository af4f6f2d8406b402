import { CircleCheck, Clock, Hourglass, ListMusic, type LucideIcon } from 'lucide-react';
import type { AdminStats } from '@shared/submission-schemas';
import { STATUS_LABELS, type SubmissionStatus } from '@shared/submissions';
import { cn } from '@client/lib/utils';

const CARDS: { key: Exclude<keyof AdminStats, 'awaitingPayment'>; label: string; status: 'all' | SubmissionStatus; icon: LucideIcon; tone: string }[] = [
  { key: 'total', label: 'Total', status: 'all', icon: ListMusic, tone: 'bg-primary/15 text-primary-soft' },
  { key: 'pending', label: STATUS_LABELS.pending, status: 'pending', icon: Hourglass, tone: 'bg-secondary text-secondary-foreground' },
  { key: 'underReview', label: STATUS_LABELS.under_review, status: 'under_review', icon: Clock, tone: 'bg-warning/15 text-warning' },
  { key: 'approved', label: STATUS_LABELS.approved, status: 'approved', icon: CircleCheck, tone: 'bg-success/15 text-success' },
];

const number = new Intl.NumberFormat('en-US');

/**
 * The four counts of SPEC §2; a card also filters the list by its status. Pending is the team's
 * queue; submissions awaiting the artist's payment are noted under it, not counted in it.
 */
export function AdminStatCards({ stats, status, onStatus }: { stats: AdminStats | undefined; status: string; onStatus(status: string): void }) {
  return (
    <div role="group" aria-label="Submission counts" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {CARDS.map(({ key, label, status: value, icon: Icon, tone }) => (
        <button
          key={key}
          type="button"
          aria-pressed={status === value}
          onClick={() => onStatus(value)}
          className={cn(
            'flex cursor-pointer items-center gap-3 rounded-xl border bg-card px-3 py-1.5 text-left transition-colors outline-none hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring',
            status === value && 'border-primary bg-primary/10',
          )}
        >
          <span className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg', tone)}>
            <Icon className="size-4" aria-hidden />
          </span>
          <span className="flex min-w-0 items-baseline gap-2">
            <span className="text-xl leading-tight font-semibold tabular-nums" data-testid={`admin-stat-${key}`}>
              {stats ? number.format(stats[key]) : '–'}
            </span>
            <span className="flex min-w-0 flex-col">
              <span className="truncate text-xs text-muted-foreground sm:text-sm">{label}</span>
              {key === 'pending' && stats && stats.awaitingPayment > 0 ? (
                <span className="truncate text-[11px] leading-tight text-muted-foreground" data-testid="admin-stat-awaiting-payment">
                  <span className="sm:hidden">+{number.format(stats.awaitingPayment)} unpaid</span>
                  <span className="hidden sm:inline">+{number.format(stats.awaitingPayment)} awaiting payment</span>
                </span>
              ) : null}
            </span>
          </span>
        </button>
      ))}
    </div>
  );
}
