import { useMutation, useQuery } from '@tanstack/react-query';
import { Copy, MonitorPlay, X } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import {
  PRIVACY_STATUSES,
  YOUTUBE_TITLE_MAX,
  type ChannelStatus,
  type PrivacyStatus,
  type ProductionState,
  type PublicationDraft,
  type YouTubePublishInput,
  type YouTubeUploadStatus,
} from '@shared/production';
import { uploadIdFromObjectPath } from '@shared/submissions';
import { PRODUCTION_TEXTS, PUBLISHING_TEXTS } from '@shared/production-texts';
import { Button } from '@client/components/ui/button';
import { useConfirm } from '@client/components/ui/confirm-dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Progress } from '@client/components/ui/progress';
import { Textarea } from '@client/components/ui/textarea';
import { apiRequest, errorMessage } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';
import { toast } from '@client/lib/toast';
import { overrideOf, RightsOverrideField, type RightsOverride } from './rights-override';

/** Publishing on the label's channel from the desk (CONTRACT §16). */

const CHANNEL_KEY = ['/api/admin/channel'];
const draftKey = (id: string) => ['/api/admin/submissions', id, 'publication-draft'];
const uploadKey = (id: string) => ['/api/admin/submissions', id, 'youtube'];
const RUNNING: (YouTubeUploadStatus['state'] | undefined)[] = ['queued', 'uploading', 'processing'];
const RESTARTABLE: (YouTubeUploadStatus['state'] | undefined)[] = ['failed', 'cancelled'];

const clock = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });
const formatTime = (iso: string) => clock.format(new Date(iso));

/** Whether the label's channel is connected: then publishing there is the desk's one publish path (issue 36). */
export function useChannelConnected(): boolean {
  return useQuery<ChannelStatus>({ queryKey: CHANNEL_KEY }).data?.connected === true;
}

const STATE_LABELS: Record<NonNullable<YouTubeUploadStatus['state']>, string> = {
  queued: 'Waiting to upload',
  uploading: 'Uploading to YouTube',
  processing: 'Uploaded; setting the thumbnail and recording the publication',
  published: 'Published on the channel',
  failed: 'Publishing failed',
  cancelled: 'Publishing cancelled',
};

const selectClass =
  'h-10 w-full rounded-md border border-input bg-background/60 px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring';

function CopyButton({ text, what }: { text: string; what: string }) {
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label={`Copy the ${what}`}
      onClick={() =>
        navigator.clipboard
          .writeText(text)
          .then(() => toast({ title: `${what[0]!.toUpperCase()}${what.slice(1)} copied` }))
          .catch(() => toast({ title: 'Could not copy', description: 'Select the text and copy it by hand.', variant: 'destructive' }))
      }
    >
      <Copy aria-hidden /> Copy
    </Button>
  );
}

/**
 * The videos that may go out: the team's delivered cuts, and the artist's own finished video.
 * `approved`: a cut of the version the artist approved (CONTRACT §17), or the artist's own video.
 */
function videoChoices(state: ProductionState, videoFileUrl: string | null | undefined) {
  const choices = state.deliveries.flatMap((delivery) =>
    delivery.files
      .filter((file) => file.contentType.startsWith('video/'))
      .map((file) => ({
        objectPath: `/objects/uploads/${file.id}`,
        label: `${file.fileName} (version ${delivery.version})`,
        approved: delivery.id === state.approvedDeliveryId,
      })),
  );
  if (videoFileUrl && uploadIdFromObjectPath(videoFileUrl)) choices.push({ objectPath: videoFileUrl, label: "The artist's own video", approved: true });
  return choices;
}

/** YouTube's own words about the last failure, folded: the advice above says what to do. */
function RawError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <details className="text-xs text-muted-foreground" data-testid="youtube-raw-error">
      <summary className="cursor-pointer hover:text-foreground">{PUBLISHING_TEXTS.rawError}</summary>
      <p className="mt-1 break-words">{error}</p>
    </details>
  );
}

