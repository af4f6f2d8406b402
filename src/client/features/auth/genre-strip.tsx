import { useEffect, useRef, type PointerEvent } from 'react';
import { GENRES } from '@shared/genres';
import { usePrefersReducedMotion } from '@client/lib/use-prefers-reduced-motion';

/** SPEC §9: the 30 genres repeated 4 times, moving 1 px every 50 ms, resuming 0.5–1.5 s after a pause. */
const COPIES = 4;
const STEP_PX = 1;
const TICK_MS = 50;
const RESUME_MIN_MS = 500;
const RESUME_MAX_MS = 1500;

/**
 * The strip is a track moved with a transform; its position always stays within one copy's width,
 * so the copies after it fill the view and the wrap-around is invisible.
 */
export function GenreStrip() {
  const trackRef = useRef<HTMLDivElement>(null);
  const offset = useRef(0);
  const hovering = useRef(false);
  const drag = useRef<{ pointerId: number; startX: number; startOffset: number } | null>(null);
  const paused = useRef(false);
  const resumeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reducedMotion = usePrefersReducedMotion();

  const moveTo = (next: number) => moveTrack(trackRef.current, offset, next);

  const pause = () => {
    clearTimeout(resumeTimer.current);
    paused.current = true;
  };

  const resumeLater = () => {
    clearTimeout(resumeTimer.current);
    const delay = RESUME_MIN_MS + Math.random() * (RESUME_MAX_MS - RESUME_MIN_MS);
    resumeTimer.current = setTimeout(() => {
      paused.current = false;
    }, delay);
  };

  useEffect(() => {
    if (reducedMotion) return;
    const interval = setInterval(() => {
      if (!paused.current) moveTrack(trackRef.current, offset, offset.current + STEP_PX);
    }, TICK_MS);
    return () => clearInterval(interval);
  }, [reducedMotion]);

  useEffect(() => () => clearTimeout(resumeTimer.current), []);

  const onPointerEnter = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType !== 'mouse') return;
    hovering.current = true;
    pause();
  };

  const onPointerLeave = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType !== 'mouse') return;
    hovering.current = false;
    if (!drag.current) resumeLater();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    pause();
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startOffset: offset.current };
    event.currentTarget.setPointerCapture(event.pointerId);
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    moveTo(current.startOffset - (event.clientX - current.startX));
  };

  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current || drag.current.pointerId !== event.pointerId) return;
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
    if (!hovering.current || event.pointerType !== 'mouse') resumeLater();
  };

  return (
    <section
      aria-label="Genres we publish"
      // Fixed at the bottom from the small-tablet width up; on phones it would cover the form, so it ends the page instead.
      className="relative border-t border-border/80 bg-background/85 backdrop-blur-md sm:fixed sm:inset-x-0 sm:bottom-0 sm:z-40"
    >
      <div
        data-testid="genre-strip"
        className="cursor-grab touch-pan-y overflow-hidden py-3 select-none active:cursor-grabbing [mask-image:linear-gradient(to_right,transparent,black_4%,black_96%,transparent)]"
        onPointerEnter={onPointerEnter}
        onPointerLeave={onPointerLeave}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <div ref={trackRef} data-testid="genre-track" className="flex w-max will-change-transform">
          {Array.from({ length: COPIES }, (_, copy) => (
            // Only the first copy is read out; the others exist for the seamless loop.
            <ul key={copy} className="flex" aria-hidden={copy > 0 ? true : undefined}>
              {GENRES.map((genre) => (
                <li
                  key={genre}
                  className="mr-2 rounded-full border border-primary/30 bg-primary/10 px-3 py-1 text-xs font-medium whitespace-nowrap text-primary-soft"
                >
                  {genre}
                </li>
              ))}
            </ul>
          ))}
        </div>
      </div>
    </section>
  );
}

/** Moves the track to `next` px, wrapped into one copy's width. */
function moveTrack(track: HTMLDivElement | null, offset: { current: number }, next: number): void {
  if (!track) return;
  const period = track.scrollWidth / COPIES;
  if (period <= 0) return;
  offset.current = ((next % period) + period) % period;
  track.style.transform = `translate3d(${-offset.current}px, 0, 0)`;
}
