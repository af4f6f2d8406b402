import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { and, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { Db } from './db/client';
import { rateLimitCounters } from './db/schema';

/**
 * Every rate limit of the product, in one place (CONTRACT §9). Each is counted in PostgreSQL
 * (`rate_limit_counters`), so it holds however many instances share the database, and each
 * refusal is a 429 with `Retry-After` (docs/decisions/050-rate-limits-in-postgresql.md).
 *
 * The figures: generous for a person, a ceiling for a script.
 */
export const RATE_LIMITS = {
  /**
   * Failed sign-ins for one email from one client address: a password guesser gets five tries per
   * window there (docs/decisions/173-failed-sign-ins-a-device-cookie-instead-of-a-fresh-address.md).
   */
  loginFailuresPerEmailAndAddress: { max: 5, windowMs: 15 * 60_000 },
  /**
   * Failed sign-ins for one email from every address together (CONTRACT §23): past it, 429 from
   * every address, except for browsers holding the account's device cookie.
   */
  loginFailuresPerEmail: { max: 20, windowMs: 15 * 60_000 },
  /** Failed sign-ins of a browser holding the account's device cookie: counted against it alone. */
  loginFailuresPerDevice: { max: 5, windowMs: 15 * 60_000 },
  /** Failed sign-ins from one client address, whatever the email (one office shares an address). */
  loginFailuresPerAddress: { max: 30, windowMs: 15 * 60_000 },
  /** New accounts from one client address. */
  registrations: { max: 100, windowMs: 60 * 60_000 },
  /** Password-reset emails asked for from one client address. */
  passwordResets: { max: 10, windowMs: 60 * 60_000 },
  /** Password-reset emails asked for one email address, from wherever: a mailbox is not flooded. */
  passwordResetsPerEmail: { max: 5, windowMs: 60 * 60_000 },
  /** Attempts at a reset link's new password from one client address (a token guesser's ceiling). */
  passwordResetConfirms: { max: 30, windowMs: 60 * 60_000 },
  /** Changes that check the current password (password, email, deletion) by one user: a stolen session cannot guess it. */
  accountChanges: { max: 20, windowMs: 15 * 60_000 },
  /** Account exports by one user (each streams every file the artist uploaded). */
  accountExports: { max: 10, windowMs: 60 * 60_000 },
  /** Submissions created by one artist, and drafts started. */
  submissions: { max: 120, windowMs: 60 * 60_000 },
  drafts: { max: 120, windowMs: 60 * 60_000 },
  /** Saves of a draft (the wizard saves as the artist types). */
  draftEdits: { max: 1200, windowMs: 60 * 60_000 },
  /** Verification emails asked for again by one user. */
  verificationEmails: { max: 10, windowMs: 60 * 60_000 },
  /** Upload URLs handed to one user. */
  uploads: { max: 600, windowMs: 60 * 60_000 },
  /** Resumable video uploads started by one user (each may reserve up to 2 GiB in the store). */
  videoUploads: { max: 100, windowMs: 60 * 60_000 },
  /** Chat messages sent by one user. */
  messages: { max: 300, windowMs: 60_000 },
  /** Link previews fetched for one user (each one is an outgoing request). */
  urlMetadata: { max: 60, windowMs: 60_000 },
  /*
   * Writes that fan out (a push to every admin, an email) or call a provider (CONTRACT §23,
   * issue 32 finding 7): a reviewer's pace is far below them, a script's is not.
   */
  /** Comments by one user on deliveries and, for the team, on tracks (each is pushed to every admin). */
  comments: { max: 30, windowMs: 60_000 },
  /** Stripe onboarding links asked for by one artist (each one is an account link made at Stripe). */
  payoutLinks: { max: 10, windowMs: 60 * 60_000 },
  /** Publications on the channel started by one admin (each one is a YouTube upload). */
  publications: { max: 30, windowMs: 60 * 60_000 },
  /** Deliveries attached by one admin (each one is pushed and emailed to the artist). */
  deliveries: { max: 60, windowMs: 60 * 60_000 },
  /** Reads and signatures through emailed signing links from one client address (a token guesser's ceiling). */
  signingLinks: { max: 60, windowMs: 15 * 60_000 },
} as const satisfies Record<string, { max: number; windowMs: number }>;

type RateLimitName = keyof typeof RATE_LIMITS;

interface CounterState {
  hits: number;
  /** Milliseconds until the window runs out. */
  ttlMs: number;
}

const WINDOW_EXPIRED = sql`${rateLimitCounters.windowEnd} <= now()`;

/**
 * The one upsert behind every counter: one hit against `key` in a fixed window of `windowMs`; a
 * window that has run out starts again. With `onlyWhen`, an existing row is changed only where
 * that holds (PostgreSQL decides it under the row's lock).
 */
function countHit(db: Db, key: string, windowMs: number, onlyWhen?: SQL) {
  const window = sql`make_interval(secs => ${windowMs / 1000})`;
  return db
    .insert(rateLimitCounters)
    .values({ key, hits: 1, windowStart: sql`now()`, windowEnd: sql`now() + ${window}` })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        hits: sql`case when ${WINDOW_EXPIRED} then 1 else ${rateLimitCounters.hits} + 1 end`,
        windowStart: sql`case when ${WINDOW_EXPIRED} then now() else ${rateLimitCounters.windowStart} end`,
        windowEnd: sql`case when ${WINDOW_EXPIRED} then now() + ${window} else ${rateLimitCounters.windowEnd} end`,
      },
      ...(onlyWhen ? { setWhere: onlyWhen } : {}),
    });
}

