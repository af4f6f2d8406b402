import { Star, X } from 'lucide-react';
import { useState } from 'react';
import type { AdminSubmission } from '@shared/submission-schemas';
import { TAG_MAX_LENGTH } from '@shared/admin';
import { PAYMENT_STATE_LABELS, paymentStateOf } from '@shared/submissions';
import {
  RATING_COMMENT_MAX,
  RATING_MAX,
  TAGS_PER_SUBMISSION_MAX,
  TOO_MANY_TAGS_MESSAGE,
  isUnpaidPaidTier,
} from '@shared/review-desk';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { useAuth } from '@client/lib/auth';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { useAssign, useRate, useRatings, useSetTags, useTeam } from './admin-queries';

const UNASSIGN = '__none__';
const failed = () => toast({ title: 'Error', description: 'The change was not saved. Please try again.', variant: 'destructive' });

/** Assignee, tags, payment and the team's ratings of one submission (CONTRACT §14). */
export function DeskPanel({ submission: s }: { submission: AdminSubmission }) {
  const team = useTeam();
  const assign = useAssign(s.id);
  const payment = paymentStateOf(s.pricingTier, s.paymentStatus);
  return (
    <section className="grid gap-3 rounded-lg border p-3" aria-labelledby="desk-heading">
      <h3 id="desk-heading" className="text-sm font-semibold">
        Review desk
      </h3>
      <div className="grid gap-3 text-sm sm:grid-cols-[7rem_1fr] sm:items-center">
        <span className="text-muted-foreground">Payment</span>
        <span data-testid="payment-state" className={cn(payment === 'paid' && 'text-success', isUnpaidPaidTier(s.pricingTier, s.paymentStatus) && 'text-warning')}>
          {PAYMENT_STATE_LABELS[payment]}
          {/* Only what the state does not say already: it read "Refunded (refunded)" (issue 36). */}
          {payment === 'unpaid' && s.paymentStatus === 'pending' ? <span className="text-muted-foreground"> (checkout started)</span> : null}
        </span>
        <label htmlFor="desk-assignee" className="text-muted-foreground">
          Assignee
        </label>
        <Select
          value={s.desk.assignee?.id ?? UNASSIGN}
          onValueChange={(v) => assign.mutate(v === UNASSIGN ? null : v, { onError: failed })}
          disabled={assign.isPending}
        >
          <SelectTrigger id="desk-assignee" aria-label="Assignee" className="h-8">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={UNASSIGN}>Unassigned</SelectItem>
            {team.data?.map((m) => (
              <SelectItem key={m.id} value={m.id}>
                {m.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <span className="text-muted-foreground">Tags</span>
        <TagEditor submission={s} />
      </div>
      <Ratings submissionId={s.id} />
    </section>
  );
}

function TagEditor({ submission: s }: { submission: AdminSubmission }) {
  const [draft, setDraft] = useState('');
  const save = useSetTags(s.id);
  const set = (tags: string[]) =>
    save.mutate(tags, { onSuccess: () => setDraft(''), onError: (error) => toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }) });
  const full = s.desk.tags.length >= TAGS_PER_SUBMISSION_MAX;
  return (
    <div className="flex flex-wrap items-center gap-1">
      {s.desk.tags.map((tag) => (
        <span key={tag} className="inline-flex items-center gap-0.5 rounded bg-secondary py-0.5 pr-0.5 pl-1.5 text-xs text-secondary-foreground">
          {tag}
          <button type="button" className="cursor-pointer rounded p-0.5 hover:bg-background/40" aria-label={`Remove tag ${tag}`} onClick={() => set(s.desk.tags.filter((t) => t !== tag))}>
            <X className="size-3" aria-hidden />
          </button>
        </span>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const tag = draft.trim().toLowerCase();
          if (tag && !s.desk.tags.includes(tag)) set([...s.desk.tags, tag]);
        }}
      >
        <Input
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={full ? `${TAGS_PER_SUBMISSION_MAX} tags at most` : 'Add tag'}
          aria-label="Add tag"
          title={full ? TOO_MANY_TAGS_MESSAGE : undefined}
          disabled={full}
          maxLength={TAG_MAX_LENGTH}
          className="h-7 w-28 text-xs"
        />
      </form>
    </div>
  );
}

function Ratings({ submissionId }: { submissionId: string }) {
  const { user } = useAuth();
  const ratings = useRatings(submissionId);
  const rate = useRate(submissionId);
  const mine = ratings.data?.ratings.find((r) => r.admin.id === user?.id);
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState<string | null>(null);
  const shownScore = score ?? mine?.score ?? 0;
  const shownComment = comment ?? mine?.comment ?? '';
  return (
    <div className="grid gap-2 border-t pt-3">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">Your rating</span>
        {ratings.data?.average != null ? (
          <span className="text-xs text-muted-foreground tabular-nums">
            Team average {ratings.data.average.toFixed(1)} ({ratings.data.ratings.length})
          </span>
        ) : null}
      </div>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (!shownScore) return;
          rate.mutate(
            { score: shownScore, comment: shownComment },
            { onSuccess: () => toast({ title: 'Rating Saved', description: `You rated it ${shownScore} of ${RATING_MAX}.` }), onError: failed },
          );
        }}
      >
        <div role="radiogroup" aria-label="Rating" className="flex">
          {Array.from({ length: RATING_MAX }, (_, i) => i + 1).map((n) => (
            <button
              key={n}
              type="button"
              role="radio"
              aria-checked={shownScore === n}
              aria-label={`${n} of ${RATING_MAX}`}
              onClick={() => setScore(n)}
              className="cursor-pointer p-0.5"
            >
              <Star className={cn('size-5', n <= shownScore ? 'fill-warning text-warning' : 'text-muted-foreground')} aria-hidden />
            </button>
          ))}
        </div>
        <Input
          value={shownComment}
          onChange={(e) => setComment(e.target.value)}
          placeholder="Short comment (optional)"
          aria-label="Rating comment"
          maxLength={RATING_COMMENT_MAX}
          className="h-8 min-w-0 flex-1"
        />
        <Button type="submit" size="sm" variant="outline" disabled={!shownScore || rate.isPending}>
          Save rating
        </Button>
      </form>
      {ratings.data?.ratings.length ? (
        <ul className="grid gap-1 text-xs text-muted-foreground">
          {ratings.data.ratings.map((r) => (
            <li key={r.admin.id}>
              <span className="text-foreground">{r.admin.name}</span>: {r.score}/{RATING_MAX}
              {r.comment ? ` — ${r.comment}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
