import { SHARE_MISSING_TEXT } from '@shared/payees';
import { Flame, Sparkles } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { BonusState } from '@shared/production';
import { PRODUCTION_TEXTS, VIRAL_HITS_NEEDED } from '@shared/production-texts';
import { formatUsd } from '@shared/submissions';
import { useBonus } from '@client/entities/submission/production-queries';
import { formatLongDate } from '@client/lib/format';
import { cn } from '@client/lib/utils';
import { ViewsChart } from './views-chart';

type BonusTrack = BonusState['tracks'][number];

/** The track the card opens on: the newest still being counted, else the newest. */
const firstShown = (tracks: BonusTrack[]) => (tracks.find((t) => t.viralHit === null) ?? tracks[0])!.submissionId;

/** Where a track's 14-day count stands, in a few words. */
function countText(track: BonusTrack): string {
  if (track.viralHit !== null) return `${track.viewsAt14Days!.toLocaleString('en-US')} views · ${hitWord(track)}`;
  return new Date(track.checkAt) <= new Date() ? PRODUCTION_TEXTS.countPending : PRODUCTION_TEXTS.countWaiting;
}

/** A hit in plain words (CONTRACT §25): counted, under review, not counted, or withdrawn; never an accusation. */
function hitWord(track: BonusTrack): string {
  if (!track.viralHit) return 'Not a hit';
  if (track.withdrawn) return 'No longer counts';
  if (track.screen?.status === 'suspect') return 'Under review';
  if (track.screen?.status === 'rejected') return 'Not counted';
  return 'Viral hit';
}

/** What the artist reads about a hit the screen held back or the second look withdrew; null for an ordinary one. */
function screenNote(track: BonusTrack): string | null {
  if (track.withdrawn) return PRODUCTION_TEXTS.withdrawn;
  if (track.screen?.status === 'suspect') return PRODUCTION_TEXTS.underReview;
  if (track.screen?.status === 'rejected') return track.screen.review?.reason ? PRODUCTION_TEXTS.notCountedBecause(track.screen.review.reason) : PRODUCTION_TEXTS.notCounted;
  return null;
}

/**
 * The viral bonus (SPEC §1, CONTRACT §13, §16): "Viral hits: N of 3", what a track earns once the
 * bonus is unlocked, one line per published track, and one chart of the chosen track's 14 days.
 * One chart, not one per track: five tracks drew ~2,200 px of charts above the submissions
 * (issue 36). `payoutNote` says whether the artist's payout account is ready (the page knows it).
 */
