import { CircleAlert, Eye, Star, Trash2 } from 'lucide-react';
import type { MouseEvent } from 'react';
import { ARTIST_ACTIVITY_TEXTS, type UnseenActivity } from '@shared/artist-activity';
import type { AdminSubmission } from '@shared/submission-schemas';
import { PAYMENT_STATE_LABELS, paymentStateOf } from '@shared/submissions';
import { ArtworkThumbnail } from '@client/entities/submission/artwork-thumbnail';
import { StatusBadge } from '@client/entities/submission/status-badge';
import { Button } from '@client/components/ui/button';
import { Checkbox } from '@client/components/ui/checkbox';
import { cn } from '@client/lib/utils';
import { DecisionDue, PublishingBadge, RightsBadge, ViralScreenBadge, TierBadge } from './admin-badges';
import { awaitsDecision } from '@client/entities/submission/decision-date';

/** What the artist did on one submission that this admin has not seen yet (issue 33 part 4). */
export type NewActivity = UnseenActivity['submissions'][number];

export interface RowProps {
  submission: AdminSubmission;
  newActivity: NewActivity | undefined;
  active: boolean;
  selected: boolean;
  onSelect(event: MouseEvent, checked: boolean): void;
  onActivate(): void;
  onOpen(): void;
  onDelete(): void;
}

export const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export const PAYMENT_TONES = {
  free: 'text-muted-foreground',
  paid: 'text-success',
  unpaid: 'text-warning',
  failed: 'text-destructive-soft',
  refunded: 'text-muted-foreground',
} as const;

/** What a row and a phone's card both show of a submission, worked out once. */
export function describeDeskItem(s: AdminSubmission) {
  return {
    title: s.songTitle?.trim() || 'Untitled',
    artist: s.artistName?.trim() || s.user?.artistName || 'Unknown artist',
    payment: paymentStateOf(s.pricingTier, s.paymentStatus),
    listened: Math.round(s.desk.listenedShare * 100),
    overdue: s.dueAt !== null && !s.deliveredAt && new Date(s.dueAt) < new Date(),
  };
}

/** What a row and a card do alike: a click focuses the item, and picked and focused items look so. */
export const deskItemAttributes = ({ selected, active, onActivate }: Pick<RowProps, 'selected' | 'active' | 'onActivate'>, layout: string) => ({
  'data-active': active || undefined,
  onClick: onActivate,
  className: cn(layout, selected && 'bg-primary/10', active && 'outline-2 -outline-offset-2 outline-primary'),
});

/** A row's or a card's pick box: its click picks without also activating the item under it. */
export function DeskItemPick({ title, selected, onSelect, className }: Pick<RowProps, 'selected' | 'onSelect'> & { title: string; className?: string }) {
  return (
    <Checkbox
      checked={selected}
      aria-label={`Select ${title}`}
      className={className}
      onClick={(e) => {
        e.stopPropagation();
        onSelect(e, !selected);
      }}
    />
  );
}

/** "2 new" beside the title while the artist's latest moves are unseen; its tooltip names the latest. */
export function NewActivityBadge({ activity, artist }: { activity: NewActivity | undefined; artist: string }) {
  if (!activity) return null;
  const latest = `${artist} ${ARTIST_ACTIVITY_TEXTS[activity.latestKind]}`;
  return (
    <span
      data-testid="artist-activity-badge"
      title={latest}
      className="shrink-0 rounded-full bg-warning px-1.5 text-[11px] leading-4 font-semibold text-background tabular-nums"
    >
      {activity.count} new<span className="sr-only">: {latest}</span>
    </span>
  );
}

/** The artwork that opens the details; out of the tab order, as the row or card has its own way in. */
export function DeskItemArtwork({ url, title, onOpen, className }: { url: string | null; title: string; onOpen(): void; className: string }) {
  return (
    <button type="button" onClick={onOpen} className="shrink-0 cursor-pointer rounded outline-none focus-visible:ring-2 focus-visible:ring-ring" aria-label={`Open ${title}`} tabIndex={-1}>
      <ArtworkThumbnail url={url} alt={`Artwork of ${title}`} className={`${className} rounded`} />
    </button>
  );
}

