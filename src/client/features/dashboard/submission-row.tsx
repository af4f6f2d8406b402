import { ArrowRightLeft, Clapperboard, CreditCard, Eye, Lock, PencilLine, Trash2 } from 'lucide-react';
import { usePublicConfig } from '@client/lib/public-config';
import { useState } from 'react';
import { Link } from 'wouter';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import type { SubmissionListItem } from '@shared/submission-schemas';
import { isArtistDeletable } from '@shared/submissions';
import { PRODUCTION_TEXTS } from '@shared/production-texts';
import { ArtworkThumbnail } from '@client/entities/submission/artwork-thumbnail';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { MONEY_CONFIRM_TEXTS, refundOwedOf } from '@shared/billing';
import { Spinner } from '@client/components/ui/spinner';
import { errorCodeOf, errorMessage } from '@client/lib/api';
import { formatLongDate } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useDeleteSubmission } from '@client/entities/submission/submission-queries';
import { StatusBadge } from '@client/entities/submission/status-badge';
import { RowDecisionDate } from '@client/entities/submission/decision-date';
import { SignAgreementPrompt } from '@client/entities/submission/sign-agreement';
import { paymentTypeOf } from './payment-type';

interface SubmissionRowProps {
  submission: SubmissionListItem;
  onView: (submission: SubmissionListItem) => void;
}

export function SubmissionRow({ submission, onView }: SubmissionRowProps) {
  const title = submission.songTitle || 'Untitled';
  const type = paymentTypeOf(submission);
  return (
    <tr
      data-testid="submission-row"
      data-unseen={submission.hasUnseenUpdate || undefined}
      className="border-b last:border-0 hover:bg-muted/30 max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-3 max-md:gap-y-2 max-md:px-4 max-md:py-3"
    >
      <td className="py-3 pr-4 pl-4 max-md:w-full max-md:p-0">
        <div className="flex min-w-0 items-center gap-3">
          <ArtworkThumbnail url={submission.artworkUrl} alt={`Artwork of ${title}`} className="size-11" />
          <div className="grid min-w-0">
            <span className="flex min-w-0 items-center gap-2">
              <span className="truncate font-medium" title={title}>
                {title}
              </span>
              {submission.hasUnseenUpdate ? (
                <span className="flex shrink-0 items-center gap-1 rounded-full bg-primary px-2 text-[11px] leading-5 font-semibold text-primary-foreground">
                  Updated<span className="sr-only"> since you last looked</span>
                </span>
              ) : null}
            </span>
            <span className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
              {submission.submissionType === 'video' ? (
                <span className="flex shrink-0 items-center gap-1">
                  <Clapperboard className="size-3" aria-hidden />
                  Finished video ·
                </span>
              ) : null}
              <span className="truncate" title={submission.artistName}>
                {submission.artistName || 'No artist name yet'}
              </span>
            </span>
          </div>
        </div>
      </td>
      <td className="py-3 pr-4 text-sm whitespace-nowrap text-muted-foreground max-md:w-full max-md:p-0 max-md:text-xs">
        {formatLongDate(submission.createdAt)}
        {/* The plans promise the deadline "shows on your dashboard": here, until the delivery. */}
        {submission.dueAt && !submission.deliveredAt ? (
          <span className="block text-xs text-foreground max-md:inline max-md:before:content-['_·_']" data-testid="row-deadline">
            {PRODUCTION_TEXTS.deliveryBy(formatLongDate(submission.dueAt))}
          </span>
        ) : null}
        {/* CONTRACT §26: the answer the label promised, and the artist's place in its queue, as the list carries them. */}
        <RowDecisionDate submission={submission} />
      </td>
      <td className="py-3 pr-4 max-md:p-0">
        <StatusBadge status={submission.status} />
      </td>
      <td className="py-3 pr-4 max-md:p-0">
        <Badge variant={type.variant}>{type.label}</Badge>
      </td>
      <td className="py-3 pr-4 max-md:ml-auto max-md:p-0">
        <RowActions submission={submission} onView={() => onView(submission)} />
      </td>
    </tr>
  );
}

