import { CircleCheck, Clock, ListMusic, Trophy, type LucideIcon } from 'lucide-react';
import type { ArtistStats } from '@shared/submission-schemas';
import { STATUS_LABELS, type DashboardFilter } from '@shared/submissions';
import { cn } from '@client/lib/utils';

const CARDS: { filter: DashboardFilter; label: string; stat: keyof ArtistStats; icon: LucideIcon }[] = [
  { filter: 'all', label: 'All Submissions', stat: 'total', icon: ListMusic },
  { filter: 'approved', label: STATUS_LABELS.approved, stat: 'approved', icon: CircleCheck },
  { filter: 'under_review', label: STATUS_LABELS.under_review, stat: 'underReview', icon: Clock },
  { filter: 'completed', label: STATUS_LABELS.completed, stat: 'completed', icon: Trophy },
];

interface StatCardsProps {
  stats: ArtistStats | undefined;
  filter: DashboardFilter;
  onFilter: (filter: DashboardFilter) => void;
}

/** Four counters that also filter the list below (SPEC §2, §4). */
export function StatCards({ stats, filter, onFilter }: StatCardsProps) {
  return (
    <div role="group" aria-label="Filter submissions by status" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {CARDS.map(({ filter: value, label, stat, icon: Icon }) => {
        const active = filter === value;
        return (
          <button
            key={value}
            type="button"
            aria-pressed={active}
            onClick={() => onFilter(value)}
            className={cn(
              'flex cursor-pointer items-center gap-2.5 rounded-xl border bg-card p-3 text-left sm:gap-3 sm:p-4 transition-colors outline-none hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring',
              active && 'border-primary bg-primary/10',
            )}
          >
            <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary/15 text-primary-soft sm:size-10">
              <Icon className="size-4 sm:size-5" aria-hidden />
            </span>
            <span className="grid min-w-0">
              <span className="text-2xl font-semibold tabular-nums" data-testid={`stat-${value}`}>
                {stats ? stats[stat] : '–'}
              </span>
              {/* Wrapped, never cut: at 360 px "All Submis…" and "Under Rev…" (issue 36). */}
              <span className="text-xs leading-tight text-muted-foreground sm:text-sm">{label}</span>
            </span>
          </button>
        );
      })}
    </div>
  );
}
