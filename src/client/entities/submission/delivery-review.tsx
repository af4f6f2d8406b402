import { CheckCircle2, CircleDot, MessageSquare, Reply } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { DELIVERY_COMMENT_TEXT_MAX, formatMoment, type DeliverableFile, type Delivery, type DeliveryComment } from '@shared/production';
import { Button } from '@client/components/ui/button';
import { Textarea } from '@client/components/ui/textarea';
import { errorMessage } from '@client/lib/api';
import { formatLongDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { usePostDeliveryComment, useResolveDeliveryComment, useDeliveryComments } from './delivery-comments-queries';

/**
 * CONTRACT §17: a delivered video or audio file played with the delivery's comments as markers on
 * its timeline (choosing one plays from there), a comment at the current moment, and the thread
 * beside it with replies and resolve. The same on the artist's and the team's side.
 */

export const isPlayable = (file: DeliverableFile) => file.contentType.startsWith('video/') || file.contentType.startsWith('audio/');

const fail = (title: string) => (error: unknown) => toast({ title, description: errorMessage(error), variant: 'destructive' });

function Markers({ comments, duration, onSeek }: { comments: DeliveryComment[]; duration: number; onSeek: (seconds: number) => void }) {
  const pinned = comments.filter((c) => c.atSeconds !== null && c.replyTo === null);
  return (
    <div className="relative h-5 rounded bg-muted" aria-label="Comments on the timeline" role="group">
      {pinned.map((c) => {
        const left = duration > 0 ? Math.min(100, (c.atSeconds! / duration) * 100) : 0;
        return (
          <button
            key={c.id}
            type="button"
            onClick={() => onSeek(c.atSeconds!)}
            style={{ left: `${left}%` }}
            className={cn(
              'absolute top-0 h-5 w-2 -translate-x-1/2 cursor-pointer rounded-sm focus-visible:outline-2 focus-visible:outline-ring',
              c.resolved ? 'bg-muted-foreground/50' : c.author.role === 'admin' ? 'bg-primary' : 'bg-warning',
            )}
            aria-label={`Play from ${formatMoment(c.atSeconds!)}: ${c.text.slice(0, 60)}`}
            title={`${formatMoment(c.atSeconds!)} ${c.author.name}: ${c.text.slice(0, 80)}`}
            data-testid="comment-marker"
          />
        );
      })}
    </div>
  );
}

function CommentForm({
  onSubmit,
  busy,
  label,
  moment,
  autoFocus,
}: {
  onSubmit: (text: string, atMoment: boolean) => Promise<unknown>;
  busy: boolean;
  label: string;
  moment: number | null;
  autoFocus?: boolean;
}) {
  const [text, setText] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    try {
      await onSubmit(text, moment !== null);
      setText('');
    } catch (error) {
      fail('Comment not sent')(error);
    }
  };
  return (
    <form onSubmit={submit} className="grid gap-1.5">
      <Textarea
        rows={2}
        aria-label={label}
        placeholder={label}
        maxLength={DELIVERY_COMMENT_TEXT_MAX}
        value={text}
        autoFocus={autoFocus}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" size="sm" variant="outline" className="justify-self-start" disabled={busy || !text.trim()}>
        <MessageSquare aria-hidden />
        {moment !== null ? `Comment at ${formatMoment(moment)}` : 'Send'}
      </Button>
    </form>
  );
}

