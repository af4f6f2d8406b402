import { useState } from 'react';
import { ADMIN_SETTABLE_STATUSES, STATUS_LABELS, type AdminSettableStatus } from '@shared/submissions';
import type { AdminSubmission } from '@shared/submission-schemas';
import { ADMIN_REVIEW_MAX } from '@shared/admin';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Label } from '@client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/lib/toast';
import { useChangeStatus } from './admin-queries';
import { ADMIN_TOASTS } from './admin-texts';

interface Props {
  submission: AdminSubmission;
  open: boolean;
  onOpenChange(open: boolean): void;
}

const isSettable = (status: string): status is AdminSettableStatus => (ADMIN_SETTABLE_STATUSES as readonly string[]).includes(status);

/** Status plus an optional review the artist reads in their Submission Details (CONTRACT §8). */
export function StatusChangeDialog({ submission, open, onOpenChange }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">{open ? <StatusForm submission={submission} onDone={() => onOpenChange(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

function StatusForm({ submission, onDone }: { submission: AdminSubmission; onDone(): void }) {
  const [status, setStatus] = useState<AdminSettableStatus | ''>(isSettable(submission.status) ? submission.status : '');
  const [review, setReview] = useState(submission.adminReview ?? '');
  const change = useChangeStatus(submission.id);
  const submit = () => {
    if (!status) return;
    change.mutate(
      { status, review },
      {
        onSuccess: () => {
          toast(ADMIN_TOASTS.statusUpdated(STATUS_LABELS[status]));
          onDone();
        },
        onError: () => toast(ADMIN_TOASTS.statusFailed),
      },
    );
  };
  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <DialogHeader>
        <DialogTitle>Change Status</DialogTitle>
        <DialogDescription className="break-words">{submission.songTitle?.trim() || 'Untitled'}</DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="admin-status">Status</Label>
        <Select value={status} onValueChange={(v) => setStatus(v as AdminSettableStatus)}>
          <SelectTrigger id="admin-status" aria-label="Status">
            <SelectValue placeholder="Choose a status" />
          </SelectTrigger>
          <SelectContent>
            {ADMIN_SETTABLE_STATUSES.map((s) => (
              <SelectItem key={s} value={s}>
                {STATUS_LABELS[s]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="admin-review">Review for the artist (optional)</Label>
        <Textarea
          id="admin-review"
          value={review}
          onChange={(e) => setReview(e.target.value)}
          rows={5}
          maxLength={ADMIN_REVIEW_MAX}
          placeholder="Feedback the artist will see with this submission..."
        />
        <p className="text-xs text-muted-foreground">Shown to the artist in their Submission Details. Leave empty for none.</p>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={!status || change.isPending}>
          {change.isPending ? <Spinner className="text-primary-foreground" /> : null}
          {change.isPending ? 'Updating...' : 'Update Status'}
        </Button>
      </DialogFooter>
    </form>
  );
}
