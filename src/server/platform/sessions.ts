import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Database, Db } from './db/client';
import type { AccountSession } from '@shared/account';
import { sessions, users, type SessionData, type UserRow } from './db/schema';
import { apiError } from './errors';
import { newToken } from './ids';
import { createNotificationBus, SESSION_CHANNEL } from './realtime/bus';

export const SESSION_COOKIE = 'sid';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session is extended only once less than half its life is left, so reads rarely write. */
const SESSION_RENEW_BELOW_MS = SESSION_TTL_MS / 2;
/**
 * How long this instance trusts what it last read for a session. Every sign-out and every change
 * to a user (role, password, deletion, profile) is announced to all instances on the session
 * channel, which drop what they remember at once (docs/decisions/051-revocation-on-every-instance.md);
 * this lifetime only bounds how long a lost announcement could matter.
 */
const SESSION_CACHE_TTL_MS = 10_000;
const SESSION_CACHE_MAX = 10_000;
/** `lastSeenAt` is written at most this often per session, so reading a session rarely writes. */
export const LAST_SEEN_RESOLUTION_MS = 60_000;
/** A user agent is the browser's own text; more than this is not a browser's. */
const USER_AGENT_MAX = 300;

/**
 * What the database keeps of a session id: its SHA-256 (CONTRACT §23, "a backup is not a key").
 * The id itself lives only in the browser's signed cookie, so a database dump or a backup
 * archive holds nothing a cookie could be made from. The id is 256 random bits: an unsalted
 * fast hash is enough, there is nothing to guess.
 */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser/requireAdmin; loaded once per request. */
    user: UserRow | null;
    /** The session's stored key (the hash of the cookie's id, `sessions.sid`), never the id itself. */
    sessionId: string | null;
  }
  interface FastifyInstance {
    sessions: SessionStore;
  }
}

interface SessionStore {
  /** Opens a new session (a new id on every sign-in) and sets the cookie. */
  start(reply: FastifyReply, userId: string, via: SessionData['via']): Promise<void>;
  /** The signed-in user of this request, or null; one query, cached on the request. */
  currentUser(request: FastifyRequest): Promise<UserRow | null>;
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * After the user row changed (role, password, profile…): every instance drops what it
   * remembers of the user's sessions, so the change holds everywhere within a second.
   */
  forgetUser(userId: string): Promise<void>;
  /** Ends the user's sessions (all, or all but one) on every instance: password change, account deletion. */
  endUserSessions(userId: string, options?: { except?: string }): Promise<void>;
  /** The user's live sessions, newest first, for the account screen (CONTRACT §11). */
  listUserSessions(userId: string, currentSid: string | null): Promise<AccountSession[]>;
  /**
   * Ends one of the user's sessions by its public id on every instance; false when the user has
   * no such session. Answers the sid, so the caller knows whether it was the current one.
   */
  endUserSession(userId: string, publicId: string): Promise<{ sid: string } | null>;
  pruneExpired(): Promise<number>;
  /**
   * Called on this instance for every announced change, whichever instance made it (the one that
   * made it hears it twice: at once, and back from the channel), so that what outlives a request,
   * such as an open WebSocket, ends with its session too.
   */
  onChange(listener: (change: SessionChange) => void): void;
}

/**
 * A change announced on the session channel: one session ended, a user's row changed (role,
 * password, deletion, profile: their sessions may have ended too), or announcements were lost
 * while the listener reconnected (any session may have ended).
 */
type SessionChange = { sessionId: string } | { userId: string } | { lost: true };

interface SessionOptions {
  database: Database;
  secureCookies: boolean;
}

/** What travels on the session channel: a session that ended, or a user whose row changed. */
type SessionAnnouncement = { s: string } | { u: string };

/**
 * Tells every instance (through the database's NOTIFY, after the change is committed) that a
 * user changed; for callers outside a running server, such as `npm run admin`.
 */