function RowActions({ submission, onView }: { submission: SubmissionListItem; onView: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteSubmission();
  const title = submission.songTitle || 'Untitled';

  // Paid, undelivered work is refunded before it is deleted (CONTRACT §21): the dialog names the amount.
  const refund = refundOwedOf(submission);

  // mutateAsync, not mutate's callbacks: the row unmounts as soon as the refreshed list no longer has it.
  const confirmDelete = () =>
    remove.mutateAsync(submission.id).then(
      () =>
        toast({
          title: 'Submission deleted',
          description: refund ? `Your submission has been deleted and ${refund} refunded to your card.` : 'Your submission has been successfully deleted.',
        }),
      (error: unknown) => {
        setConfirming(false);
        // The licence refusal and a refused refund explain themselves; anything else gets SPEC's message.
        const code = errorCodeOf(error);
        toast({
          title: 'Error deleting submission',
          description: code === 'submission_licensed' || code === 'refund_failed' ? errorMessage(error) : 'Failed to delete your submission. Please try again.',
          variant: 'destructive',
        });
      },
    );

  const draft = submission.status === 'draft';
  // Without card payments configured (no publishable key) "Pay Now" would lead to a dead end.
  const paymentsUnavailable = usePublicConfig().data?.stripePublishableKey === null;
  return (
    <div className="flex items-center justify-end gap-1">
      {draft ? (
        <Tooltip>
          <TooltipTrigger asChild>
            <Button asChild variant="ghost" size="icon-sm" className="text-primary-soft">
              <Link href={`/submit?draft=${encodeURIComponent(submission.id)}`} aria-label={`Continue ${title}`}>
                <PencilLine aria-hidden />
              </Link>
            </Button>
          </TooltipTrigger>
          <TooltipContent>Continue</TooltipContent>
        </Tooltip>
      ) : null}
      <Button variant="ghost" size="sm" onClick={onView} aria-label={`View ${title}`}>
        <Eye aria-hidden />
        View
      </Button>
      <SignAgreementPrompt submission={submission} asked={submission.agreementAwaitsArtist} />
      {submission.status === 'payment_pending' ? (
        paymentsUnavailable ? (
          // Nothing can be paid: the checkout's "Change plan" is the way on (to Free), not a payment.
          <Button asChild size="sm" variant="outline">
            <Link href={`/checkout/${submission.id}`} aria-label={`Change the plan of ${title}`}>
              <ArrowRightLeft aria-hidden />
              Change plan
            </Link>
          </Button>
        ) : (
          <Button asChild size="sm">
            <Link href={`/checkout/${submission.id}`}>
              <CreditCard aria-hidden />
              Pay Now
            </Link>
          </Button>
        )
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() => void confirmDelete()}
        pending={remove.isPending}
        destructive
        title={MONEY_CONFIRM_TEXTS.withdrawTitle(title)}
        description={
          <>
            <span>{MONEY_CONFIRM_TEXTS.withdrawBody}</span>
            {refund ? <strong className="text-foreground">{MONEY_CONFIRM_TEXTS.withdrawRefund(refund)}</strong> : null}
          </>
        }
        confirmLabel={MONEY_CONFIRM_TEXTS.withdrawConfirm}
      />
      {remove.isPending ? (
        <span className="flex size-8 items-center justify-center">
          <Spinner label={`Deleting ${title}`} />
        </span>
      ) : isArtistDeletable(submission.status) ? (
        <Button variant="ghost" size="icon-sm" className="text-muted-foreground hover:text-destructive-soft" onClick={() => setConfirming(true)} aria-label={`Delete ${title}`}>
          <Trash2 aria-hidden />
        </Button>
      ) : (
        // From approval on the label holds the licence (CONTRACT §12): nothing to delete, say why.
        <Tooltip>
          <TooltipTrigger asChild>
            <span tabIndex={0} role="img" className="flex size-8 items-center justify-center rounded-md text-muted-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring" aria-label={`${title} is licensed to the label and can't be deleted`}>
              <Lock className="size-4" aria-hidden />
            </span>
          </TooltipTrigger>
          <TooltipContent>Licensed to the label: it can't be deleted</TooltipContent>
        </Tooltip>
      )}
    </div>
  );
}
