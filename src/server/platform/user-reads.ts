import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { Database, Db, Tx } from './db/client';
import { createNotificationBus, type NotificationBus } from './realtime/bus';

/** The channel the `submissions` triggers announce on (migration 0015): an artist's user id, or `*`. */
const SUBMISSION_CHANGES_CHANNEL = 'submission_changes';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyInstance {
    /** Artists' remembered dashboard reads (platform/user-reads.ts). */
    userReads: UserReads;
  }
}

/**
 * Announces, at commit, a change to the artist's dashboard reads that touches no `submissions` row
 * (so no trigger announces it): every instance forgets what it remembers of them.
 */
export async function announceUserReadsChange(tx: Tx | Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${SUBMISSION_CHANGES_CHANNEL}, ${userId})`);
}

/** One remembered answer: the serialised body and its weak ETag. */
export interface RememberedAnswer {
  body: string;
  etag: string;
}

interface UserReadsOptions {
  /** Bytes of remembered bodies on this instance, all users together. */
  maxBytes?: number;
  /** How long an answer is trusted at most; bounds what a lost announcement could matter. */
  ttlMs?: number;
}

/**
 * What this instance last answered for an artist's own reads of their submissions (the first page
 * of the list, the counts), kept as the bytes sent (docs/decisions/143-remembered-reads.md).
 *
 * - Every committed change to an artist's submissions, by any writer on any instance, is announced
 *   by a trigger on the database's `submission_changes` channel; every instance drops that
 *   artist's answers when it hears it.
 * - An answer read while an announcement arrived may predate the change: it is sent, not kept.
 * - A user's own request that may have written drops their answers on this instance as it is
 *   answered, without waiting for the announcement, so the user reads their own writes.
 * - An answer that depends on other artists' submissions too (the list's places in the team's
 *   queue, which move when the team decides someone else's) is dropped on every announcement,
 *   whoever's it is: an artist reloading after such a decision sees their new place.
 */
export class UserReads {
  private readonly answers: LRUCache<string, Map<string, RememberedAnswer>>;
  private readonly bus: NotificationBus;
  /** Announcements heard (and own writes seen) so far (see `answer`). */
  private heard = 0;
  /** The users with a remembered answer that depends on others' submissions (`answer`'s `dependsOnOthers`). */
  private readonly dependOnOthers = new Set<string>();

  constructor(
    database: Database,
    log: FastifyBaseLogger,
    { maxBytes = 32 * 1024 * 1024, ttlMs = 10_000 }: UserReadsOptions = {},
  ) {
    this.answers = new LRUCache({
      maxSize: maxBytes,
      ttl: ttlMs,
      sizeCalculation: (byKey) => {
        let bytes = 64;
        for (const [key, { body }] of byKey) bytes += key.length + body.length;
        return bytes;
      },
    });
    this.bus = createNotificationBus(database, log, SUBMISSION_CHANGES_CHANNEL);
    this.bus.onNotification((payload) => {
      if (payload === '*') this.forgetEverything();
      else this.forgetUser(payload, { andThoseDependingOnOthers: true });
    });
    // Announcements sent while the listener was reconnecting are lost: forget everything.
    this.bus.onResubscribed(() => this.forgetEverything());
  }

  start(): Promise<void> {
    return this.bus.start();
  }

  stop(): Promise<void> {
    return this.bus.stop();
  }

  /**
   * Drops what this instance remembers for the user (their submissions may have changed); an
   * announcement also drops what it remembers for every user with an answer that depends on
   * others' submissions.
   */
  forgetUser(userId: string, { andThoseDependingOnOthers = false } = {}): void {
    this.heard++;
    this.answers.delete(userId);
    this.dependOnOthers.delete(userId);
    if (andThoseDependingOnOthers) {
      for (const dependent of this.dependOnOthers) this.answers.delete(dependent);
      this.dependOnOthers.clear();
    }
  }

  /**
   * The remembered answer to `key` for `userId`, or `read()`'s, serialised by `serialise`. An answer
   * for which `dependsOnOthers` holds is forgotten on anyone's announcement, not only the user's.
   */
  async answer<T>(
    userId: string,
    key: string,
    read: () => Promise<T>,
    serialise: (value: T) => string,
    dependsOnOthers: (value: T) => boolean = () => false,
  ): Promise<RememberedAnswer> {
    const remembered = this.answers.get(userId)?.get(key);
    if (remembered) return remembered;
    const heardBefore = this.heard;
    const value = await read();
    const answer = this.sent(serialise(value));
    if (this.heard === heardBefore) {
      // A new map each time: the cache measures an entry's size only when it is set.
      const byKey = new Map(this.answers.get(userId));
      byKey.set(key, answer);
      this.answers.set(userId, byKey);
      if (dependsOnOthers(value)) this.dependOnOthers.add(userId);
    }
    return answer;
  }

  /** `read()`'s answer, not remembered. */
  async fresh<T>(read: () => Promise<T>, serialise: (value: T) => string): Promise<RememberedAnswer> {
    return this.sent(serialise(await read()));
  }

  private sent(body: string): RememberedAnswer {
    return { body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
  }

  private forgetEverything() {
    this.heard++;
    this.answers.clear();
    this.dependOnOthers.clear();
  }
}

/** `app.userReads`, listening from ready to close, told of every signed-in request that may have written. */
export const userReadsPlugin = fp<{ database: Database }>(
  async (app: FastifyInstance, { database }) => {
    const reads = new UserReads(database, app.log);
    app.decorate('userReads', reads);
    // On sending: the handler's transaction has committed by then, and the client cannot yet ask again.
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (request.user && !SAFE_METHODS.has(request.method)) reads.forgetUser(request.user.id);
      done(null, payload);
    });
    app.addHook('onReady', () => reads.start());
    app.addHook('onClose', () => reads.stop());
  },
  { name: 'user-reads' },
);
