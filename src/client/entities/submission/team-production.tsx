import { MONEY_CONFIRM_TEXTS, REFUND_REASON_TEAM_LABEL } from '@shared/billing';
import { CalendarClock, Clapperboard, PackageCheck, Paperclip, Undo2, Upload } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { DELIVERY_NOTE_MAX, type ProductionState, type WorkEnd } from '@shared/production';
import { PRODUCTION_TEXTS } from '@shared/production-texts';
import { TIERS, formatUsd, isPaidTier, isPublishable, type PricingTier } from '@shared/submissions';
import { Button } from '@client/components/ui/button';
import { useConfirm } from '@client/components/ui/confirm-dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Textarea } from '@client/components/ui/textarea';
import { errorMessage } from '@client/lib/api';
import { formatLongDate, formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useMailText } from '@client/lib/public-config';
import { MAIL_TEXTS } from '@shared/api';
import { ChannelPublish, useChannelConnected } from './channel-publish';
import { DeliveriesList } from './deliveries-list';
import { LicenceRecord } from './artist-production';
import { uploadDeliverable, useDeliver, useEnterViews, useProduction, usePublish, useRefund } from './production-queries';
import { overrideOf, RightsOverrideField } from './rights-override';
import { ViralScreenPanel } from './viral-screen-panel';
import { DetailsSection } from '@client/components/details-section';

const fail = (title: string) => (error: unknown) => toast({ title, description: errorMessage(error), variant: 'destructive' });

function DeliverForm({ submissionId }: { submissionId: string }) {
  const files = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const mailText = useMailText();
  const deliver = useDeliver(submissionId);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = [...(files.current?.files ?? [])];
    if (chosen.length === 0) return;
    try {
      const objectPaths: string[] = [];
      for (const [index, file] of chosen.entries()) {
        const label = `Uploading ${index + 1} of ${chosen.length}`;
        setBusy(`${label}...`);
        objectPaths.push(await uploadDeliverable(file, (percent) => setBusy(`${label} (${percent}%)...`)));
      }
      setBusy('Delivering...');
      await deliver.mutateAsync({ objectPaths, note });
      setNote('');
      if (files.current) files.current.value = '';
      setChosen([]);
      toast({ title: 'Files delivered', description: mailText(MAIL_TEXTS.artistEmailed) });
    } catch (error) {
      fail('Delivery failed')(error);
    } finally {
      setBusy(null);
    }
  };
  return (
    <form onSubmit={submit} className="grid gap-2">
      <Label htmlFor="deliverable-files">Files (images, ZIP, audio, video)</Label>
      {/*
        The browser's control read "Choose Files / No file chosen" in the browser's own words and
        look (issue 36): it stays, out of sight, for the keyboard and screen readers, and a label
        dressed as the app's buttons opens it, with the files chosen named beside it.
      */}
      <div className="flex flex-wrap items-center gap-2">
        <input
          id="deliverable-files"
          ref={files}
          type="file"
          multiple
          accept="image/jpeg,image/png,image/webp,.zip,audio/*,video/mp4,video/quicktime,video/webm"
          className="peer sr-only"
          onChange={(event) => setChosen([...(event.target.files ?? [])].map((f) => f.name))}
        />
        <label
          htmlFor="deliverable-files"
          className="inline-flex h-8 cursor-pointer items-center gap-2 rounded-md border border-input bg-secondary px-3 text-sm font-medium text-secondary-foreground peer-focus-visible:ring-2 peer-focus-visible:ring-ring hover:bg-accent"
        >
          <Paperclip className="size-4" aria-hidden />
          Choose files
        </label>
        <span className="min-w-0 text-sm break-words text-muted-foreground" data-testid="deliverable-chosen" aria-live="polite">
          {chosen.length === 0 ? 'None chosen yet' : chosen.length === 1 ? chosen[0] : `${chosen.length} files: ${chosen.join(', ')}`}
        </span>
      </div>
      <Label htmlFor="delivery-note">Note for the artist</Label>
      <Textarea id="delivery-note" rows={2} maxLength={DELIVERY_NOTE_MAX} value={note} onChange={(e) => setNote(e.target.value)} />
      <Button type="submit" size="sm" className="justify-self-start" disabled={busy !== null}>
        <Upload aria-hidden />
        {busy ?? 'Deliver files'}
      </Button>
    </form>
  );
}

