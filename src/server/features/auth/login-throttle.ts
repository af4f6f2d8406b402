import type { Db } from '../../platform/db/client';
import { tooManyRequests } from '../../platform/errors';
import { clearCounter, giveBackSlot, RATE_LIMITS, takeSlot } from '../../platform/rate-limits';

/**
 * Failed sign-ins, counted in the shared rate-limit counters so the limits hold across every
 * instance (docs/decisions/146-a-lockout-that-stops-the-guesser-not-the-owner.md):
 * - per email and client address: the guesser at one address is stopped there;
 * - per client address, whatever the email: one address cannot try many accounts;
 * - per email, from every address: a ceiling for guessers spread over many addresses. Past it an
 *   address with no failure for that email in its window still gets one try, so the owner, at
 *   their own address, signs in while the account is under attack.
 * An attempt takes its slots before the password is checked, each in one statement, so a burst
 * of attempts at once gets exactly as many checks as there are slots left; a sign-in that
 * succeeds, or whose password was never checked, gives them back: only failures count.
 */
export const LOGIN_THROTTLE = {
  windowMs: RATE_LIMITS.loginFailuresPerEmailAndAddress.windowMs,
  maxFailuresPerEmailAndAddress: RATE_LIMITS.loginFailuresPerEmailAndAddress.max,
  maxFailuresPerEmail: RATE_LIMITS.loginFailuresPerEmail.max,
  maxFailuresPerIp: RATE_LIMITS.loginFailuresPerAddress.max,
} as const;

const normalise = (email: string) => email.trim().toLowerCase();
const addressKey = (ip: string) => `login-ip:${ip}`;
// A client address never holds a space, so the first one ends it: no two pairs share a key.
const pairKey = (email: string, ip: string) => `login-pair:${ip} ${normalise(email)}`;
const emailKey = (email: string) => `login-email:${normalise(email)}`;

/** An attempt that may check its password; say how it ended. */
export interface LoginAttempt {
  /** The password was right: this attempt does not count, and this address starts afresh for this email. */
  succeeded(): Promise<void>;
  /** The password was never checked (the server was busy, the client left): this attempt does not count. */
  abandoned(): Promise<void>;
}

function refuse(ttlMs: number): never {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  throw tooManyRequests(
    ttlMs,
    'too_many_sign_in_attempts',
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

/**
 * Counts a sign-in attempt as a failure until it is said to be otherwise, or refuses it (429 with
 * Retry-After) when a limit is reached; a refused attempt counts nothing.
 */
export async function beginLoginAttempt(db: Db, email: string, ip: string): Promise<LoginAttempt> {
  const keys = { address: addressKey(ip), pair: pairKey(email, ip), email: emailKey(email) };
  const taken: string[] = [];
  const giveBack = () => Promise.all(taken.map((key) => giveBackSlot(db, key)));

  const address = await takeSlot(db, keys.address, RATE_LIMITS.loginFailuresPerAddress);
  if (!address.taken) refuse(address.ttlMs);
  taken.push(keys.address);

  const pair = await takeSlot(db, keys.pair, RATE_LIMITS.loginFailuresPerEmailAndAddress);
  if (!pair.taken) {
    await giveBack();
    refuse(pair.ttlMs);
  }
  taken.push(keys.pair);

  const perEmail = await takeSlot(db, keys.email, RATE_LIMITS.loginFailuresPerEmail);
  if (perEmail.taken) taken.push(keys.email);
  else if (pair.hits > 1) {
    // The email's ceiling is reached and this address has already failed for it.
    await giveBack();
    refuse(perEmail.ttlMs);
  }

  return {
    async succeeded() {
      await Promise.all([clearCounter(db, keys.pair), ...taken.filter((key) => key !== keys.pair).map((key) => giveBackSlot(db, key))]);
    },
    async abandoned() {
      await giveBack();
    },
  };
}

/**
 * Whoever proved the mailbox (a password reset) may sign in again from where they did it: the
 * failures of that address for that email are forgotten. Other addresses' stay, so a guesser
 * elsewhere is not given fresh tries.
 */
export async function clearLoginFailures(db: Db, email: string, ip: string): Promise<void> {
  await clearCounter(db, pairKey(email, ip));
}