/**
 * Counts one hit against `key` in a fixed window of `windowMs`, atomically (one upsert), and
 * answers the count so far in the current window. A window that has run out starts again.
 */
export async function hitCounter(db: Db, key: string, windowMs: number): Promise<CounterState> {
  const [row] = await countHit(db, key, windowMs)
    .returning({ hits: rateLimitCounters.hits, ttlMs: sql<string>`extract(epoch from ${rateLimitCounters.windowEnd} - now()) * 1000` });
  return { hits: row!.hits, ttlMs: Math.max(0, Math.ceil(Number(row!.ttlMs))) };
}

/**
 * Takes one of the `max` slots of `key`'s current window, or none when they are all taken, in one
 * statement: the upsert only adds when a slot is free (or the window has run out), and PostgreSQL
 * locks the row while it decides, so of any number of callers at once exactly as many as there are
 * free slots get one. `hits` is the count with this slot in it; a refusal changes nothing and
 * answers how long until the window runs out.
 */
export async function takeSlot(
  db: Db,
  key: string,
  { max, windowMs }: { max: number; windowMs: number },
): Promise<{ taken: true; hits: number } | { taken: false; ttlMs: number }> {
  const [row] = await countHit(db, key, windowMs, sql`${WINDOW_EXPIRED} or ${rateLimitCounters.hits} < ${max}`).returning({
    hits: rateLimitCounters.hits,
  });
  if (row) return { taken: true, hits: row.hits };
  return { taken: false, ttlMs: (await readCounter(db, key)).ttlMs };
}

/** Gives back a slot taken with takeSlot in the current window (an attempt that is not to count after all). */
export async function giveBackSlot(db: Db, key: string): Promise<void> {
  await db
    .update(rateLimitCounters)
    .set({ hits: sql`${rateLimitCounters.hits} - 1` })
    .where(sql`${rateLimitCounters.key} = ${key} and ${rateLimitCounters.hits} > 0 and ${rateLimitCounters.windowEnd} > now()`);
}

