import { Eye, Trash2 } from 'lucide-react';
import type { AdminSubmission } from '@shared/submission-schemas';
import { ArtworkThumbnail } from '@client/components/artwork-thumbnail';
import { Button } from '@client/components/ui/button';
import { formatLongDate } from '@client/lib/format';
import { TierBadge } from './admin-badges';
import { StatusBadge } from '@client/components/status-badge';

interface RowProps {
  submission: AdminSubmission;
  onOpen(): void;
  onDelete(): void;
}

/** One row of 'All Submissions' (SPEC §2). */
export function AdminSubmissionRow({ submission: s, onOpen, onDelete }: RowProps) {
  const title = s.songTitle?.trim() || 'Untitled';
  const artist = s.artistName?.trim() || s.user?.artistName || 'Unknown artist';
  return (
    <li data-testid="admin-submission-row" className="flex gap-3 p-3 sm:gap-4 sm:p-4">
      <button type="button" onClick={onOpen} className="shrink-0 cursor-pointer rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring" aria-label={`Open ${title}`}>
        <ArtworkThumbnail url={s.artworkUrl} alt={`Artwork of ${title}`} className="size-14 sm:size-16" />
      </button>
      <div className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <h3 className="min-w-0 max-w-full truncate font-semibold" title={title}>
            {title}
          </h3>
          <StatusBadge status={s.status} />
          <TierBadge tier={s.pricingTier} amount={s.amount} />
        </div>
        <p className="min-w-0 truncate text-sm text-muted-foreground">
          by <span className="text-foreground">{artist}</span> ({s.user?.email || 'No email'})
        </p>
        <p className="text-xs text-muted-foreground">{formatLongDate(s.createdAt)}</p>
        {s.description ? <p className="line-clamp-2 text-sm break-words text-muted-foreground/90">{s.description}</p> : null}
      </div>
      <div className="flex shrink-0 flex-col gap-1 sm:flex-row sm:items-start">
        <Button variant="outline" size="sm" onClick={onOpen} aria-label={`View details of ${title}`}>
          <Eye aria-hidden />
          <span className="hidden sm:inline">View</span>
        </Button>
        <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${title}`} className="text-destructive-soft hover:text-destructive-soft">
          <Trash2 aria-hidden />
        </Button>
      </div>
    </li>
  );
}