/** How late the check ran, in the largest unit that fits: "3 days", "5 hours", "12 minutes". */
function lateness(seconds: number): string {
  const [n, unit] = seconds >= 86_400 ? [Math.round(seconds / 86_400), 'day'] : seconds >= 3600 ? [Math.round(seconds / 3600), 'hour'] : [Math.max(1, Math.round(seconds / 60)), 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

const toLocalInput = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/**
 * Recording a publication by its link (CONTRACT §13). With the channel connected, publishing there
 * is the one path and this is the secondary action for a video published outside the product,
 * folded away and labelled so (issue 36); without it, this is how a publication is recorded.
 */
function PublishForm({ submissionId, state, secondary }: { submissionId: string; state: ProductionState; secondary: boolean }) {
  const publication = state.publication;
  const [videoUrl, setVideoUrl] = useState(publication?.videoUrl ?? '');
  const [publishedAt, setPublishedAt] = useState(toLocalInput(publication ? new Date(publication.publishedAt) : new Date()));
  const [subscribers, setSubscribers] = useState(publication ? String(publication.subscriberCount) : '');
  const [overrideReason, setOverrideReason] = useState('');
  const mailText = useMailText();
  const publish = usePublish(submissionId);
  const [confirmDialog, confirm] = useConfirm();
  // A cut: a delivery with a video. The approval is of the latest delivery (a later one clears it).
  const cutDelivered = state.deliveries.some((d) => d.files.some((f) => f.contentType.startsWith('video/')));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // CONTRACT §17: the Terms let the label publish an unapproved cut, but the team confirms it first.
    if (cutDelivered && state.approvedDeliveryId === null && !publication) {
      const ok = await confirm({ title: 'Publish an unapproved cut?', description: PRODUCTION_TEXTS.unapprovedCutConfirm, confirmLabel: 'Publish anyway' });
      if (!ok) return;
    }
    publish.mutate(
      {
        videoUrl: videoUrl.trim(),
        publishedAt: new Date(publishedAt).toISOString(),
        ...(subscribers.trim() ? { subscriberCount: Number(subscribers) } : {}),
        ...overrideOf(overrideReason),
      },
      { onSuccess: () => toast({ title: 'Publication recorded', description: mailText(MAIL_TEXTS.artistEmailedLink) }), onError: fail('Publication not recorded') },
    );
  };
  if (publication?.checkedAt) return null;
  const form = (
    <form onSubmit={(event) => void submit(event)} className={secondary ? 'grid gap-2 pt-2' : 'grid gap-2 border-t pt-3'} aria-labelledby="publication-heading">
      <h4 id="publication-heading" className={secondary ? 'sr-only' : 'text-sm font-semibold'}>
        {publication ? 'Publication on the label’s channel' : 'Record the publication'}
      </h4>
      {secondary ? <p className="text-xs text-muted-foreground">{PRODUCTION_TEXTS.recordByHandHint}</p> : null}
      <Label htmlFor="publication-url">Video URL on the label's channel</Label>
      <Input id="publication-url" type="url" required value={videoUrl} onChange={(e) => setVideoUrl(e.target.value)} placeholder="https://www.youtube.com/watch?v=…" />
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="grid gap-1">
          <Label htmlFor="publication-time">Published at</Label>
          <Input id="publication-time" type="datetime-local" required value={publishedAt} onChange={(e) => setPublishedAt(e.target.value)} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="publication-subscribers">Subscribers at publishing</Label>
          <Input
            id="publication-subscribers"
            inputMode="numeric"
            pattern="[0-9]*"
            value={subscribers}
            onChange={(e) => setSubscribers(e.target.value)}
            placeholder="Read from YouTube when configured"
            disabled={publication?.subscriberSource === 'youtube'}
          />
        </div>
      </div>
      {publication ? null : <RightsOverrideField submissionId={submissionId} reason={overrideReason} onReason={setOverrideReason} />}
      <Button type="submit" size="sm" className="justify-self-start" disabled={publish.isPending}>
        <Clapperboard aria-hidden />
        {publish.isPending ? 'Saving...' : publication ? 'Update publication' : 'Record publication'}
      </Button>
      {confirmDialog}
    </form>
  );
  if (!secondary) return form;
  return (
    <details className="border-t pt-3" data-testid="record-by-hand">
      <summary className="cursor-pointer text-sm text-muted-foreground hover:text-foreground">{PRODUCTION_TEXTS.recordByHand}</summary>
      {form}
    </details>
  );
}

function ViewsForm({ submissionId, state }: { submissionId: string; state: ProductionState }) {
  const publication = state.publication!;
  const [views, setViews] = useState('');
  const enter = useEnterViews(submissionId);
  const due = new Date(publication.checkAt) <= new Date();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enter.mutate(Number(views), { onSuccess: () => { setViews(''); toast({ title: 'Views recorded' }); }, onError: fail('Views not recorded') });
  };
  return (
    <div className="grid gap-2 text-sm">
      <p>
        {publication.subscriberCount.toLocaleString('en-US')} subscribers ({publication.subscriberSource === 'youtube' ? 'from YouTube, locked' : 'entered'}) → a hit at{' '}
        {publication.viewsNeeded.toLocaleString('en-US')} views. Check {formatLongDateTime(publication.checkAt)}
        {publication.checkedAt
          ? `, ran ${formatLongDateTime(publication.checkedAt)}${publication.checkRetryAt ? ' after waiting for YouTube Analytics' : ''}${publication.checkLateSeconds ? ` (${lateness(publication.checkLateSeconds)} late)` : ''}`
          : ''}.
      </p>
      {publication.viewsAt14Days === null ? (
        <p
          className={`justify-self-start rounded-full px-2.5 py-0.5 text-xs font-medium ${publication.checkedAt ? 'bg-destructive/15 text-destructive-soft' : 'bg-secondary text-secondary-foreground'}`}
          data-testid="views-check-state"
        >
          {publication.checkedAt
            ? 'Needs the views typed in: neither the channel nor the API could read them'
            : publication.checkRetryAt
              ? `Waiting for YouTube Analytics to report the window’s last day; next try ${formatLongDateTime(publication.checkRetryAt)}`
              : due
                ? 'The 14-day check is running'
                : PRODUCTION_TEXTS.countWaiting}
        </p>
      ) : null}
      {publication.viewsAt14Days !== null ? (
        <p className="font-medium">
          {publication.viewsAt14Days.toLocaleString('en-US')} views at 14 days: {publication.viralHit ? 'viral hit' : 'not a hit'}
        </p>
      ) : null}
      <ViralScreenPanel submissionId={submissionId} publication={publication} />
      {publication.readings.length > 1 ? (
        <ol className="text-xs text-muted-foreground" aria-label="View count history">
          {publication.readings.map((r) => (
            <li key={r.recordedAt}>
              {formatLongDateTime(r.recordedAt)}: {r.views.toLocaleString('en-US')} ({r.source === 'youtube' ? 'YouTube' : 'entered by the team'})
            </li>
          ))}
        </ol>
      ) : null}
      {due ? (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor="views-at-14">{publication.viewsAt14Days === null ? 'Views at 14 days' : 'Correct the views'}</Label>
            <Input id="views-at-14" inputMode="numeric" pattern="[0-9]*" required value={views} onChange={(e) => setViews(e.target.value)} className="w-40" />
          </div>
          <Button type="submit" size="sm" variant="outline" disabled={enter.isPending}>
            Save views
          </Button>
        </form>
      ) : null}
    </div>
  );
}

