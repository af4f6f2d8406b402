import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@client/lib/api';
import { BUSY_RETRIES, BusyRetryNotice, retryWhenBusy } from './busy-retry';

const busy = (retryAfter: string | null) =>
  new ApiError(503, 'Service Unavailable', '{"message":"The server is busy. Please try again in 4 seconds.","code":"server_busy"}', retryAfter);

describe('a sign-in answered busy (decision 203)', () => {
  it('is tried again when the server answered 503 with Retry-After', () => {
    expect(retryWhenBusy(0, busy('4'))).toBe(true);
    expect(retryWhenBusy(BUSY_RETRIES - 1, busy('4'))).toBe(true);
  });

  it('stops after BUSY_RETRIES tries, and then shows the failure as any other', () => {
    expect(retryWhenBusy(BUSY_RETRIES, busy('4'))).toBe(false);
  });

  it('is never tried again for any other answer: a wrong password, too many tries, a 503 without Retry-After, no network', () => {
    expect(retryWhenBusy(0, new ApiError(401, 'Unauthorized', '{"message":"Invalid email or password","code":"invalid_credentials"}'))).toBe(false);
    expect(retryWhenBusy(0, new ApiError(429, 'Too Many Requests', '{"message":"Too many requests.","code":"rate_limited"}', '60'))).toBe(false);
    expect(retryWhenBusy(0, busy(null))).toBe(false);
    expect(retryWhenBusy(0, new TypeError('Failed to fetch'))).toBe(false);
  });

  it('says at the form that the server is busy and in how many seconds it tries again', () => {
    const text = (seconds: number) => renderToStaticMarkup(<BusyRetryNotice seconds={seconds} />);
    expect(text(4)).toContain('The server is busy: trying again in 4 s…');
    expect(text(4)).toContain('role="status"');
    expect(text(0)).toContain('The server is busy: trying again now…');
  });
});
