import type { Db } from '../../platform/db/client';
import { tooManyRequests } from '../../platform/errors';
import { clearCounter, hitCounter, RATE_LIMITS, readCounter } from '../../platform/rate-limits';

/**
 * Failed sign-ins are counted per email and per client address in the shared rate-limit counters,
 * so the limit holds across every instance. Only failures count: signing in successfully never
 * brings a person closer to the limit (docs/decisions/050-rate-limits-in-postgresql.md).
 */
export const LOGIN_THROTTLE = {
  windowMs: RATE_LIMITS.loginFailuresPerEmail.windowMs,
  maxFailuresPerEmail: RATE_LIMITS.loginFailuresPerEmail.max,
  maxFailuresPerIp: RATE_LIMITS.loginFailuresPerAddress.max,
} as const;

const emailKey = (email: string) => `login-email:${email.toLowerCase()}`;

const keysFor = (email: string, ip: string) => [
  { key: emailKey(email), ...RATE_LIMITS.loginFailuresPerEmail },
  { key: `login-ip:${ip}`, ...RATE_LIMITS.loginFailuresPerAddress },
];

export async function assertLoginAllowed(db: Db, email: string, ip: string): Promise<void> {
  for (const { key, max } of keysFor(email, ip)) {
    const { hits, ttlMs } = await readCounter(db, key);
    if (hits >= max) {
      const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
      throw tooManyRequests(
        ttlMs,
        'too_many_sign_in_attempts',
        `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
  }
}

export async function recordLoginFailure(db: Db, email: string, ip: string): Promise<void> {
  for (const { key, windowMs } of keysFor(email, ip)) await hitCounter(db, key, windowMs);
}

export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await clearCounter(db, emailKey(email));
}