export async function announceUserChanged(db: Db, userId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${SESSION_CHANNEL}, ${JSON.stringify({ u: userId } satisfies SessionAnnouncement)})`);
}

const loaded = Symbol('sessionLoaded');
type RequestWithCache = FastifyRequest & { [loaded]?: Promise<UserRow | null> };

export const sessionsPlugin = fp<SessionOptions>(
  async (app: FastifyInstance, { database, secureCookies }) => {
    const { db } = database;
    const cookieOptions = {
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: secureCookies,
      signed: true,
    };

    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);

    // Prepared once: the hot path of every signed-in request skips building the query again.
    const sessionUser = db
      .select({ user: users, expire: sessions.expire, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.sid, sql.placeholder('sid')), gt(sessions.expire, sql`now()`)))
      .limit(1)
      .prepare('session_user');

    /** What this instance last read of a session, by the cookie's signed value. */
    const recent = new Map<string, { sid: string; user: UserRow; expire: number; until: number }>();
    /**
     * Counts announcements received: a lookup that overlapped one may have read the row from
     * before the change, so what it read is used for its request but not remembered.
     */
    let announcements = 0;

    const listeners: ((change: SessionChange) => void)[] = [];
    const tell = (change: SessionChange) => {
      for (const listener of listeners) {
        try {
          listener(change);
        } catch (error) {
          app.log.error({ err: error }, 'session change listener failed');
        }
      }
    };

    const forgetLocally = (announcement: SessionAnnouncement) => {
      announcements++;
      if ('s' in announcement) {
        for (const [raw, entry] of recent) if (entry.sid === announcement.s) recent.delete(raw);
        tell({ sessionId: announcement.s });
      } else {
        for (const [raw, entry] of recent) if (entry.user.id === announcement.u) recent.delete(raw);
        tell({ userId: announcement.u });
      }
    };
    const forgetEverything = () => {
      announcements++;
      recent.clear();
      tell({ lost: true });
    };
    const bus = createNotificationBus(database, app.log, SESSION_CHANNEL);
    bus.onNotification((payload) => {
      let announcement: SessionAnnouncement;
      try {
        announcement = JSON.parse(payload) as SessionAnnouncement;
      } catch {
        forgetEverything();
        return;
      }
      forgetLocally(announcement);
    });
    // Announcements sent while the listener was reconnecting are lost: forget everything.
    bus.onResubscribed(forgetEverything);
    app.addHook('onReady', () => bus.start());
    app.addHook('onClose', () => bus.stop());

    const announce = async (announcement: SessionAnnouncement) => {
      forgetLocally(announcement);
      try {
        await bus.notify(JSON.stringify(announcement));
      } catch (error) {
        // The database holds the truth already; other instances catch up when their memory runs out.
        app.log.error({ err: error }, 'session announcement failed');
      }
    };

    async function lookUp(request: FastifyRequest): Promise<UserRow | null> {
      const raw = request.cookies[SESSION_COOKIE];
      if (!raw) return null;
      const now = Date.now();
      // Remembered under the signed value itself: only a value whose signature was checked is
      // ever remembered, so a hit needs no second check.
      const remembered = recent.get(raw);
      if (remembered && remembered.until > now && remembered.expire > now) {
        request.sessionId = remembered.sid;
        return remembered.user;
      }
      recent.delete(raw);
      // A forged or tampered cookie fails the signature check without touching the database.
      const unsigned = request.unsignCookie(raw);
      if (!unsigned.valid || !unsigned.value) return null;
      const sid = hashSessionId(unsigned.value);
      const announcementsBefore = announcements;
      const [row] = await sessionUser.execute({ sid });
      if (!row) return null;
      request.sessionId = sid;
      if (announcements === announcementsBefore) {
        if (recent.size >= SESSION_CACHE_MAX) recent.delete(recent.keys().next().value!);
        recent.set(raw, { sid, user: row.user, expire: row.expire.getTime(), until: now + SESSION_CACHE_TTL_MS });
      }
      const renew = row.expire.getTime() - Date.now() < SESSION_RENEW_BELOW_MS;
      // Only reads that reach the database (at most one per session and instance every
      // SESSION_CACHE_TTL_MS) look at lastSeenAt, and only a stale one is written.
      const seen = Date.now() - row.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS;
      if (renew || seen) {
        await db
          .update(sessions)
          .set({
            ...(renew ? { expire: new Date(Date.now() + SESSION_TTL_MS) } : {}),
            ...(seen ? { lastSeenAt: sql`now()` } : {}),
          })
          .where(eq(sessions.sid, sid));
      }
      return row.user;
    }

    const store: SessionStore = {
      async start(reply, userId, via) {
        const id = newToken();
        const userAgent = reply.request.headers['user-agent']?.slice(0, USER_AGENT_MAX) || null;
        await db.insert(sessions).values({
          sid: hashSessionId(id),
          userId,
          userAgent,
          sess: { userId, via, createdAt: new Date().toISOString() },
          expire: new Date(Date.now() + SESSION_TTL_MS),
        });
        reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions, maxAge: SESSION_TTL_MS / 1000 });
      },
      currentUser(request) {
        const r = request as RequestWithCache;
        r[loaded] ??= lookUp(request);
        return r[loaded];
      },
      async end(request, reply) {
        await store.currentUser(request);
        if (request.sessionId) {
          await db.delete(sessions).where(eq(sessions.sid, request.sessionId));
          await announce({ s: request.sessionId });
        }
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      },
      forgetUser(userId) {
        return announce({ u: userId });
      },
      async endUserSessions(userId, { except } = {}) {
        await db
          .delete(sessions)
          .where(except ? and(eq(sessions.userId, userId), ne(sessions.sid, except)) : eq(sessions.userId, userId));
        await announce({ u: userId });
      },
      async listUserSessions(userId, currentSid) {
        const rows = await db
          .select({
            sid: sessions.sid,
            id: sessions.publicId,
            createdAt: sessions.createdAt,
            lastSeenAt: sessions.lastSeenAt,
            userAgent: sessions.userAgent,
          })
          .from(sessions)
          .where(and(eq(sessions.userId, userId), gt(sessions.expire, sql`now()`)))
          .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
        return rows.map(({ sid, ...row }) => ({
          ...row,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          current: sid === currentSid,
        }));
      },
      async endUserSession(userId, publicId) {
        const [ended] = await db
          .delete(sessions)
          .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
          .returning({ sid: sessions.sid });
        if (!ended) return null;
        await announce({ s: ended.sid });
        return ended;
      },
      async pruneExpired() {
        const removed = await db
          .delete(sessions)
          .where(lt(sessions.expire, sql`now()`))
          .returning({ sid: sessions.sid });
        return removed.length;
      },
      onChange(listener) {
        listeners.push(listener);
      },
    };
    app.decorate('sessions', store);
  },
  { name: 'sessions', dependencies: ['@fastify/cookie'] },
);

/** Guard for routes that need a signed-in user: 401 otherwise. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  const user = await request.server.sessions.currentUser(request);
  if (!user) throw apiError('unauthorized');
  request.user = user;
}

/** Guard for the label's team: 401 signed out, 403 for artists. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  await requireUser(request);
  if (request.user!.role !== 'admin') throw apiError('admin_only');
}

/** The user a guarded handler runs for. */
export function userOf(request: FastifyRequest): UserRow {
  if (!request.user) throw apiError('unauthorized');
  return request.user;
}