/** The team's side of production in the submission details: deadline, delivery, refund, publication, views. */
export function TeamProduction({
  submissionId,
  tier,
  status,
  paymentStatus,
  ended = null,
  videoFileUrl,
}: {
  submissionId: string;
  tier: PricingTier;
  status: string;
  paymentStatus: string | null;
  /** What ended the work's to-dos (workEndOf): no delivery form, no refund to make (issue 43 item 10). */
  ended?: WorkEnd | null;
  videoFileUrl?: string | null;
}) {
  const production = useProduction(submissionId);
  const refund = useRefund(submissionId);
  const [confirmDialog, confirm] = useConfirm();
  const channelConnected = useChannelConnected();
  const state = production.data;
  if (!state) return null;
  const canPublish = isPublishable(status);
  return (
    <DetailsSection id="production-heading" icon={PackageCheck} title="Production" className="grid gap-4">
      {state.dueAt ? (
        <p className={`flex items-center gap-2 text-sm ${state.overdue ? 'font-medium text-destructive' : ''}`} data-testid="admin-due">
          <CalendarClock className="size-4" aria-hidden />
          {state.deliveredAt
            ? `Delivered ${formatLongDate(state.deliveredAt)} (due ${formatLongDate(state.dueAt)})`
            : `${state.overdue ? 'Overdue since' : 'Due'} ${formatLongDateTime(state.dueAt)}`}
        </p>
      ) : null}
      <DeliveriesList submissionId={submissionId} state={state} side="team" />
      {/* Turned down or refunded, nothing is owed: no delivery to make. A published video may still get files. */}
      {ended === 'rejected' || ended === 'refunded' ? null : <DeliverForm submissionId={submissionId} />}
      {state.revisions.allowed > 0 ? (
        <p className="text-sm">
          Revisions asked: {state.revisions.used} of {state.revisions.allowed}
        </p>
      ) : null}
      {state.revisions.requests.map((r, index) => (
        <p key={r.id} className="rounded-md bg-muted/50 p-2 text-sm whitespace-pre-wrap">
          <span className="text-xs text-muted-foreground">Revision #{index + 1} · {formatLongDateTime(r.createdAt)}</span>
          <br />
          {r.note}
        </p>
      ))}
      {/* A refund once the payment succeeded and before publication: after it the work is done (issue 43 item 10). */}
      {isPaidTier(tier) && (state.refund || (paymentStatus === 'succeeded' && ended === null)) ? (
        state.refund ? (
          <p className="text-sm">
            Refunded ({REFUND_REASON_TEAM_LABEL[state.refund.reason]}) {formatLongDateTime(state.refund.requestedAt)}
            {state.refund.status === 'requested' ? ', waiting for Stripe' : ''}
          </p>
        ) : (
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            disabled={refund.isPending}
            onClick={async () => {
              const amount = formatUsd(TIERS[tier].priceUsd);
              const ok = await confirm({
                title: MONEY_CONFIRM_TEXTS.refundTitle,
                description: MONEY_CONFIRM_TEXTS.refundBody(amount),
                confirmLabel: MONEY_CONFIRM_TEXTS.refundConfirm,
                destructive: true,
              });
              if (ok) refund.mutate(undefined, { onSuccess: () => toast({ title: 'Payment refunded', description: `${amount} goes back to the artist's card.` }), onError: fail('Refund failed') });
            }}
          >
            <Undo2 aria-hidden />
            Refund payment
          </Button>
        )
      ) : null}
      {canPublish ? (
        // The phone's details sheet jumps here ("Publishing", issue 43 item 9).
        <div id="desk-publishing" className="grid scroll-mt-16 gap-4 outline-none">
          <ChannelPublish submissionId={submissionId} state={state} videoFileUrl={videoFileUrl} />
          <PublishForm key={state.publication?.publishedAt ?? 'new'} submissionId={submissionId} state={state} secondary={channelConnected && !state.publication} />
        </div>
      ) : null}
      {state.publication ? <ViewsForm submissionId={submissionId} state={state} /> : null}
      {state.licence ? <LicenceRecord licence={state.licence} /> : null}
      {confirmDialog}
    </DetailsSection>
  );
}
