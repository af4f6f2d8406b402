import type { Db } from '../../platform/db/client';
import { tooManyRequests } from '../../platform/errors';
import { clearCounter, giveBackSlot, RATE_LIMITS, readCounters, takeSlot } from '../../platform/rate-limits';

/**
 * Failed sign-ins, counted in the shared rate-limit counters so the limits hold across every
 * instance (docs/decisions/146-a-lockout-that-stops-the-guesser-not-the-owner.md):
 * - per email and client address: the guesser at one address is stopped there;
 * - per client address, whatever the email: one address cannot try many accounts;
 * - per email, from every address: a ceiling for guessers spread over many addresses. Past it an
 *   address with no failure for that email in its window still gets one try, so the owner, at
 *   their own address, signs in while the account is under attack.
 * Only failures count, so sign-ins at once for one account are never held back. A failure is
 * counted with one statement per counter that refuses to go past the limit, so of any number of
 * wrong passwords at once exactly as many as the limit leaves are answered 401, the rest 429; a
 * right password is let in only if the limits still allow it once it has been checked, so a
 * burst of guesses learns no more than the same guesses one after another.
 */
export const LOGIN_THROTTLE = {
  windowMs: RATE_LIMITS.loginFailuresPerEmailAndAddress.windowMs,
  maxFailuresPerEmailAndAddress: RATE_LIMITS.loginFailuresPerEmailAndAddress.max,
  maxFailuresPerEmail: RATE_LIMITS.loginFailuresPerEmail.max,
  maxFailuresPerIp: RATE_LIMITS.loginFailuresPerAddress.max,
} as const;

const normalise = (email: string) => email.trim().toLowerCase();

/** The three counters of one sign-in. A client address never holds a space, so no two pairs share a key. */
const keysFor = (email: string, ip: string) => ({
  address: `login-ip:${ip}`,
  pair: `login-pair:${ip} ${normalise(email)}`,
  email: `login-email:${normalise(email)}`,
});

function refuse(ttlMs: number): never {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  throw tooManyRequests(
    ttlMs,
    'too_many_sign_in_attempts',
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

/**
 * 429 when this email may not be tried from this address now: the address or the pair is at its
 * limit, or the email is at its ceiling and this address has already failed for it. Checked
 * before the password (no hash is spent on a refused attempt) and again after a right one.
 */
export async function assertLoginAllowed(db: Db, email: string, ip: string): Promise<void> {
  const keys = keysFor(email, ip);
  const counts = await readCounters(db, Object.values(keys));
  const address = counts.get(keys.address);
  const pair = counts.get(keys.pair);
  const perEmail = counts.get(keys.email);
  if (address && address.hits >= RATE_LIMITS.loginFailuresPerAddress.max) refuse(address.ttlMs);
  if (pair && pair.hits >= RATE_LIMITS.loginFailuresPerEmailAndAddress.max) refuse(pair.ttlMs);
  if (perEmail && perEmail.hits >= RATE_LIMITS.loginFailuresPerEmail.max && pair && pair.hits > 0) refuse(perEmail.ttlMs);
}

/**
 * Counts a wrong password, or answers 429 when concurrent failures reached a limit first (then it
 * counts nothing: the slots it took are given back).
 */
export async function recordLoginFailure(db: Db, email: string, ip: string): Promise<void> {
  const keys = keysFor(email, ip);
  const address = await takeSlot(db, keys.address, RATE_LIMITS.loginFailuresPerAddress);
  if (!address.taken) refuse(address.ttlMs);
  const pair = await takeSlot(db, keys.pair, RATE_LIMITS.loginFailuresPerEmailAndAddress);
  if (!pair.taken) {
    await giveBackSlot(db, keys.address);
    refuse(pair.ttlMs);
  }
  const perEmail = await takeSlot(db, keys.email, RATE_LIMITS.loginFailuresPerEmail);
  // Past the email's ceiling only an address's first failure for it is answered (and counted there).
  if (!perEmail.taken && pair.hits > 1) {
    await Promise.all([giveBackSlot(db, keys.address), giveBackSlot(db, keys.pair)]);
    refuse(perEmail.ttlMs);
  }
}

/**
 * A right password: 429 if failures at the same time reached a limit before it (as if it had come
 * after them); otherwise this address starts afresh for this email.
 */
export async function recordLoginSuccess(db: Db, email: string, ip: string): Promise<void> {
  await assertLoginAllowed(db, email, ip);
  await clearCounter(db, keysFor(email, ip).pair);
}

/**
 * Whoever proved the mailbox (a password reset) may sign in again from where they did it: the
 * failures of that address for that email are forgotten. Other addresses' stay, so a guesser
 * elsewhere is not given fresh tries.
 */
export async function clearLoginFailures(db: Db, email: string, ip: string): Promise<void> {
  await clearCounter(db, keysFor(email, ip).pair);
}
