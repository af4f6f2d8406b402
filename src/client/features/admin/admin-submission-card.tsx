import { CircleAlert, Eye, Star, Trash2 } from 'lucide-react';
import { PAYMENT_STATE_LABELS } from '@shared/submissions';
import { StatusBadge } from '@client/entities/submission/status-badge';
import { Button } from '@client/components/ui/button';
import { DecisionBadge, PublishingBadge, RightsBadge, ViralScreenBadge, TierBadge } from './admin-badges';
import { DeskItemArtwork, DeskItemPick, describeDeskItem, deskItemAttributes, NewActivityBadge, PAYMENT_TONES, shortDate, type RowProps } from './admin-submission-row';

/**
 * One submission of 'All Submissions' on a phone (issue 23): the row's facts stacked in a card a
 * thumb can work, with the row's actions (select, open, delete) as full-size buttons. The
 * keyboard's "active" outline still shows, for a phone with a keyboard attached.
 */
export function AdminSubmissionCard(props: RowProps) {
  const { submission: s, selected, onSelect, onOpen, onDelete } = props;
  const { title, artist, payment, listened, overdue } = describeDeskItem(s);
  return (
    <li
      data-testid="admin-submission-card"
      aria-label={title}
      {...deskItemAttributes(props, 'grid gap-2 border-b p-3 last:border-b-0')}
    >
      <div className="flex min-w-0 items-start gap-3">
        <DeskItemPick title={title} selected={selected} onSelect={onSelect} className="mt-1 size-5" />
        <DeskItemArtwork url={s.artworkUrl} title={title} onOpen={onOpen} className="size-12" />
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-1.5 font-medium">
            <span className="truncate">{title}</span>
            <NewActivityBadge activity={props.newActivity} artist={artist} />
          </p>
          <p className="truncate text-sm text-muted-foreground">
            by <span className="text-foreground/90">{artist}</span>
          </p>
          <p className="truncate text-xs text-muted-foreground">{s.user?.email || 'No email'}</p>
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 text-xs">
        <StatusBadge status={s.status} />
        <PublishingBadge publishing={s.publishing} />
        <RightsBadge rights={s.rights} />
        <ViralScreenBadge viralScreen={s.viralScreen} />
        <DecisionBadge submission={s} />
        <span className="flex items-center gap-1.5">
          <TierBadge tier={s.pricingTier} amount={s.amount} />
          {payment === 'free' ? null : <span className={PAYMENT_TONES[payment]}>{PAYMENT_STATE_LABELS[payment]}</span>}
        </span>
        {s.desk.ratingAverage === null ? null : (
          <span className="inline-flex items-center gap-0.5 tabular-nums" role="img" aria-label={`Rated ${s.desk.ratingAverage} of 5 by ${s.desk.ratingCount}`}>
            <Star className="size-3 fill-warning text-warning" aria-hidden />
            {s.desk.ratingAverage.toFixed(1)}
            <span className="text-muted-foreground">({s.desk.ratingCount})</span>
          </span>
        )}
        <span className="text-muted-foreground">{listened}% listened</span>
      </div>

      {s.desk.tags.length ? (
        <ul className="flex flex-wrap gap-1" aria-label="Tags">
          {s.desk.tags.map((tag) => (
            <li key={tag} className="rounded bg-secondary px-1.5 py-0.5 text-[11px] break-all text-secondary-foreground">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}

      <div className="flex items-center gap-2 text-xs text-muted-foreground">
        <div className="grid min-w-0 flex-1 gap-0.5">
          <span className="truncate">{s.desk.assignee ? <>Assigned to <span className="text-foreground">{s.desk.assignee.name}</span></> : 'Unassigned'}</span>
          <span>
            Submitted {shortDate.format(new Date(s.createdAt))}
            {s.dueAt && !s.deliveredAt ? (
              <span className={overdue ? 'font-medium text-destructive' : 'text-foreground'} data-testid="row-due">
                {' · '}
                {overdue ? <CircleAlert className="mr-0.5 inline size-3 align-[-2px]" aria-hidden /> : null}
                {overdue ? 'Overdue, was due ' : 'Due '}
                {shortDate.format(new Date(s.dueAt))}
              </span>
            ) : null}
          </span>
        </div>
        <Button variant="outline" size="sm" onClick={onOpen} aria-label={`View details of ${title}`}>
          <Eye aria-hidden />
          Details
        </Button>
        <Button variant="ghost" size="icon" onClick={onDelete} aria-label={`Delete ${title}`} className="text-destructive-soft hover:text-destructive-soft">
          <Trash2 aria-hidden />
        </Button>
      </div>
    </li>
  );
}