function Progressing({ submissionId, status }: { submissionId: string; status: YouTubeUploadStatus }) {
  const percent = status.bytesTotal > 0 ? Math.floor((status.bytesSent / status.bytesTotal) * 100) : 0;
  const cancellable = status.state === 'queued' || status.state === 'uploading';
  const cancel = useMutation({
    mutationFn: () => apiRequest<void>('DELETE', `/api/admin/submissions/${submissionId}/youtube`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: uploadKey(submissionId) }),
    onError: (error) => toast({ title: 'Not cancelled', description: errorMessage(error), variant: 'destructive' }),
  });
  return (
    <div className="grid gap-2" data-testid="youtube-progress" aria-live="polite">
      <p className="text-sm font-medium">
        {STATE_LABELS[status.state!]}
        {status.state === 'uploading' ? ` · ${percent}%` : ''}
      </p>
      {cancellable ? <Progress value={percent} aria-label="Upload progress" /> : null}
      {/* CONTRACT §23: while it retries, the team sees the tries so far and the last error. */}
      {RUNNING.includes(status.state) && status.attempts > 0 ? (
        <div className="grid gap-1 text-sm text-muted-foreground" data-testid="youtube-retrying">
          <p>
            {PUBLISHING_TEXTS.retrying(status.attempts, status.nextAttemptAt ? formatTime(status.nextAttemptAt) : null)}
            {status.advice ? ` ${status.advice}` : ''}
          </p>
          <RawError error={status.error} />
        </div>
      ) : null}
      {cancellable ? (
        <Button type="button" variant="outline" size="sm" className="justify-self-start" disabled={cancel.isPending} onClick={() => cancel.mutate()}>
          <X aria-hidden /> {cancel.isPending ? 'Cancelling...' : 'Cancel publishing'}
        </Button>
      ) : null}
      {status.state === 'published' && status.videoId ? (
        <a className="text-sm text-primary underline" href={`https://www.youtube.com/watch?v=${status.videoId}`} target="_blank" rel="noreferrer">
          https://www.youtube.com/watch?v={status.videoId}
        </a>
      ) : null}
      {status.state === 'failed' ? (
        <div className="grid gap-1" role="alert">
          {/* What to do leads; YouTube's own sentence stays one click away, for the team to quote to Google (issue 43 item 11). */}
          <p className="text-sm text-destructive-soft" data-testid="youtube-advice">
            {status.advice ?? status.error}
          </p>
          {status.advice ? <RawError error={status.error} /> : null}
        </div>
      ) : null}
    </div>
  );
}

