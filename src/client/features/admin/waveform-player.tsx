import { MessageSquarePlus, Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { COMMENT_TEXT_MAX, formatTrackTime, type TrackComment } from '@shared/review-desk';
import { Button } from '@client/components/ui/button';
import { Checkbox } from '@client/components/ui/checkbox';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/lib/toast';
import { cn } from '@client/lib/utils';
import { recordListening, useAddTrackComment, useTrackComments, useWaveform } from './admin-queries';

/** A stretch shorter than this is a seek, not listening. */
const MIN_LISTEN_SECONDS = 1;

/**
 * The review desk's player (CONTRACT §14): the stored peaks drawn at once (no decoding in the
 * browser), comments as markers at their moment, a comment added at the current time, and the
 * stretches played reported so the list can show how much the team has heard. With `round`, one
 * version of the track (CONTRACT §27): its waveform, its comments, new comments made on it.
 */
export function WaveformPlayer({ submissionId, src, round }: { submissionId: string; src: string; round?: number | undefined }) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const waveform = useWaveform(submissionId, true, round);
  const allComments = useTrackComments(submissionId);
  // CONTRACT §27: each round has its own comments; without a round named, every comment shows.
  const comments = { ...allComments, data: round === undefined ? allComments.data : allComments.data?.filter((c) => c.round === round) };
  const add = useAddTrackComment(submissionId);
  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const [mediaDuration, setMediaDuration] = useState(0);
  const [text, setText] = useState('');
  const [visible, setVisible] = useState(false);
  const listenStart = useRef<number | null>(null);
  const duration = waveform.data?.durationSeconds ?? (Number.isFinite(mediaDuration) ? mediaDuration : 0);
  const progress = duration > 0 ? Math.min(1, current / duration) : 0;

  // Draw the peaks, played part in the accent colour; redrawn as playback moves.
  useEffect(() => {
    const canvas = canvasRef.current;
    const peaks = waveform.data?.peaks;
    if (!canvas || !peaks?.length) return;
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth * ratio;
    const height = canvas.clientHeight * ratio;
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, width, height);
    const style = getComputedStyle(canvas);
    const played = style.getPropertyValue('--wave-played').trim() || '#8b5cf6';
    const rest = style.getPropertyValue('--wave-rest').trim() || '#52525b';
    const bar = width / peaks.length;
    const mid = height / 2;
    for (let i = 0; i < peaks.length; i++) {
      const h = Math.max(1 * ratio, peaks[i]! * (height - 2 * ratio));
      ctx.fillStyle = i / peaks.length <= progress ? played : rest;
      ctx.fillRect(i * bar, mid - h / 2, Math.max(bar - 0.5 * ratio, 0.5 * ratio), h);
    }
    canvas.dataset.drawn = 'true';
  }, [waveform.data, progress]);

  const flushListening = (at: number) => {
    const from = listenStart.current;
    listenStart.current = null;
    if (from === null || at - from < MIN_LISTEN_SECONDS) return;
    void recordListening(submissionId, { from, to: at, ...(duration > 0 ? { durationSeconds: duration } : {}) }).catch(() => undefined);
  };
  // Whatever was playing when the dialog closes still counts.
  useEffect(() => () => flushListening(audioRef.current?.currentTime ?? 0), []); // eslint-disable-line react-hooks/exhaustive-deps

  const seek = (to: number) => {
    const el = audioRef.current;
    if (!el) return;
    if (!el.paused) flushListening(el.currentTime);
    el.currentTime = Math.max(0, Math.min(to, duration || to));
    setCurrent(el.currentTime);
    if (!el.paused) listenStart.current = el.currentTime;
  };
  const seekFromPointer = (e: PointerEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    if (duration > 0) seek(((e.clientX - rect.left) / rect.width) * duration);
  };
  const toggle = () => {
    const el = audioRef.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => toast({ title: 'Error', description: 'This audio file could not be played.', variant: 'destructive' }));
    else el.pause();
  };
  const submitComment = () => {
    const body = text.trim();
    if (!body) return;
    const atSeconds = Math.round(current * 10) / 10;
    add.mutate(
      { atSeconds, text: body, visibleToArtist: visible, ...(round === undefined ? {} : { round }) },
      {
        onSuccess: () => {
          setText('');
          toast({ title: 'Comment Added', description: `At ${formatTrackTime(atSeconds)}${visible ? ', visible to the artist' : ''}.` });
        },
        onError: () => toast({ title: 'Error', description: 'Failed to add the comment. Please try again.', variant: 'destructive' }),
      },
    );
  };

  return (
    <div className="grid gap-3 rounded-lg border bg-card/60 p-3" data-testid="waveform-player">
      <audio
        ref={audioRef}
        src={src}
        preload="metadata"
        onPlay={(e) => {
          setPlaying(true);
          listenStart.current = e.currentTarget.currentTime;
        }}
        onPause={(e) => {
          setPlaying(false);
          flushListening(e.currentTarget.currentTime);
        }}
        onEnded={(e) => {
          setPlaying(false);
          flushListening(e.currentTarget.currentTime);
        }}
        onTimeUpdate={(e) => setCurrent(e.currentTarget.currentTime)}
        onDurationChange={(e) => setMediaDuration(e.currentTarget.duration)}
      />
      <div className="flex items-center gap-3">
        <Button size="icon" className="shrink-0 rounded-full" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'}>
          {playing ? <Pause aria-hidden /> : <Play aria-hidden />}
        </Button>
        <div
          role="slider"
          tabIndex={0}
          aria-label="Seek"
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(current)}
          aria-valuetext={formatTrackTime(current)}
          onPointerDown={seekFromPointer}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') seek(current + 5);
            else if (e.key === 'ArrowLeft') seek(current - 5);
            else return;
            e.preventDefault();
          }}
          className="relative h-16 min-w-0 flex-1 cursor-pointer rounded outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {waveform.data ? (
            <canvas
              ref={canvasRef}
              data-testid="waveform-canvas"
              className="size-full [--wave-played:var(--color-primary)] [--wave-rest:var(--color-muted-foreground)]"
            />
          ) : (
            <div className="absolute inset-x-0 top-1/2 h-1.5 -translate-y-1/2 overflow-hidden rounded-full bg-muted">
              <div className="h-full bg-primary" style={{ width: `${progress * 100}%` }} />
            </div>
          )}
          {duration > 0
            ? comments.data?.map((c) => (
                <span
                  key={c.id}
                  data-testid="comment-marker"
                  title={`${formatTrackTime(c.atSeconds)} ${c.text}`}
                  className={cn('pointer-events-none absolute top-0 h-full w-0.5', c.visibleToArtist ? 'bg-success' : 'bg-warning')}
                  style={{ left: `${Math.min(100, (c.atSeconds / duration) * 100)}%` }}
                />
              ))
            : null}
        </div>
        <span className="w-20 shrink-0 text-right text-xs text-muted-foreground tabular-nums" data-testid="player-time">
          {formatTrackTime(current)} / {formatTrackTime(duration)}
        </span>
      </div>
      <form
        className="grid gap-2 sm:grid-cols-[1fr_auto_auto] sm:items-center"
        onSubmit={(e) => {
          e.preventDefault();
          submitComment();
        }}
      >
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={COMMENT_TEXT_MAX}
          aria-label={`Comment at ${formatTrackTime(current)}`}
          placeholder={`Comment at ${formatTrackTime(current)}...`}
        />
        <div className="flex items-center gap-2">
          <Checkbox id={`visible-${submissionId}`} checked={visible} onCheckedChange={(v) => setVisible(v === true)} />
          <Label htmlFor={`visible-${submissionId}`} className="text-xs font-normal">
            Visible to the artist
          </Label>
        </div>
        <Button type="submit" size="sm" disabled={!text.trim() || add.isPending}>
          <MessageSquarePlus aria-hidden />
          Add comment
        </Button>
      </form>
      <CommentList comments={comments.data ?? []} onSeek={seek} />
    </div>
  );
}

function CommentList({ comments, onSeek }: { comments: TrackComment[]; onSeek(at: number): void }) {
  if (comments.length === 0) return <p className="text-xs text-muted-foreground">No comments on the track yet.</p>;
  return (
    <ol className="grid max-h-48 gap-1.5 overflow-y-auto text-sm" aria-label="Track comments">
      {comments.map((c) => (
        <li key={c.id} className="flex gap-2">
          <button type="button" onClick={() => onSeek(c.atSeconds)} className="shrink-0 cursor-pointer font-mono text-xs text-primary-soft tabular-nums hover:underline">
            {formatTrackTime(c.atSeconds)}
          </button>
          <span className="min-w-0 break-words">
            {c.text}
            <span className="ml-1.5 text-xs text-muted-foreground">
              — {c.author?.name ?? 'Team'}
              {c.visibleToArtist ? ' · visible to the artist' : ' · internal'}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}
