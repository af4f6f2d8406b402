import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/client';
import { tooManyRequests } from '../../platform/errors';
import { newToken } from '../../platform/ids';
import { addressKeyOf, clearCounter, giveBackSlot, RATE_LIMITS, readCounters, takeSlot } from '../../platform/rate-limits';

/**
 * Failed sign-ins, counted in the shared rate-limit counters so the limits hold across every
 * instance (docs/decisions/173-failed-sign-ins-a-device-cookie-instead-of-a-fresh-address.md,
 * CONTRACT §3 and §23):
 * - per email, from every address together: 20 failures in the window, then 429 from every
 *   address — however many addresses a guesser has;
 * - per email and client address: the guesser at one address is stopped there after 5;
 * - per client address, whatever the email: one address cannot try many accounts.
 * IPv6 addresses are counted per /64 (`addressKeyOf`): one host is given a whole /64.
 *
 * A browser that signed in to the account before holds a **device cookie** for it (signed with
 * the session secret, one per account): its attempts are counted against that cookie alone
 * (5 failures in the window), never against the email's or the address's counters, and they
 * pass while those are full. So the owner is never locked out by a guesser, and a guesser
 * without such a cookie gets at most the email's 20 per window.
 *
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
  maxFailuresPerDevice: RATE_LIMITS.loginFailuresPerDevice.max,
} as const;

/** How long a browser stays known to an account after its last sign-in there. */
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
/** Sent only with sign-ins: no other request needs it. */
const DEVICE_COOKIE_PATH = '/api/login';

const normalise = (email: string) => email.trim().toLowerCase();
/** The account part of a device cookie: the email's hash, so the cookie does not carry the address. */
const accountTagOf = (email: string) => createHash('sha256').update(normalise(email)).digest('base64url').slice(0, 22);
/** One cookie per account, so a browser shared by two accounts is known to both. */
const deviceCookieName = (email: string) => `device_${accountTagOf(email).slice(0, 12)}`;

/** Who is trying: the client address, and the device cookie this browser holds for the email, if any. */
export interface LoginClient {
  ip: string;
  /** The device's id from a valid device cookie of this account; undefined without one. */
  device: string | undefined;
}

/** The attempt's client: its address, and its device cookie when it is this account's and its signature holds. */
export function loginClientOf(request: FastifyRequest, email: string): LoginClient {
  const raw = request.cookies[deviceCookieName(email)];
  let device: string | undefined;
  if (raw) {
    const unsigned = request.unsignCookie(raw);
    const [tag, id, ...rest] = unsigned.valid && unsigned.value ? unsigned.value.split('.') : [];
    if (tag === accountTagOf(email) && id && rest.length === 0) device = id;
  }
  return { ip: request.ip, device };
}

/** After a right password: this browser is known to the account from now on (a new id each sign-in). */
export function setDeviceCookie(reply: FastifyReply, email: string, secure: boolean): void {
  reply.setCookie(deviceCookieName(email), `${accountTagOf(email)}.${newToken(18)}`, {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    signed: true,
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
}

/** The counters of one sign-in. A client address never holds a space, so no two pairs share a key. */
const keysFor = (email: string, ip: string) => {
  const address = addressKeyOf(ip);
  return {
    address: `login-ip:${address}`,
    pair: `login-pair:${address} ${normalise(email)}`,
    email: `login-email:${normalise(email)}`,
  };
};
const deviceKeyOf = (email: string, device: string) => `login-device:${device} ${normalise(email)}`;

function refuse(ttlMs: number): never {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  throw tooManyRequests(
    ttlMs,
    'too_many_sign_in_attempts',
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

/**
 * 429 when this email may not be tried by this client now. A known device: its own failures
 * only. Anyone else: the address, the pair or the email is at its limit. Checked before the
 * password (no hash is spent on a refused attempt) and again after a right one.
 */
export async function assertLoginAllowed(db: Db, email: string, client: LoginClient): Promise<void> {
  if (client.device) {
    const key = deviceKeyOf(email, client.device);
    const device = (await readCounters(db, [key])).get(key);
    if (device && device.hits >= RATE_LIMITS.loginFailuresPerDevice.max) refuse(device.ttlMs);
    return;
  }
  const keys = keysFor(email, client.ip);
  const counts = await readCounters(db, Object.values(keys));
  const address = counts.get(keys.address);
  const pair = counts.get(keys.pair);
  const perEmail = counts.get(keys.email);
  if (address && address.hits >= RATE_LIMITS.loginFailuresPerAddress.max) refuse(address.ttlMs);
  if (pair && pair.hits >= RATE_LIMITS.loginFailuresPerEmailAndAddress.max) refuse(pair.ttlMs);
  if (perEmail && perEmail.hits >= RATE_LIMITS.loginFailuresPerEmail.max) refuse(perEmail.ttlMs);
}

/**
 * Counts a wrong password, or answers 429 when concurrent failures reached a limit first (then it
 * counts nothing: the slots it took are given back).
 */
export async function recordLoginFailure(db: Db, email: string, client: LoginClient): Promise<void> {
  if (client.device) {
    const device = await takeSlot(db, deviceKeyOf(email, client.device), RATE_LIMITS.loginFailuresPerDevice);
    if (!device.taken) refuse(device.ttlMs);
    return;
  }
  const keys = keysFor(email, client.ip);
  const address = await takeSlot(db, keys.address, RATE_LIMITS.loginFailuresPerAddress);
  if (!address.taken) refuse(address.ttlMs);
  const pair = await takeSlot(db, keys.pair, RATE_LIMITS.loginFailuresPerEmailAndAddress);
  if (!pair.taken) {
    await giveBackSlot(db, keys.address);
    refuse(pair.ttlMs);
  }
  const perEmail = await takeSlot(db, keys.email, RATE_LIMITS.loginFailuresPerEmail);
  if (!perEmail.taken) {
    await Promise.all([giveBackSlot(db, keys.address), giveBackSlot(db, keys.pair)]);
    refuse(perEmail.ttlMs);
  }
}

/**
 * A right password: 429 if failures at the same time reached a limit before it (as if it had come
 * after them); otherwise this client starts afresh for this email.
 */
export async function recordLoginSuccess(db: Db, email: string, client: LoginClient): Promise<void> {
  await assertLoginAllowed(db, email, client);
  await clearCounter(db, client.device ? deviceKeyOf(email, client.device) : keysFor(email, client.ip).pair);
}

/**
 * Whoever proved the mailbox (a password reset) may sign in again from where they did it: the
 * failures of that address for that email are forgotten. Other addresses' stay, so a guesser
 * elsewhere is not given fresh tries.
 */
export async function clearLoginFailures(db: Db, email: string, ip: string): Promise<void> {
  await clearCounter(db, keysFor(email, ip).pair);
}
