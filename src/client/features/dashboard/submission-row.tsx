import { Check, CreditCard, Eye, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { Submission } from '@shared/submission-schemas';
import { isPaidTier } from '@shared/submissions';
import { ArtworkThumbnail } from '@client/components/artwork-thumbnail';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { formatLongDate } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useDeleteSubmission } from '@client/features/submissions/use-submissions';
import { StatusBadge } from '@client/components/status-badge';

interface SubmissionRowProps {
  submission: Submission;
  onView: (submission: Submission) => void;
}

export function SubmissionRow({ submission, onView }: SubmissionRowProps) {
  const title = submission.songTitle || 'Untitled';
  return (
    <tr data-testid="submission-row" className="border-b last:border-0 hover:bg-muted/30 max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-3 max-md:gap-y-2 max-md:px-4 max-md:py-3">
      <td className="py-3 pr-4 pl-4 max-md:w-full max-md:p-0">
        <div className="flex min-w-0 items-center gap-3">
          <ArtworkThumbnail url={submission.artworkUrl} alt={`Artwork of ${title}`} className="size-11" />
          <div className="grid min-w-0">
            <span className="truncate font-medium" title={title}>
              {title}
            </span>
            <span className="truncate text-xs text-muted-foreground" title={submission.artistName}>
              {submission.artistName}
            </span>
          </div>
        </div>
      </td>
      <td className="py-3 pr-4 text-sm whitespace-nowrap text-muted-foreground max-md:w-full max-md:p-0 max-md:text-xs">{formatLongDate(submission.createdAt)}</td>
      <td className="py-3 pr-4 max-md:p-0">
        <StatusBadge status={submission.status} />
      </td>
      <td className="py-3 pr-4 max-md:p-0">
        <Badge variant={isPaidTier(submission.pricingTier) ? 'default' : 'secondary'}>{isPaidTier(submission.pricingTier) ? 'Paid' : 'Free'}</Badge>
      </td>
      <td className="py-3 pr-4 max-md:ml-auto max-md:p-0">
        <RowActions submission={submission} onView={() => onView(submission)} />
      </td>
    </tr>
  );
}

function RowActions({ submission, onView }: { submission: Submission; onView: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSubmission();
  const title = submission.songTitle || 'Untitled';

  // mutateAsync, not mutate's callbacks: the row unmounts as soon as the refreshed list no longer has it.
  const confirmDelete = () =>
    remove.mutateAsync(submission.id).then(
      () => toast({ title: 'Submission deleted', description: 'Your submission has been successfully deleted.' }),
      () => {
        setConfirming(false);
        toast({ title: 'Error deleting submission', description: 'Failed to delete your submission. Please try again.', variant: 'destructive' });
      },
    );

  return (
    <div className="flex items-center justify-end gap-1">
      <Button variant="ghost" size="sm" onClick={onView} aria-label={`View ${title}`}>
        <Eye aria-hidden />
        View
      </Button>
      {submission.status === 'payment_pending' ? (
        <Button asChild size="sm">
          <Link href={`/checkout/${submission.id}`}>
            <CreditCard aria-hidden />
            Pay Now
          </Link>
        </Button>
      ) : null}
      {remove.isPending ? (
        <span className="flex size-8 items-center justify-center">
          <Spinner label={`Deleting ${title}`} />
        </span>
      ) : confirming ? (
        <span className="flex items-center gap-1 rounded-md border border-destructive/50 bg-destructive/10 p-0.5">
          <Button variant="ghost" size="icon-sm" className="text-destructive-soft hover:text-destructive-soft" onClick={confirmDelete} aria-label={`Confirm delete ${title}`}>
            <Check aria-hidden />
          </Button>
          <Button variant="ghost" size="icon-sm" onClick={() => setConfirming(false)} aria-label="Cancel delete">
            <X aria-hidden />
          </Button>
        </span>
      ) : (
        <Button variant="ghost" size="icon-sm" className="text-muted-foreground hover:text-destructive-soft" onClick={() => setConfirming(true)} aria-label={`Delete ${title}`}>
          <Trash2 aria-hidden />
        </Button>
      )}
    </div>
  );
}