function Thread({
  submissionId,
  delivery,
  comments,
  onSeek,
}: {
  submissionId: string;
  delivery: Delivery;
  comments: DeliveryComment[];
  onSeek: (comment: DeliveryComment) => void;
}) {
  const post = usePostDeliveryComment(submissionId, delivery.id);
  const resolve = useResolveDeliveryComment(submissionId, delivery.id);
  const [replying, setReplying] = useState<string | null>(null);
  const roots = comments.filter((c) => c.replyTo === null);
  const repliesTo = (id: string) => comments.filter((c) => c.replyTo === id);
  if (roots.length === 0) return <p className="text-sm text-muted-foreground">No comments on this version yet.</p>;
  return (
    <ol className="grid gap-2" aria-label={`Comments on version ${delivery.version}`}>
      {roots.map((c) => (
        <li key={c.id} className={cn('grid gap-1.5 rounded-md border p-2 text-sm', c.resolved && 'opacity-70')} data-testid="delivery-comment">
          <div className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
            <span className="font-medium text-foreground">{c.author.name}</span>
            {c.author.role === 'admin' ? <span>label team</span> : null}
            {c.atSeconds !== null ? (
              <button type="button" className="cursor-pointer font-mono text-primary-soft underline" onClick={() => onSeek(c)} aria-label={`Play from ${formatMoment(c.atSeconds)}`}>
                {formatMoment(c.atSeconds)}
              </button>
            ) : null}
            <span>{formatLongDateTime(c.createdAt)}</span>
          </div>
          <p className="whitespace-pre-wrap break-words">{c.text}</p>
          {repliesTo(c.id).length > 0 ? (
            <ol className="grid gap-1.5 border-l-2 pl-3" aria-label="Replies">
              {repliesTo(c.id).map((r) => (
                <li key={r.id} className="grid gap-0.5" data-testid="delivery-reply">
                  <span className="text-xs text-muted-foreground">
                    <span className="font-medium text-foreground">{r.author.name}</span>
                    {r.author.role === 'admin' ? ' · label team' : ''} · {formatLongDateTime(r.createdAt)}
                  </span>
                  <p className="whitespace-pre-wrap break-words">{r.text}</p>
                </li>
              ))}
            </ol>
          ) : null}
          <div className="flex flex-wrap gap-1">
            <Button type="button" size="sm" variant="ghost" onClick={() => setReplying(replying === c.id ? null : c.id)}>
              <Reply aria-hidden />
              Reply
            </Button>
            <Button
              type="button"
              size="sm"
              variant="ghost"
              disabled={resolve.isPending}
              onClick={() => resolve.mutate({ commentId: c.id, resolved: !c.resolved }, { onError: fail('Not saved') })}
            >
              {c.resolved ? <CircleDot aria-hidden /> : <CheckCircle2 aria-hidden />}
              {c.resolved ? 'Reopen' : 'Resolve'}
            </Button>
            {c.resolved ? <span className="self-center text-xs text-muted-foreground">Resolved</span> : null}
          </div>
          {replying === c.id ? (
            <CommentForm
              label="Write a reply"
              moment={null}
              autoFocus
              busy={post.isPending}
              onSubmit={async (text) => {
                await post.mutateAsync({ text, replyTo: c.id });
                setReplying(null);
              }}
            />
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** A delivery's playable files with their comments: the player (and its markers) and the thread beside it. */
export function DeliveryReview({ submissionId, delivery }: { submissionId: string; delivery: Delivery }) {
  const playable = delivery.files.filter(isPlayable);
  const [fileId, setFileId] = useState(playable[0]?.id ?? null);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(0);
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const measuring = useRef(false);
  const comments = useDeliveryComments(submissionId, delivery.id);
  const post = usePostDeliveryComment(submissionId, delivery.id);
  const file = playable.find((f) => f.id === fileId) ?? playable[0];
  const list = comments.data ?? [];
  const onFile = list.filter((c) => c.fileId === file?.id || c.fileId === null);

  const seek = (seconds: number) => {
    const el = media.current;
    if (!el) return;
    el.currentTime = seconds;
    setCurrent(seconds);
    void el.play().catch(() => {});
  };
  const seekTo = (comment: DeliveryComment) => {
    if (comment.atSeconds === null) return;
    if (comment.fileId && comment.fileId !== file?.id) setFileId(comment.fileId);
    // After a file switch the element is new; it seeks once its metadata is in.
    requestAnimationFrame(() => seek(comment.atSeconds!));
  };

  const mediaProps = {
    ref: media,
    src: file?.url,
    controls: true,
    preload: 'metadata' as const,
    onTimeUpdate: (e: { currentTarget: HTMLMediaElement }) => setCurrent(e.currentTarget.currentTime),
    onSeeked: (e: { currentTarget: HTMLMediaElement }) => setCurrent(e.currentTarget.currentTime),
    onLoadedMetadata: (e: { currentTarget: HTMLMediaElement }) => {
      const el = e.currentTarget;
      setDuration(el.duration);
      // A WebM recorded in a browser (MediaRecorder) has no duration in its header: seeking past
      // the end makes the browser find it, then the player goes back to the start.
      if (el.duration === Infinity) {
        measuring.current = true;
        el.currentTime = 1e101;
      }
    },
    onDurationChange: (e: { currentTarget: HTMLMediaElement }) => {
      const el = e.currentTarget;
      setDuration(el.duration);
      if (measuring.current && Number.isFinite(el.duration)) {
        measuring.current = false;
        el.currentTime = 0;
      }
    },
  };

  return (
    <div className="grid gap-3 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" data-testid="delivery-review">
      {file ? (
        <div className="grid content-start gap-2">
          {playable.length > 1 ? (
            <div className="flex flex-wrap gap-1" role="group" aria-label="Choose a file to play">
              {playable.map((f) => (
                <Button key={f.id} size="sm" variant={f.id === file.id ? 'secondary' : 'ghost'} onClick={() => setFileId(f.id)} aria-pressed={f.id === file.id}>
                  {f.fileName}
                </Button>
              ))}
            </div>
          ) : null}
          {file.contentType.startsWith('video/') ? (
            <video key={file.id} {...mediaProps} aria-label={`Play ${file.fileName}`} className="max-h-72 w-full rounded-md bg-black" />
          ) : (
            <audio key={file.id} {...mediaProps} aria-label={`Play ${file.fileName}`} className="h-9 w-full" />
          )}
          <Markers comments={onFile} duration={Number.isFinite(duration) ? duration : 0} onSeek={seek} />
          <CommentForm
            label={`Comment on ${file.fileName}`}
            moment={current}
            busy={post.isPending}
            onSubmit={(text) => post.mutateAsync({ text, atSeconds: Math.round(current * 10) / 10, fileId: file.id })}
          />
        </div>
      ) : null}
      <div className="grid content-start gap-2">
        <h4 className="text-sm font-medium">Comments on version {delivery.version}</h4>
        {comments.isPending ? <p className="text-sm text-muted-foreground">Loading comments...</p> : <Thread submissionId={submissionId} delivery={delivery} comments={list} onSeek={seekTo} />}
      </div>
    </div>
  );
}
