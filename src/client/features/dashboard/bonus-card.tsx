import { Flame, Sparkles } from 'lucide-react';
import { Link } from 'wouter';
import { PRODUCTION_TEXTS, VIRAL_HITS_NEEDED } from '@shared/production-texts';
import { formatUsd } from '@shared/submissions';
import { useBonus } from '@client/entities/submission/production-queries';
import { formatLongDate } from '@client/lib/format';
import { cn } from '@client/lib/utils';
import { ViewsChart } from './views-chart';

/**
 * The viral bonus (SPEC §1, CONTRACT §13): "Viral hits: N of 3", each published track with the
 * views it needs, the date of its check and its result, and what the artist has earned.
 * Shown once the artist has a published track.
 */
export function BonusCard() {
  const bonus = useBonus();
  const state = bonus.data;
  if (!state || state.tracks.length === 0) return null;
  const owed = state.earnings.filter((e) => e.status === 'owed').reduce((sum, e) => sum + Number(e.amount), 0);
  const paid = state.earnings.filter((e) => e.status === 'paid').reduce((sum, e) => sum + Number(e.amount), 0);
  return (
    <section aria-labelledby="bonus-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6" data-testid="bonus-card">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="bonus-heading" className="flex items-center gap-2 text-lg font-semibold">
          <Flame className="size-5 text-primary-soft" aria-hidden />
          {PRODUCTION_TEXTS.viralHits(state.viralHits)}
        </h2>
        <div className="flex gap-1.5" aria-hidden>
          {Array.from({ length: VIRAL_HITS_NEEDED }, (_, i) => (
            <span key={i} className={cn('size-3 rounded-full', i < state.viralHits ? 'bg-primary' : 'bg-muted')} />
          ))}
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        {state.unlocked ? (
          <span className="inline-flex items-center gap-1 font-medium text-foreground">
            <Sparkles className="size-4" aria-hidden />
            Bonus unlocked: every track published from now on earns you money.
          </span>
        ) : (
          'A hit is a video that reaches half the channel’s subscribers in views within 14 days. Three hits unlock a bonus for every track published after.'
        )}
      </p>
      <ul className="grid gap-2" aria-label="Your published tracks">
        {state.tracks.map((track) => (
          <li key={track.submissionId} className="grid gap-1 rounded-lg border p-3 text-sm sm:grid-cols-[1fr_auto] sm:items-center">
            <span className="grid min-w-0">
              <a href={track.videoUrl} target="_blank" rel="noopener noreferrer" className="truncate font-medium hover:underline">
                {track.songTitle || 'Untitled'}
              </a>
              <span className="text-xs text-muted-foreground">
                Needs {track.viewsNeeded.toLocaleString('en-US')} views · {track.viralHit === null ? 'counted on' : 'counted'} {formatLongDate(track.checkAt)}
              </span>
            </span>
            <span
              className={cn(
                'justify-self-start rounded-full px-2.5 py-0.5 text-xs font-medium sm:justify-self-end',
                track.viralHit === true ? 'bg-primary/20 text-primary-soft' : track.viralHit === false ? 'bg-muted text-muted-foreground' : 'bg-secondary text-secondary-foreground',
              )}
            >
              {track.viralHit === null
                ? new Date(track.checkAt) <= new Date()
                  ? PRODUCTION_TEXTS.countPending
                  : PRODUCTION_TEXTS.countWaiting
                : `${track.viewsAt14Days!.toLocaleString('en-US')} views · ${track.viralHit ? 'Viral hit' : 'Not a hit'}`}
            </span>
            {track.dailyViews.length > 0 ? (
              <div className="sm:col-span-2">
                <ViewsChart days={track.dailyViews} viewsNeeded={track.viewsNeeded} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {state.earnings.length ? (
        <div className="grid gap-2 text-sm">
          <p>
            Earned: {formatUsd(owed + paid)} ({formatUsd(paid)} paid, {formatUsd(owed)} to be paid)
          </p>
          <ul className="grid gap-1" aria-label="Your bonus earnings" data-testid="bonus-earnings">
            {state.earnings.map((earning) => (
              <li key={earning.submissionId} className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="min-w-0 truncate">
                  {earning.songTitle || 'Untitled'}: {formatUsd(earning.amount)}
                </span>
                <span className={cn('text-xs', earning.status === 'paid' ? 'text-success' : 'text-muted-foreground')}>
                  {earning.status === 'paid' && earning.paidAt ? `Paid ${formatLongDate(earning.paidAt)}` : 'To be paid'}
                </span>
              </li>
            ))}
          </ul>
          {owed > 0 ? (
            <p className="text-xs text-muted-foreground">
              Bonuses are paid into your Stripe account:{' '}
              <Link href="/settings/billing" className="underline underline-offset-2 hover:text-foreground">
                set up payouts in Billing
              </Link>
              .
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