/** The count in `key`'s current window without adding to it (0 when none is running). */
async function readCounter(db: Db, key: string): Promise<CounterState> {
  const rows = await db
    .select({ hits: rateLimitCounters.hits, ttlMs: sql<string>`extract(epoch from ${rateLimitCounters.windowEnd} - now()) * 1000` })
    .from(rateLimitCounters)
    .where(sql`${rateLimitCounters.key} = ${key} and ${rateLimitCounters.windowEnd} > now()`);
  const row = rows[0];
  return row ? { hits: row.hits, ttlMs: Math.max(0, Math.ceil(Number(row.ttlMs))) } : { hits: 0, ttlMs: 0 };
}

/** The running counts of several keys in one query; a key with none running is absent. */
export async function readCounters(db: Db, keys: string[]): Promise<Map<string, CounterState>> {
  const rows = await db
    .select({ key: rateLimitCounters.key, hits: rateLimitCounters.hits, ttlMs: sql<string>`extract(epoch from ${rateLimitCounters.windowEnd} - now()) * 1000` })
    .from(rateLimitCounters)
    .where(and(inArray(rateLimitCounters.key, keys), gt(rateLimitCounters.windowEnd, sql`now()`)));
  return new Map(rows.map((row) => [row.key, { hits: row.hits, ttlMs: Math.max(0, Math.ceil(Number(row.ttlMs))) }]));
}

export async function clearCounter(db: Db, key: string): Promise<void> {
  await db.delete(rateLimitCounters).where(sql`${rateLimitCounters.key} = ${key}`);
}

/** Removes counters whose window has run out (a maintenance task). */
export async function pruneRateLimitCounters(db: Db): Promise<number> {
  const removed = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowEnd, sql`now()`))
    .returning({ key: rateLimitCounters.key });
  return removed.length;
}

/**
 * `@fastify/rate-limit`'s store interface, kept in `rate_limit_counters`. One store per limited
 * route (`child`), each with its own key prefix.
 */
export function postgresRateLimitStore(db: Db) {
  class PostgresRateLimitStore {
    /** `@fastify/rate-limit` passes its options first; only the key prefix matters here. */
    constructor(
      _options?: unknown,
      private readonly prefix = 'route:',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      hitCounter(db, this.prefix + key, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: unknown) => callback(error as Error),
      );
    }

    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
      readCounter(db, this.prefix + key).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: unknown) => callback(error as Error),
      );
    }

    /** Called once per limited route with the route's merged options (its `routeInfo`). */
    child(routeOptions: object) {
      const { routeInfo } = routeOptions as { routeInfo?: { method?: string | string[]; url?: string } };
      const { method, url } = routeInfo ?? {};
      return new PostgresRateLimitStore(undefined, `route:${[method].flat().join(',')} ${url ?? ''}:`);
    }
  }
  return PostgresRateLimitStore;
}

/**
 * The signed-in user when the route's guard has run (it runs first: the limit hook is a
 * preHandler), else the client address — so a user's limit follows them across addresses and
 * people behind one address are not pooled.
 */
function userOrAddress(request: FastifyRequest): string {
  return request.user ? `user:${request.user.id}` : `ip:${addressKeyOf(request.ip)}`;
}

/**
 * What a limit per client address counts (CONTRACT §23): an IPv4 address as it is, an IPv6 one by
 * its /64, since one host is commonly given a whole /64 and could use a fresh address for every
 * request. An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) counts as the IPv4 one.
 */
export function addressKeyOf(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = ip.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An embedded IPv4 tail holds two groups; only the first four groups matter here anyway.
  const groups = ip.includes('::') ? [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups] : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/** The route option that applies one of RATE_LIMITS to a route. */
export function rateLimited(name: RateLimitName, key: 'user' | 'address' = 'user'): { config: { rateLimit: RateLimitOptions } } {
  const { max, windowMs } = RATE_LIMITS[name];
  return {
    config: {
      rateLimit: {
        max,
        timeWindow: windowMs,
        keyGenerator: key === 'user' ? userOrAddress : (request: FastifyRequest) => `ip:${addressKeyOf(request.ip)}`,
      },
    },
  };
}