export function BonusCard({ payoutNote }: { payoutNote?: ReactNode }) {
  const bonus = useBonus();
  const state = bonus.data;
  const [chosen, setChosen] = useState<string | null>(null);
  if (!state || state.tracks.length === 0) return null;
  const track = state.tracks.find((t) => t.submissionId === chosen) ?? state.tracks.find((t) => t.submissionId === firstShown(state.tracks))!;
  const owed = state.earnings.filter((e) => e.status === 'owed').reduce((sum, e) => sum + Number(e.amount), 0);
  const paid = state.earnings.filter((e) => e.status === 'paid').reduce((sum, e) => sum + Number(e.amount), 0);
  const toDeduct = state.clawbacks.filter((c) => c.deductedAt === null).reduce((sum, c) => sum + Number(c.amount), 0);
  const note = screenNote(track);
  const perTrack = Number(state.bonusPerTrack) > 0 ? formatUsd(state.bonusPerTrack) : null;
  return (
    // grid-cols-1 is minmax(0, 1fr): a long title is cut, not widening the page.
    <section aria-labelledby="bonus-heading" className="grid min-w-0 grid-cols-1 gap-4 rounded-xl border bg-card p-4 sm:p-6" data-testid="bonus-card">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="bonus-heading" className="flex items-center gap-2 text-lg font-semibold">
          <Flame className="size-5 text-primary-soft" aria-hidden />
          {PRODUCTION_TEXTS.viralHits(state.viralHits)}
        </h2>
        <ViralHitsProgress hits={state.viralHits} />
      </div>
      <p className="text-sm text-muted-foreground" data-testid="bonus-rule">
        {state.unlocked ? (
          <span className="flex items-center gap-1 font-medium text-foreground">
            <Sparkles className="size-4 shrink-0" aria-hidden />
            Bonus unlocked: every track published from now on earns you money.
          </span>
        ) : (
          'A hit is a video that reaches half the channel’s subscribers in views within 14 days. Three hits unlock a bonus for every track published after.'
        )}
        {perTrack ? <span className="block">{` Each of those tracks earns ${perTrack}, paid into your payout account.`}</span> : null}
      </p>
      {payoutNote}

      <div className="grid grid-cols-1 gap-3 md:grid-cols-2 md:items-start">
        <ul className="grid min-w-0 grid-cols-1 gap-1" aria-label="Your published tracks">
          {state.tracks.map((t) => {
            const selected = t.submissionId === track.submissionId;
            return (
              <li key={t.submissionId}>
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => setChosen(t.submissionId)}
                  className={cn(
                    'grid w-full min-w-0 grid-cols-1 gap-0.5 rounded-lg border px-3 py-2 text-left text-sm transition-colors hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                    selected ? 'border-primary bg-primary/10' : 'border-border',
                  )}
                  data-testid="bonus-track"
                >
                  <span className="truncate font-medium">{t.songTitle || 'Untitled'}</span>
                  <span className={cn('text-xs', t.countsAsHit ? 'text-primary-soft' : 'text-muted-foreground')}>{countText(t)}</span>
                </button>
              </li>
            );
          })}
        </ul>
        <div className="grid min-w-0 grid-cols-1 gap-2 rounded-lg border p-3 text-sm" data-testid="bonus-track-detail" aria-live="polite">
          <p className="flex flex-wrap items-baseline justify-between gap-x-3">
            <a href={track.videoUrl} target="_blank" rel="noopener noreferrer" className="min-w-0 truncate font-medium hover:underline">
              {track.songTitle || 'Untitled'}
            </a>
            <span className="text-xs text-muted-foreground">Published {formatLongDate(track.publishedAt)}</span>
          </p>
          <p className="text-xs text-muted-foreground">
            Needs {track.viewsNeeded.toLocaleString('en-US')} views · {track.viralHit === null ? 'counted on' : 'counted'} {formatLongDate(track.checkAt)}
          </p>
          {note ? (
            <p className="rounded-md bg-secondary px-2 py-1.5 text-xs text-secondary-foreground" data-testid="bonus-screen-note">
              {note}
            </p>
          ) : null}
          <ViewsChart days={track.dailyViews} viewsNeeded={track.viewsNeeded} publishedAt={track.publishedAt} />
        </div>
      </div>

      {state.earnings.length ? (
        <div className="grid min-w-0 grid-cols-1 gap-2 text-sm">
          <p>
            Earned: {formatUsd(owed + paid)} ({formatUsd(paid)} paid, {formatUsd(owed)} to be paid)
          </p>
          <ul className="grid grid-cols-1 gap-1" aria-label="Your bonus earnings" data-testid="bonus-earnings">
            {state.earnings.map((earning) => (
              <li key={earning.submissionId} className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="min-w-0 truncate">
                  {earning.songTitle || 'Untitled'}: {formatUsd(earning.amount)}
                </span>
                <span className={cn('text-xs', earning.status === 'paid' ? 'text-success' : 'text-muted-foreground')}>
                  {earning.status === 'void'
                    ? PRODUCTION_TEXTS.earningVoid
                    : earning.status === 'paid' && earning.paidAt
                      ? `Paid ${formatLongDate(earning.paidAt)}`
                      : 'To be paid'}
                </span>
                {/* With co-owners, each one's share and what it waits for (CONTRACT §24). */}
                {earning.shares.length > 1 ? (
                  <ul className="w-full border-l-2 pl-2 text-xs text-muted-foreground" data-testid="bonus-shares">
                    {earning.shares.map((share) => (
                      <li key={share.ownerId}>
                        {share.ownerId === 0 ? 'You' : share.name}, {share.share}%: {formatUsd(share.amount)} ·{' '}
                        {share.status === 'paid'
                          ? 'paid'
                          : share.missing.length > 0
                            ? `waits: ${share.missing.map((m) => SHARE_MISSING_TEXT[m].toLowerCase()).join(', ')}`
                            : 'ready'}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
          {toDeduct > 0 ? (
            <p className="text-xs text-muted-foreground" data-testid="bonus-clawback">
              {PRODUCTION_TEXTS.clawbackLine(formatUsd(toDeduct))}: a hit no longer counts, and nothing is charged to your card.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * The hits so far as dots, with what they count toward in words beside them: the words are the
 * dots' label, seen and read (issue 43: three unlabelled grey dots).
 */
export function ViralHitsProgress({ hits }: { hits: number }) {
  return (
    <p className="flex items-center gap-2 text-xs text-muted-foreground" data-testid="viral-hits-progress">
      <span className="flex gap-1.5" aria-hidden>
        {Array.from({ length: VIRAL_HITS_NEEDED }, (_, i) => (
          <span key={i} className={cn('size-3 rounded-full', i < hits ? 'bg-primary' : 'bg-muted-foreground/40')} />
        ))}
      </span>
      {PRODUCTION_TEXTS.hitsToGo(hits)}
    </p>
  );
}
