import { useEffect, useState } from 'react';
import { busyRetryDelayMs } from '@client/lib/api';

/**
 * A sign-in or registration the server answered busy (503 + Retry-After: its password checks are
 * queued past what it does in time, decision 054) is sent again by itself after the time the
 * server named, up to this many times, while the form says it is waiting — instead of showing a
 * failure the person would answer by pressing the button again (decision 203).
 */
export const BUSY_RETRIES = 10;

/** TanStack Query's `retry`: only a busy answer, and at most BUSY_RETRIES times. */
export function retryWhenBusy(failureCount: number, error: unknown): boolean {
  return failureCount < BUSY_RETRIES && busyRetryDelayMs(error) !== null;
}

/**
 * The retry options of a mutation that may be answered busy, and when its next try goes out
 * (null when none is waiting), for the form to count down to.
 */
export function useBusyRetry() {
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const options = {
    retry: retryWhenBusy,
    retryDelay: (_failureCount: number, error: unknown) => {
      const ms = busyRetryDelayMs(error) ?? 0;
      setRetryAt(Date.now() + ms);
      return ms;
    },
  };
  return { retryAt, options, clear: () => setRetryAt(null) };
}

/** Whole seconds left until `at`, ticking; null when `at` is. */
export function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const tick = () => setNow(Date.now());
    // At once too: `now` may date from long before `at` was set.
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 250);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** What the form says while it waits to try again. */
export function BusyRetryNotice({ seconds }: { seconds: number }) {
  return (
    <p role="status" data-testid="busy-retry" className="rounded-md border border-border bg-muted px-3 py-2 text-sm text-muted-foreground">
      {seconds > 0 ? `The server is busy: trying again in ${seconds} s…` : 'The server is busy: trying again now…'}
    </p>
  );
}
