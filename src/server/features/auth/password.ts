import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';
import PQueue from 'p-queue';
import { serverBusy } from '../../platform/errors';
import { HashingProcess, HashingUnavailableError } from './hashing-process';
import { SignInReturns } from './sign-in-returns';

/**
 * scrypt from Node's own crypto: memory-hard, and it runs in a helper process (hashing-process.ts,
 * decision 187), so hashing never blocks the event loop (docs/decisions/002-password-hashing.md).
 * Stored as `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
// 128 * N * r bytes are needed; leave headroom.
const MAX_MEMORY = 128 * COST.N * COST.r * 2;

/**
 * Hashes run at most this many at once, leaving a core to the server (its event loop and, on the
 * embedded database, the engine's thread). A hash costs about 90 ms of one core; unbounded, a
 * burst of sign-ins once took every core while the rest of the server starved
 * (docs/decisions/054-password-hashing-under-load.md).
 */
export const HASHING_CONCURRENCY = Math.max(1, availableParallelism() - 1);
/**
 * A sign-in that would wait longer than this for its hash is refused at once (503 + Retry-After)
 * rather than left to time out: the wait is the queue ahead of it times what a hash has lately
 * taken on this machine.
 */
export const HASHING_MAX_WAIT_MS = 3000;
/**
 * The place in the queue of a sign-in from a browser that signed in to that account before (its
 * device cookie, decision 173): ahead of every other hash, and refused as busy only when the
 * hashes running and the other known browsers' ahead of it would keep it past the limit. A flood
 * of sign-ins from anywhere else fills the queue behind it, never in front (decision 054). One
 * such place per account at a time: every sign-in hands out a fresh cookie, so whoever floods
 * with the cookies of an account of their own queues with everyone else after the first.
 */
const KNOWN_DEVICE_PRIORITY = 1;
/** The accounts whose known-device sign-in holds the place ahead right now. */
const servedFirst = new Set<string>();

const hashing = new PQueue({ concurrency: HASHING_CONCURRENCY });
const helper = new HashingProcess(HASHING_CONCURRENCY);
/** What a hash has lately taken here (a moving average; about 90 ms on one idle core). */
let hashMs = 100;

/**
 * The Retry-After of refused sign-ins, spread over the places of the queue to come so a burst's
 * clients come back one hash apart instead of all at once (decision 203).
 */
const returns = new SignInReturns(HASHING_MAX_WAIT_MS / 2);

/** Hashes done and skipped since start (their clients had gone), for tests and benches. */
export const hashingCounts = { done: 0, skipped: 0 };

/** The hashing queue right now: hashes running, waiting, and how long a new one would wait. */
export function hashingLoad(): { running: number; waiting: number; expectedWaitMs: number } {
  return { running: hashing.pending, waiting: hashing.size, expectedWaitMs: expectedWaitMs(false) };
}

/** The hashing helper's process id while it runs (tests stop it to see a sign-in survive). */
export const hashingProcessId = (): number | undefined => helper.pid;

/** How long a new hash would wait: behind everything queued, or (served first) only behind the running and its peers. */
const expectedWaitMs = (first: boolean) =>
  (((first ? hashing.sizeBy({ priority: KNOWN_DEVICE_PRIORITY }) : hashing.size) + hashing.pending) * hashMs) / HASHING_CONCURRENCY;

/**
 * Who a hash is for: `signal`, the request's client went away (platform/client-gone.ts);
 * `knownDeviceOf`, the account a browser with its device cookie signs in to, served first.
 */
interface HashingFor {
  signal?: AbortSignal | undefined;
  knownDeviceOf?: string | undefined;
}

async function scrypt(password: string, salt: Buffer, options: ScryptOptions, { signal, knownDeviceOf }: HashingFor = {}): Promise<Buffer> {
  const first = knownDeviceOf !== undefined && !servedFirst.has(knownDeviceOf);
  const wait = expectedWaitMs(first);
  if (wait > HASHING_MAX_WAIT_MS) throw serverBusy(returns.book(Date.now(), wait, hashMs / HASHING_CONCURRENCY));
  if (first) servedFirst.add(knownDeviceOf);
  try {
    return await hashing.add(
      async () => {
        const started = performance.now();
        try {
          return await helper.hash({ password: password.normalize('NFKC'), salt, keyLength: KEY_LENGTH, options });
        } finally {
          hashingCounts.done++;
          hashMs = hashMs * 0.8 + (performance.now() - started) * 0.2;
        }
      },
      { ...(signal ? { signal } : {}), ...(first ? { priority: KNOWN_DEVICE_PRIORITY } : {}) },
    );
  } catch (error) {
    // The helper died or stuck (decision 187): the next hash starts a new one, so the client is told to come back.
    if (error instanceof HashingUnavailableError) throw serverBusy(hashMs);
    if (!signal?.aborted) throw error;
    // The client went away while this hash waited: no one would read the answer.
    hashingCounts.skipped++;
    throw serverBusy(hashMs);
  } finally {
    if (first) servedFirst.delete(knownDeviceOf);
  }
}

/** `signal`: the request's client went away (platform/client-gone.ts); a waiting hash is then dropped. */
export async function hashPassword(password: string, signal?: AbortSignal): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { ...COST, maxmem: MAX_MEMORY }, { signal });
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** `knownDeviceOf`: the account, when the browser holds its device cookie (served first, decision 173). */
export async function verifyPassword(password: string, stored: string, signal?: AbortSignal, knownDeviceOf?: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const N = Number(n);
  const options = { N, r: Number(r), p: Number(p), maxmem: 128 * N * Number(r) * 2 };
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), options, { signal, knownDeviceOf });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Compared against when no account matches, so a wrong email costs as long as a wrong password. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string, signal?: AbortSignal, knownDeviceOf?: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(12).toString('base64url')).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  await verifyPassword(password, await dummyHash, signal, knownDeviceOf);
}
