import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ADMIN_SETTABLE_STATUSES, CHANGES_REQUESTABLE_STATUSES, MAX_ROUND, STATUS_LABELS, formatUsd, type AdminSettableStatus } from '@shared/submissions';
import { CHANGES_REQUESTED_TEMPLATE } from '@shared/versions';
import type { AdminSubmission } from '@shared/submission-schemas';
import { ADMIN_REVIEW_MAX } from '@shared/admin';
import { MONEY_CONFIRM_TEXTS, isRefundOwedFor } from '@shared/billing';
import { fillReviewTemplate, unpaidWarningFor } from '@shared/review-desk';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Label } from '@client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Spinner } from '@client/components/ui/spinner';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/lib/toast';
import { useBulkAction, useChangeStatus, useReviewTemplates } from './admin-queries';
import { ADMIN_TOASTS } from './admin-texts';

interface Props {
  /** One submission (its own PATCH) or several (one bulk change, all or nothing). */
  submissions: AdminSubmission[];
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The status to start from, e.g. from a keyboard shortcut. */
  initialStatus?: AdminSettableStatus | undefined;
  onDone?(): void;
}

const isSettable = (status: string): status is AdminSettableStatus => (ADMIN_SETTABLE_STATUSES as readonly string[]).includes(status);

/** Status plus an optional review the artist reads in their Submission Details (CONTRACT §8, §14). */
export function StatusChangeDialog({ submissions, open, onOpenChange, initialStatus, onDone }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        {open && submissions.length ? (
          <StatusForm
            submissions={submissions}
            initialStatus={initialStatus}
            onDone={() => {
              onOpenChange(false);
              onDone?.();
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function StatusForm({ submissions, initialStatus, onDone }: { submissions: AdminSubmission[]; initialStatus?: AdminSettableStatus | undefined; onDone(): void }) {
  const single = submissions.length === 1 ? submissions[0]! : null;
  const [status, setStatus] = useState<AdminSettableStatus | ''>(initialStatus ?? (single && isSettable(single.status) ? single.status : ''));
  const [review, setReview] = useState(single?.adminReview ?? '');
  const [templateId, setTemplateId] = useState('');
  const templates = useReviewTemplates();
  const change = useChangeStatus(single?.id ?? '');
  const bulk = useBulkAction();
  const pending = change.isPending || bulk.isPending;
  // CONTRACT §27: changes are asked while the team is still deciding, with a new version left to
  // send, and always with a review saying what to change.
  const canAskForChanges = submissions.every(
    (s) => s.status === 'changes_requested' || ((CHANGES_REQUESTABLE_STATUSES as readonly string[]).includes(s.status) && s.round < MAX_ROUND),
  );
  const statuses = ADMIN_SETTABLE_STATUSES.filter((s) => s !== 'changes_requested' || canAskForChanges);
  const reviewRequired = status === 'changes_requested';
  const chooseStatus = (next: AdminSettableStatus) => {
    setStatus(next);
    if (next === 'changes_requested' && !review.trim()) {
      setReview(single ? fillReviewTemplate(CHANGES_REQUESTED_TEMPLATE, { artistName: single.artistName, songTitle: single.songTitle }) : CHANGES_REQUESTED_TEMPLATE);
    }
  };
  const unpaidWarning = status ? unpaidWarningFor(status, submissions) : null;
  // Rejecting paid, undelivered work refunds it (CONTRACT §19, §21): said before it is confirmed.
  const refunds = status === 'rejected' ? submissions.filter(isRefundOwedFor) : [];
  const refundTotal = refunds.length ? formatUsd(refunds.reduce((sum, s) => sum + Number(s.amount ?? 0), 0)) : null;
  const refundNotice = refundTotal
    ? single
      ? MONEY_CONFIRM_TEXTS.rejectRefund(refundTotal)
      : MONEY_CONFIRM_TEXTS.rejectRefundMany(refundTotal, refunds.length)
    : null;

  const chooseTemplate = (id: string) => {
    setTemplateId(id);
    const template = templates.data?.find((t) => t.id === id);
    if (!template) return;
    // One submission: filled in here, so what is sent is exactly what was read. Several: the server fills each.
    setReview(single ? fillReviewTemplate(template.body, { artistName: single.artistName, songTitle: single.songTitle }) : template.body);
  };

  const submit = () => {
    if (!status || pending || (reviewRequired && !review.trim())) return;
    const onSuccess = () => {
      const told = single
        ? ADMIN_TOASTS.statusUpdated(STATUS_LABELS[status])
        : { title: 'Status Updated', description: `${submissions.length} submissions are now ${STATUS_LABELS[status]}.` };
      toast(refundTotal ? { ...told, description: `${told.description} ${MONEY_CONFIRM_TEXTS.rejectedAndRefunded(refundTotal)}` } : told);
      onDone();
    };
    const onError = () => toast(ADMIN_TOASTS.statusFailed);
    if (single) change.mutate({ status, review }, { onSuccess, onError });
    else {
      const ids = submissions.map((s) => s.id);
      bulk.mutate({ ids, action: 'status', status, ...(review.trim() ? { review } : {}) }, { onSuccess, onError });
    }
  };

  // Ctrl/⌘+Enter sends while the dialog is open, wherever the focus is: in the review text, on a
  // control, or still on its way in as the dialog opens (a shortcut user presses r, then Ctrl+Enter).
  const submitRef = useRef(submit);
  useEffect(() => {
    submitRef.current = submit;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
      e.preventDefault();
      submitRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

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
        <DialogDescription className="break-words">
          {single ? single.songTitle?.trim() || 'Untitled' : `${submissions.length} selected submissions`}
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="admin-status">Status</Label>
        <Select value={status} onValueChange={(v) => chooseStatus(v as AdminSettableStatus)}>
          <SelectTrigger id="admin-status" aria-label="Status">
            <SelectValue placeholder="Choose a status" />
          </SelectTrigger>
          <SelectContent>
            {statuses.map((s) => (
              <SelectItem key={s} value={s}>
                {STATUS_LABELS[s]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {unpaidWarning ? (
        <div role="alert" className="flex items-start gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm text-warning">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p>{unpaidWarning}</p>
        </div>
      ) : null}
      {refundNotice ? (
        <div role="alert" data-testid="rejection-refund" className="flex items-start gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm text-warning">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p>{refundNotice}</p>
        </div>
      ) : null}
      {templates.data?.length ? (
        <div className="grid gap-2">
          <Label htmlFor="admin-template">Template</Label>
          <Select value={templateId} onValueChange={chooseTemplate}>
            <SelectTrigger id="admin-template" aria-label="Template">
              <SelectValue placeholder="Start from a template" />
            </SelectTrigger>
            <SelectContent>
              {templates.data.map((t) => (
                <SelectItem key={t.id} value={t.id}>
                  {t.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      ) : null}
      <div className="grid gap-2">
        <Label htmlFor="admin-review">{reviewRequired ? 'What the artist should change (required)' : 'Review for the artist (optional)'}</Label>
        <Textarea
          id="admin-review"
          value={review}
          onChange={(e) => setReview(e.target.value)}
          rows={5}
          maxLength={ADMIN_REVIEW_MAX}
          required={reviewRequired}
          placeholder="Feedback the artist will see with this submission..."
        />
        <p className="text-xs text-muted-foreground">
          {reviewRequired
            ? 'Emailed to the artist with a way to upload a new version; your comments on the track can point at the places.'
            : single
            ? 'Shown to the artist in their Submission Details. Leave empty for none.'
            : "{artistName} and {songTitle} are filled in for each submission. Leave empty to keep each one's current review."}
        </p>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        {/* Money goes back and the artist is turned down: the destructive look, as the product's other money confirmations (issue 43). */}
        <Button type="submit" variant={refundNotice ? 'destructive' : 'default'} disabled={!status || pending || (reviewRequired && !review.trim())}>
          {pending ? <Spinner className="text-primary-foreground" /> : null}
          {pending ? 'Updating...' : refundNotice ? MONEY_CONFIRM_TEXTS.rejectRefundConfirm : unpaidWarning ? 'Update Status Anyway' : 'Update Status'}
        </Button>
      </DialogFooter>
    </form>
  );
}
