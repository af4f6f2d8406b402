import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { EXTERNAL_TRAFFIC_SOURCES, VIRAL_REVIEW_REASON_MAX, type DailyViews, type Publication, type TrafficSource, type ViralReviewDecision } from '@shared/production';
import { YOUTUBE_ATTEMPTS_MAX } from '@shared/production-texts';
import { Button } from '@client/components/ui/button';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';
import { errorMessage } from '@client/lib/api';
import { formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { useViralReview } from './production-queries';

/** YouTube Analytics' traffic source types in words a team member reads at a glance. */
const SOURCE_NAMES: Record<string, string> = {
  YT_SEARCH: 'YouTube search',
  SUBSCRIBER: 'Subscribers',
  RELATED_VIDEO: 'Suggested videos',
  BROWSE: 'Browse features',
  PLAYLIST: 'Playlists',
  EXT_URL: 'Outside links',
  NO_LINK_OTHER: 'Direct or unknown',
  NOTIFICATION: 'Notifications',
  SHORTS: 'Shorts feed',
  YT_CHANNEL: 'Channel pages',
  YT_OTHER_PAGE: 'Other YouTube pages',
  ADVERTISING: 'Ads',
  END_SCREEN: 'End screens',
};
const isExternal = (type: string) => (EXTERNAL_TRAFFIC_SOURCES as readonly string[]).includes(type);

/** Views by source as bars: outside links and direct views stand out in the warning colour. */
function SourcesChart({ sources }: { sources: TrafficSource[] }) {
  const total = sources.reduce((sum, s) => sum + s.views, 0);
  if (total === 0) return <p className="text-xs text-muted-foreground">No traffic sources were reported.</p>;
  return (
    <ul className="grid gap-1" aria-label="Views by traffic source" data-testid="screen-sources">
      {sources.map((s) => {
        const share = (100 * s.views) / total;
        return (
          <li key={s.type} className="grid grid-cols-[8.5rem_1fr_3rem] items-center gap-2 text-xs">
            <span className={cn('truncate', isExternal(s.type) && 'font-medium')}>{SOURCE_NAMES[s.type] ?? s.type}</span>
            <span className="h-2.5 overflow-hidden rounded-full bg-muted" aria-hidden>
              <span className={cn('block h-full rounded-full', isExternal(s.type) ? 'bg-destructive' : 'bg-primary')} style={{ width: `${Math.max(share, 1)}%` }} />
            </span>
            <span className="text-right tabular-nums">{share.toFixed(0)}%</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The 14 days' views as columns: a bought burst is one tall column. */
function DayCurve({ days }: { days: DailyViews[] }) {
  const peak = Math.max(1, ...days.map((d) => d.views));
  if (days.length === 0) return null;
  return (
    <figure className="grid gap-1" data-testid="screen-days">
      <div className="flex h-16 items-end gap-0.5" role="img" aria-label={`Views per day over ${days.length} days, at most ${peak.toLocaleString('en-US')} on one day`}>
        {days.map((d) => (
          <span key={d.date} title={`${d.date}: ${d.views.toLocaleString('en-US')} views`} className="flex-1 rounded-t-sm bg-primary/70" style={{ height: `${Math.max(2, (100 * d.views) / peak)}%` }} />
        ))}
      </div>
      <figcaption className="flex justify-between text-[11px] text-muted-foreground">
        <span>{days[0]!.date}</span>
        <span>{days.at(-1)!.date}</span>
      </figcaption>
    </figure>
  );
}

const STATUS_TEXT = {
  clear: 'Clear: the views look like ordinary viewing',
  suspect: 'Suspect: waits for your decision before it counts or earns',
  confirmed: 'Confirmed by the team: it counts',
  rejected: 'Rejected by the team: it does not count',
} as const;

/**
 * The viral screen's evidence on the desk (CONTRACT §25): why a hit is suspect, where its views
 * came from, how they spread over the 14 days and how much viewers watched, and the decision with
 * its reason, so it takes a minute. Also the reads YouTube refused for its quota, and the second look.
 */
export function ViralScreenPanel({ submissionId, publication }: { submissionId: string; publication: Publication }) {
  const { screen, screenRead, withdrawn } = publication;
  const review = useViralReview(submissionId);
  const [reason, setReason] = useState('');
  const decide = (decision: ViralReviewDecision) =>
    review.mutate(
      { decision, reason },
      {
        onSuccess: () => {
          setReason('');
          toast({ title: decision === 'confirm' ? 'Hit confirmed: it counts' : 'Hit rejected: it does not count' });
        },
        onError: (error) => toast({ title: 'Decision not saved', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  if (!screen && !screenRead && !withdrawn) return null;
  return (
    <section className="grid gap-3 rounded-lg border p-3 text-sm" aria-labelledby="viral-screen-heading" data-testid="viral-screen">
      <h4 id="viral-screen-heading" className="flex items-center gap-2 font-medium">
        {screen?.status === 'suspect' || screen?.status === 'rejected' ? (
          <ShieldAlert className="size-4 text-destructive-soft" aria-hidden />
        ) : (
          <ShieldCheck className="size-4 text-success" aria-hidden />
        )}
        Viral screen
      </h4>
      {screenRead ? (
        <p className="rounded-md bg-secondary px-2 py-1 text-xs" data-testid="screen-quota">
          YouTube refused the screen’s reads ({screenRead.attempts} of {YOUTUBE_ATTEMPTS_MAX} tries): {screenRead.error}
          {screenRead.retryAt ? ` Next try ${formatLongDateTime(screenRead.retryAt)}.` : ''}
        </p>
      ) : null}
      {screen ? (
        <>
          <p className={cn('justify-self-start rounded-full px-2.5 py-0.5 text-xs font-medium', screen.status === 'suspect' ? 'bg-destructive/15 text-destructive-soft' : 'bg-secondary text-secondary-foreground')} data-testid="screen-status">
            {STATUS_TEXT[screen.status]}
          </p>
          {screen.reasons.length ? (
            <ul className="list-disc pl-5 text-xs" aria-label="Why it is suspect">
              {screen.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          ) : null}
          <div className="grid gap-3 md:grid-cols-2">
            <div className="grid content-start gap-1">
              <p className="text-xs font-medium">Where the views came from</p>
              <SourcesChart sources={screen.sources} />
            </div>
            <div className="grid content-start gap-1">
              <p className="text-xs font-medium">Views per day</p>
              <DayCurve days={screen.days} />
              <p className="text-xs" data-testid="screen-watched">
                Average watched:{' '}
                <span className="font-medium">{screen.averageViewPercentage === null ? 'not reported' : `${screen.averageViewPercentage.toFixed(1)}% of the video`}</span>
              </p>
            </div>
          </div>
          {screen.review ? (
            <p className="text-xs text-muted-foreground">
              {screen.review.decision === 'confirm' ? 'Confirmed' : 'Rejected'} {formatLongDateTime(screen.review.at)}: {screen.review.reason}
            </p>
          ) : null}
          {screen.status === 'suspect' && !withdrawn ? (
            <form className="grid gap-2" onSubmit={(event) => event.preventDefault()}>
              <Label htmlFor={`viral-reason-${submissionId}`}>Reason (kept in the history; a rejection’s reason is shown to the artist)</Label>
              <Textarea
                id={`viral-reason-${submissionId}`}
                required
                rows={2}
                maxLength={VIRAL_REVIEW_REASON_MAX}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
              <div className="flex flex-wrap gap-2">
                <Button type="button" size="sm" disabled={review.isPending || !reason.trim()} onClick={() => decide('confirm')}>
                  Confirm the hit
                </Button>
                <Button type="button" size="sm" variant="outline" disabled={review.isPending || !reason.trim()} onClick={() => decide('reject')}>
                  Reject the hit
                </Button>
              </div>
            </form>
          ) : null}
        </>
      ) : null}
      {withdrawn ? (
        <p className="text-xs" data-testid="screen-withdrawn">
          Withdrawn {formatLongDateTime(withdrawn.at)} by the second look at 28 days: {withdrawn.reason}
        </p>
      ) : publication.secondLook ? (
        <p className="text-xs text-muted-foreground">
          {publication.secondLook.lookedAt
            ? `Second look ${formatLongDateTime(publication.secondLook.lookedAt)}: ${publication.secondLook.views?.toLocaleString('en-US') ?? 'no'} views for the same 14 days`
            : `Second look at 28 days: ${formatLongDateTime(publication.secondLook.at)}`}
        </p>
      ) : null}
    </section>
  );
}