/** One row of 'All Submissions' (SPEC §2), dense for the review desk (CONTRACT §14). */
export function AdminSubmissionRow({ submission: s, newActivity, active, selected, onSelect, onActivate, onOpen, onDelete }: RowProps) {
  const { title, artist, payment, listened, overdue } = describeDeskItem(s);
  return (
    <tr
      data-testid="admin-submission-row"
      aria-selected={selected}
      onDoubleClick={onOpen}
      {...deskItemAttributes({ selected, active, onActivate }, 'h-10 border-b last:border-b-0 hover:bg-muted/40')}
    >
      <td className="w-9 pl-3">
        <DeskItemPick title={title} selected={selected} onSelect={onSelect} />
      </td>
      <td className="max-w-0 py-0.5 pr-2">
        <div className="flex min-w-0 items-center gap-2" title={s.description ?? undefined}>
          <DeskItemArtwork url={s.artworkUrl} title={title} onOpen={onOpen} className="size-7" />
          <div className="min-w-0">
            <p className="flex items-center gap-1.5 text-sm leading-tight font-medium">
              <span className="truncate">{title}</span>
              <NewActivityBadge activity={newActivity} artist={artist} />
            </p>
            <p className="truncate text-xs leading-tight text-muted-foreground">
              by <span className="text-foreground/90">{artist}</span> ({s.user?.email || 'No email'})
            </p>
          </div>
        </div>
      </td>
      <td className="px-2">
        <div className="flex flex-col items-start gap-0.5">
          <StatusBadge status={s.status} />
          {/* The status column is narrow: the publishing word wraps inside it rather than running into the tier. */}
          <PublishingBadge publishing={s.publishing} className="max-w-full rounded-lg leading-tight whitespace-normal" />
          <RightsBadge rights={s.rights} className="max-w-full rounded-lg leading-tight whitespace-normal" />
          <ViralScreenBadge viralScreen={s.viralScreen} className="max-w-full rounded-lg leading-tight whitespace-normal" />
        </div>
      </td>
      <td className="px-2 whitespace-nowrap">
        <div className="flex items-center gap-1.5">
          <TierBadge tier={s.pricingTier} amount={s.amount} />
          {payment === 'free' ? null : <span className={cn('text-xs', PAYMENT_TONES[payment])}>{PAYMENT_STATE_LABELS[payment]}</span>}
        </div>
      </td>
      <td className="max-w-32 truncate px-2 text-xs" title={s.desk.assignee?.name}>
        {s.desk.assignee?.name ?? <span className="text-muted-foreground">Unassigned</span>}
      </td>
      <td className="px-2 text-xs whitespace-nowrap tabular-nums">
        {s.desk.ratingAverage === null ? (
          <span className="text-muted-foreground">–</span>
        ) : (
          <span className="inline-flex items-center gap-0.5" role="img" aria-label={`Rated ${s.desk.ratingAverage} of 5 by ${s.desk.ratingCount}`}>
            <Star className="size-3 fill-warning text-warning" aria-hidden />
            {s.desk.ratingAverage.toFixed(1)}
            <span className="text-muted-foreground">({s.desk.ratingCount})</span>
          </span>
        )}
      </td>
      <td className="max-w-40 px-2">
        {/* Tags wrap rather than being cut mid-word (issue 23: "strong-ho"); one too long for the column ends in an ellipsis, whole in its tooltip. */}
        <div className="flex flex-wrap gap-1 py-0.5">
          {s.desk.tags.map((tag) => (
            <span key={tag} title={tag} className="max-w-full truncate rounded bg-secondary px-1.5 py-0.5 text-[11px] text-secondary-foreground">
              {tag}
            </span>
          ))}
        </div>
      </td>
      <td className="px-2" title={`${listened}% listened`}>
        <div className="flex items-center gap-1.5">
          <div className="h-1.5 w-10 overflow-hidden rounded-full bg-muted" role="meter" aria-label="Listened" aria-valuemin={0} aria-valuemax={100} aria-valuenow={listened}>
            <div className="h-full bg-primary" style={{ width: `${listened}%` }} />
          </div>
          <span className="w-8 text-xs text-muted-foreground tabular-nums">{listened}%</span>
        </div>
      </td>
      <td className="px-2 text-xs whitespace-nowrap text-muted-foreground">{shortDate.format(new Date(s.createdAt))}</td>
      <td className="px-2 text-xs whitespace-nowrap">
        {s.dueAt && !s.deliveredAt ? (
          <span className={overdue ? 'font-medium text-destructive' : 'text-foreground'} data-testid="row-due" title={overdue ? 'Overdue' : undefined}>
            {overdue ? <CircleAlert className="mr-0.5 inline size-3 align-[-2px]" aria-hidden /> : null}
            {overdue ? <span className="sr-only">Overdue, was due </span> : null}
            {shortDate.format(new Date(s.dueAt))}
          </span>
        ) : awaitsDecision(s) ? (
          // While it waits for the team, what is due is the decision the label promised (CONTRACT §26).
          <DecisionDue submission={s} />
        ) : (
          <span className="text-muted-foreground" title={s.deliveredAt ? 'Delivered' : 'No deadline'}>
            –
          </span>
        )}
      </td>
      <td className="pr-2">
        <div className="flex justify-end">
          <Button variant="ghost" size="icon-sm" onClick={onOpen} aria-label={`View details of ${title}`}>
            <Eye aria-hidden />
          </Button>
          <Button variant="ghost" size="icon-sm" onClick={onDelete} aria-label={`Delete ${title}`} className="text-destructive-soft hover:text-destructive-soft">
            <Trash2 aria-hidden />
          </Button>
        </div>
      </td>
    </tr>
  );
}
