import { AlertTriangle, Download, Pause, Play, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { uploadIdFromObjectPath } from '@shared/submissions';

/** SPEC §9: skips of 10 and 30 seconds; volume in steps of 0.1. */
const SKIPS = [-30, -10, 10, 30] as const;
const VOLUME_STEP = 0.1;

interface AudioPlayerProps {
  /** The object path of the music file, e.g. /objects/uploads/{id}. */
  src: string;
  /** The name offered for the download. */
  downloadName?: string;
  className?: string;
}

function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00';
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Plays a stored music file: seek, play/pause, skip ±10/±30 s, volume and download. */
export function AudioPlayer({ src, downloadName, className }: AudioPlayerProps) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(0);
  const [volume, setVolume] = useState(1);
  const [failed, setFailed] = useState(false);
  // A stored upload, or a bare file name kept from the old product (SPEC §8).
  const stored = uploadIdFromObjectPath(src) !== null;

  useEffect(() => {
    if (audioRef.current) audioRef.current.volume = volume;
  }, [volume]);

  if (!stored) {
    return (
      <div role="alert" className={cn('flex items-start gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm text-warning', className)}>
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <div className="min-w-0">
          <p>Audio file missing from storage - filename only reference</p>
          <p className="truncate text-xs text-muted-foreground" title={src}>
            {src}
          </p>
        </div>
      </div>
    );
  }

  const audio = () => audioRef.current;
  const toggle = () => {
    const el = audio();
    if (!el) return;
    if (el.paused) void el.play().catch(() => setFailed(true));
    else el.pause();
  };
  const seek = (to: number) => {
    const el = audio();
    if (!el) return;
    el.currentTime = Math.min(Math.max(0, to), Number.isFinite(el.duration) ? el.duration : to);
    setCurrent(el.currentTime);
  };

  return (
    <div data-testid="audio-player" className={cn('grid gap-3 rounded-lg border bg-card/60 p-3', className)}>
      <audio
        ref={audioRef}
        src={src}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={(e) => setCurrent(e.currentTarget.currentTime)}
        onLoadedMetadata={(e) => setDuration(e.currentTarget.duration)}
        onDurationChange={(e) => setDuration(e.currentTarget.duration)}
        onError={() => setFailed(true)}
      />
      <div className="flex items-center gap-3">
        <Button size="icon" className="rounded-full" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} disabled={failed}>
          {playing ? <Pause aria-hidden /> : <Play aria-hidden />}
        </Button>
        <span className="w-10 text-right text-xs text-muted-foreground tabular-nums">{formatTime(current)}</span>
        <input
          type="range"
          aria-label="Seek"
          min={0}
          max={Number.isFinite(duration) && duration > 0 ? duration : 0}
          step={0.1}
          value={current}
          onChange={(e) => seek(Number(e.target.value))}
          className="h-1.5 min-w-0 flex-1 cursor-pointer accent-primary"
        />
        <span className="w-10 text-xs text-muted-foreground tabular-nums">{formatTime(duration)}</span>
      </div>
      <div className="flex flex-wrap items-center gap-1">
        {SKIPS.map((delta) => (
          <Button key={delta} variant="ghost" size="sm" className="px-2 text-xs tabular-nums" onClick={() => seek(current + delta)} aria-label={`${delta < 0 ? 'Back' : 'Forward'} ${Math.abs(delta)} seconds`}>
            {delta < 0 ? `−${-delta}s` : `+${delta}s`}
          </Button>
        ))}
        <div className="ml-auto flex items-center gap-2">
          <button type="button" className="cursor-pointer text-muted-foreground hover:text-foreground" onClick={() => setVolume(volume > 0 ? 0 : 1)} aria-label={volume > 0 ? 'Mute' : 'Unmute'}>
            {volume > 0 ? <Volume2 className="size-4" aria-hidden /> : <VolumeX className="size-4" aria-hidden />}
          </button>
          <input
            type="range"
            aria-label="Volume"
            min={0}
            max={1}
            step={VOLUME_STEP}
            value={volume}
            onChange={(e) => setVolume(Number(e.target.value))}
            className="h-1.5 w-20 cursor-pointer accent-primary"
          />
          <Button asChild variant="ghost" size="icon-sm" aria-label="Download">
            <a href={src} download={downloadName ?? true}>
              <Download aria-hidden />
            </a>
          </Button>
        </div>
      </div>
      {failed ? <p className="text-xs text-destructive-soft">This audio file could not be played.</p> : null}
    </div>
  );
}
