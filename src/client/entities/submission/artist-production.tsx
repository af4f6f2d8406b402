import { REFUND_REASON_TEXT } from '@shared/billing';
import { CalendarClock, ExternalLink, ScrollText } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { REVISION_NOTE_MAX, type ProductionState } from '@shared/production';
import { PRODUCTION_TEXTS } from '@shared/production-texts';
import { Button } from '@client/components/ui/button';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';
import { errorMessage } from '@client/lib/api';
import { formatLongDate, formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { DeliveriesList } from './deliveries-list';
import { useProduction, useRequestRevision } from './production-queries';

/** "Delivery by {date}" for the artist (CONTRACT §13), or that the promise is kept. */
function DeliveryPromise({ state }: { state: ProductionState }) {
  if (!state.dueAt) return null;
  const promise = PRODUCTION_TEXTS.deliveryBy(formatLongDate(state.dueAt));
  const text = state.deliveredAt ? `${promise} · delivered ${formatLongDate(state.deliveredAt)}` : promise;
  return (
    <p
      data-testid="delivery-promise"
      className={`flex items-center gap-2 rounded-lg border p-3 text-sm font-medium ${state.overdue ? 'border-destructive/50 bg-destructive/10' : 'border-primary/40 bg-primary/10'}`}
    >
      <CalendarClock className="size-4 shrink-0" aria-hidden />
      {text}
      {state.overdue ? <span className="font-normal text-muted-foreground">: late, we're on it</span> : null}
    </p>
  );
}

function RevisionForm({ submissionId, state }: { submissionId: string; state: ProductionState }) {
  const [note, setNote] = useState('');
  const request = useRequestRevision(submissionId);
  const { allowed, used } = state.revisions;
  const left = Math.max(0, allowed - used);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(note, {
      onSuccess: () => {
        setNote('');
        toast({ title: 'Revision requested', description: 'The team will get back to you with a new version.' });
      },
      onError: (error) => toast({ title: 'Revision not sent', description: errorMessage(error), variant: 'destructive' }),
    });
  };
  return (
    <div className="grid gap-3">
      <p className="text-sm" data-testid="revisions-count">
        Revisions: {used} of {allowed} used
      </p>
      {state.revisions.requests.length ? (
        <ol className="grid gap-1 text-sm">
          {state.revisions.requests.map((r, index) => (
            <li key={r.id} className="rounded-md bg-muted/50 p-2">
              <span className="text-xs text-muted-foreground">
                #{index + 1} · {formatLongDateTime(r.createdAt)}
              </span>
              <p className="whitespace-pre-wrap">{r.note}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {left > 0 && state.deliveredAt ? (
        <form onSubmit={submit} className="grid gap-2">
          <Label htmlFor="revision-note">What should change?</Label>
          <Textarea id="revision-note" value={note} maxLength={REVISION_NOTE_MAX} rows={3} onChange={(e) => setNote(e.target.value)} />
          <Button type="submit" className="justify-self-start" disabled={!note.trim() || request.isPending}>
            {request.isPending ? 'Sending...' : `Ask for a revision (${left} left)`}
          </Button>
        </form>
      ) : allowed > 0 && left === 0 ? (
        <p className="text-sm text-muted-foreground">{PRODUCTION_TEXTS.revisionsExhausted(allowed)}</p>
      ) : null}
    </div>
  );
}

/** The licence record: which Terms text the artist accepted, its hash and when. */
export function LicenceRecord({ licence }: { licence: NonNullable<ProductionState['licence']> }) {
  return (
    <details className="grid gap-2 text-sm">
      <summary className="flex cursor-pointer items-center gap-2">
        <ScrollText className="size-4" aria-hidden />
        Terms of Service version {licence.version}, accepted {formatLongDateTime(licence.acceptedAt)}
      </summary>
      <p className="mt-2 text-xs break-all text-muted-foreground">SHA-256 {licence.hash}</p>
      <pre className="mt-2 max-h-64 overflow-y-auto rounded-md bg-muted/50 p-3 font-sans text-xs whitespace-pre-wrap">{licence.text}</pre>
    </details>
  );
}

/** After approval, as the artist sees it: the promise, deliveries, revisions, the video, the licence. */
export function ArtistProduction({ submissionId, Section }: { submissionId: string; Section: (p: { title: string; children: React.ReactNode }) => React.ReactNode }) {
  const production = useProduction(submissionId);
  const state = production.data;
  if (!state) return null;
  const delivered = state.deliveries.length > 0;
  // A refunded submission promises no delivery any more (CONTRACT §19: rejected, or late).
  const promised = !state.refund;
  return (
    <>
      {promised ? <DeliveryPromise state={state} /> : null}
      {state.refund ? (
        <p className="rounded-lg border border-warning/40 bg-warning/5 p-3 text-sm">
          {REFUND_REASON_TEXT[state.refund.reason]}{' '}
          {state.refund.status === 'requested' ? 'The refund is on its way.' : ''}
        </p>
      ) : null}
      {delivered || (state.dueAt && promised) ? (
        <Section title="Your files">
          <DeliveriesList submissionId={submissionId} state={state} side="artist" />
        </Section>
      ) : null}
      {state.revisions.allowed > 0 ? (
        <Section title="Revisions">
          <RevisionForm submissionId={submissionId} state={state} />
        </Section>
      ) : null}
      {state.publication ? (
        <Section title="Published video">
          <div className="grid gap-1 text-sm">
            <a href={state.publication.videoUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary-soft underline">
              Watch on the label's channel <ExternalLink className="size-3" aria-hidden />
            </a>
            <p>Published {formatLongDateTime(state.publication.publishedAt)}</p>
            <p>
              Viral at {state.publication.viewsNeeded.toLocaleString('en-US')} views by {formatLongDateTime(state.publication.checkAt)} (
              {state.publication.subscriberCount.toLocaleString('en-US')} subscribers at publishing)
            </p>
            {state.publication.viewsAt14Days !== null ? (
              <p className="font-medium">
                {state.publication.viewsAt14Days.toLocaleString('en-US')} views at 14 days: {state.publication.viralHit ? 'a viral hit!' : 'not a viral hit'}
              </p>
            ) : null}
          </div>
        </Section>
      ) : null}
      {state.licence ? (
        <Section title="Licence">
          <LicenceRecord licence={state.licence} />
        </Section>
      ) : null}
    </>
  );
}