export function ChannelPublish({ submissionId, state, videoFileUrl }: { submissionId: string; state: ProductionState; videoFileUrl?: string | null }) {
  const channel = useQuery<ChannelStatus>({ queryKey: CHANNEL_KEY });
  const draft = useQuery<PublicationDraft>({ queryKey: draftKey(submissionId) });
  const upload = useQuery<YouTubeUploadStatus>({
    queryKey: uploadKey(submissionId),
    enabled: channel.data?.connected === true,
    // Progress while the job runs: the one poll on the desk, and only then.
    refetchInterval: (query) => (RUNNING.includes(query.state.data?.state) ? 1500 : false),
  });
  const running = RUNNING.includes(upload.data?.state);
  const uploadState = upload.data?.state;
  useEffect(() => {
    // The job recorded the publication, failed or was cancelled: the desk's production and lists (their publishing badge) show it.
    if (uploadState && !RUNNING.includes(uploadState)) {
      void queryClient.invalidateQueries({ queryKey: ['/api/submissions', submissionId, 'production'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/admin/submissions'] });
    }
  }, [uploadState, submissionId]);
  if (!draft.data || !channel.data) return null;
  if (state.publication && !running && upload.data?.state !== 'published') return null;
  if (!channel.data.connected) return <DraftToCopy draft={draft.data} />;
  if (upload.data?.state && !RESTARTABLE.includes(upload.data.state)) return <Progressing submissionId={submissionId} status={upload.data} />;
  return (
    <div className="grid gap-3">
      {RESTARTABLE.includes(upload.data?.state) ? <Progressing submissionId={submissionId} status={upload.data!} /> : null}
      <PublishOnChannel
        submissionId={submissionId}
        draft={draft.data}
        channelTitle={channel.data.title ?? 'the channel'}
        choices={videoChoices(state, videoFileUrl)}
        onStarted={() => queryClient.invalidateQueries({ queryKey: uploadKey(submissionId) })}
      />
    </div>
  );
}

/** No channel connected: the draft to paste into YouTube by hand, before the publication is recorded below. */
function DraftToCopy({ draft }: { draft: PublicationDraft }) {
  return (
    <div className="grid gap-2 rounded-md border p-3" data-testid="publication-draft">
      <p className="text-sm text-muted-foreground">
        For YouTube (no channel connected: paste these, then record the link below). <a className="underline" href="/admin/channel">Connect the channel</a> to publish from here.
      </p>
      <div className="flex items-center justify-between gap-2">
        <Label>Title</Label>
        <CopyButton text={draft.title} what="title" />
      </div>
      <p className="rounded bg-muted/50 p-2 text-sm [overflow-wrap:anywhere]">{draft.title}</p>
      <div className="flex items-center justify-between gap-2">
        <Label>Description</Label>
        <CopyButton text={draft.description} what="description" />
      </div>
      <p className="max-h-48 overflow-auto rounded bg-muted/50 p-2 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{draft.description}</p>
      {draft.tags.length > 0 ? <p className="text-xs text-muted-foreground">Tags: {draft.tags.join(', ')}</p> : null}
    </div>
  );
}

function PublishOnChannel({
  submissionId,
  draft,
  channelTitle,
  choices,
  onStarted,
}: {
  submissionId: string;
  draft: PublicationDraft;
  channelTitle: string;
  choices: { objectPath: string; label: string; approved: boolean }[];
  onStarted: () => void;
}) {
  const [picked, setObjectPath] = useState(choices.at(-1)?.objectPath ?? '');
  // The choice as it stands now: a form first drawn before the delivery reached this list (deliver,
  // then publish at once) started with nothing picked while its select showed the new video, and
  // sent an empty path ("Not a file uploaded to this site"). The latest video stands in until one is picked.
  const objectPath = choices.some((choice) => choice.objectPath === picked) ? picked : (choices.at(-1)?.objectPath ?? '');
  const [title, setTitle] = useState(draft.title);
  const [description, setDescription] = useState(draft.description);
  const [tags, setTags] = useState(draft.tags.join(', '));
  const [privacyStatus, setPrivacyStatus] = useState<PrivacyStatus>('public');
  const [publishAt, setPublishAt] = useState('');
  const [overrideReason, setOverrideReason] = useState('');
  const [confirmDialog, confirm] = useConfirm();
  const publish = useMutation({
    mutationFn: (input: YouTubePublishInput & RightsOverride) => apiRequest<YouTubeUploadStatus>('POST', `/api/admin/submissions/${submissionId}/youtube`, input),
    onSuccess: (status) => {
      queryClient.setQueryData(uploadKey(submissionId), status);
      onStarted();
      toast({ title: 'Publishing on YouTube', description: 'The upload runs on the server; you may close this.' });
    },
    onError: (error) => toast({ title: 'Not published', description: errorMessage(error), variant: 'destructive' }),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // CONTRACT §17: the Terms let the label publish an unapproved cut, but the team confirms it first (CONTRACT §21: in the product's dialog).
    if (
      !choices.find((choice) => choice.objectPath === objectPath)?.approved &&
      !(await confirm({ title: 'Publish an unapproved cut?', description: PRODUCTION_TEXTS.unapprovedCutConfirm, confirmLabel: 'Publish anyway' }))
    )
      return;
    publish.mutate({
      objectPath,
      title: title.trim(),
      description,
      tags: tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      privacyStatus,
      ...(publishAt ? { publishAt: new Date(publishAt).toISOString() } : {}),
      ...overrideOf(overrideReason),
    });
  };
  if (choices.length === 0) {
    return <p className="text-sm text-muted-foreground">Deliver the video (or use the artist's own) to publish it on {channelTitle}.</p>;
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-2 rounded-md border p-3" aria-label="Publish on the channel">
      {confirmDialog}
      <p className="flex items-center gap-2 text-sm font-medium">
        <MonitorPlay className="size-4" aria-hidden /> Publish on {channelTitle}
      </p>
      <Label htmlFor="yt-video">Video</Label>
      <select id="yt-video" className={selectClass} value={objectPath} onChange={(e) => setObjectPath(e.target.value)}>
        {choices.map((choice) => (
          <option key={choice.objectPath} value={choice.objectPath}>
            {choice.label}
          </option>
        ))}
      </select>
      <Label htmlFor="yt-title">Title</Label>
      <Input id="yt-title" required maxLength={YOUTUBE_TITLE_MAX} value={title} onChange={(e) => setTitle(e.target.value)} />
      <Label htmlFor="yt-description">Description</Label>
      <Textarea id="yt-description" rows={6} value={description} onChange={(e) => setDescription(e.target.value)} />
      <Label htmlFor="yt-tags">Tags (comma separated)</Label>
      <Input id="yt-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="grid gap-1">
          <Label htmlFor="yt-privacy">Visibility</Label>
          <select id="yt-privacy" className={selectClass} value={privacyStatus} onChange={(e) => setPrivacyStatus(e.target.value as PrivacyStatus)}>
            {PRIVACY_STATUSES.map((p) => (
              <option key={p} value={p}>
                {p[0]!.toUpperCase() + p.slice(1)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="yt-publish-at">Schedule (optional)</Label>
          <Input id="yt-publish-at" type="datetime-local" value={publishAt} onChange={(e) => setPublishAt(e.target.value)} />
        </div>
      </div>
      <RightsOverrideField submissionId={submissionId} reason={overrideReason} onReason={setOverrideReason} />
      <Button type="submit" size="sm" className="justify-self-start" disabled={publish.isPending}>
        <MonitorPlay aria-hidden />
        {publish.isPending ? 'Starting...' : publishAt ? 'Schedule on YouTube' : 'Publish on YouTube'}
      </Button>
    </form>
  );
}
