import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from './db/client';
import { sessions, users, type SessionData, type UserRow } from './db/schema';
import { HttpError } from './errors';
import { newToken } from './ids';

export const SESSION_COOKIE = 'sid';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session is extended only once less than half its life is left, so reads rarely write. */
const SESSION_RENEW_BELOW_MS = SESSION_TTL_MS / 2;
/**
 * How long this instance trusts what it last read for a session. Sign-out and profile changes
 * made through this instance take effect at once; made through another instance (or the admin
 * command), within this many milliseconds (docs/decisions/003-sessions-and-login-throttling.md).
 */
const SESSION_CACHE_TTL_MS = 10_000;
const SESSION_CACHE_MAX = 10_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser/requireAdmin; loaded once per request. */
    user: UserRow | null;
    sessionId: string | null;
  }
  interface FastifyInstance {
    sessions: SessionStore;
  }
}

export interface SessionStore {
  /** Opens a new session (a new id on every sign-in) and sets the cookie. */
  start(reply: FastifyReply, userId: string, via: SessionData['via']): Promise<void>;
  /** The signed-in user of this request, or null; one query, cached on the request. */
  currentUser(request: FastifyRequest): Promise<UserRow | null>;
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Drops what this instance remembers of the user's sessions, after the user row changed. */
  forgetUser(userId: string): void;
  pruneExpired(): Promise<number>;
}

interface SessionOptions {
  db: Db;
  secureCookies: boolean;
}

const loaded = Symbol('sessionLoaded');
type RequestWithCache = FastifyRequest & { [loaded]?: Promise<UserRow | null> };

export const sessionsPlugin = fp<SessionOptions>(
  async (app: FastifyInstance, { db, secureCookies }) => {
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
      .select({ user: users, expire: sessions.expire })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.sid, sql.placeholder('sid')), gt(sessions.expire, sql`now()`)))
      .limit(1)
      .prepare('session_user');

    const recent = new Map<string, { user: UserRow; expire: number; until: number }>();

    async function lookUp(request: FastifyRequest): Promise<UserRow | null> {
      const raw = request.cookies[SESSION_COOKIE];
      if (!raw) return null;
      // A forged or tampered cookie fails the signature check without touching the database.
      const unsigned = request.unsignCookie(raw);
      if (!unsigned.valid || !unsigned.value) return null;
      const sid = unsigned.value;
      const now = Date.now();
      const remembered = recent.get(sid);
      if (remembered && remembered.until > now && remembered.expire > now) {
        request.sessionId = sid;
        return remembered.user;
      }
      recent.delete(sid);
      const [row] = await sessionUser.execute({ sid });
      if (!row) return null;
      request.sessionId = sid;
      if (recent.size >= SESSION_CACHE_MAX) recent.delete(recent.keys().next().value!);
      recent.set(sid, { user: row.user, expire: row.expire.getTime(), until: now + SESSION_CACHE_TTL_MS });
      if (row.expire.getTime() - Date.now() < SESSION_RENEW_BELOW_MS) {
        await db
          .update(sessions)
          .set({ expire: new Date(Date.now() + SESSION_TTL_MS) })
          .where(eq(sessions.sid, sid));
      }
      return row.user;
    }

    const store: SessionStore = {
      async start(reply, userId, via) {
        const sid = newToken();
        await db.insert(sessions).values({
          sid,
          userId,
          sess: { userId, via, createdAt: new Date().toISOString() },
          expire: new Date(Date.now() + SESSION_TTL_MS),
        });
        reply.setCookie(SESSION_COOKIE, sid, { ...cookieOptions, maxAge: SESSION_TTL_MS / 1000 });
      },
      currentUser(request) {
        const r = request as RequestWithCache;
        r[loaded] ??= lookUp(request);
        return r[loaded];
      },
      async end(request, reply) {
        await store.currentUser(request);
        if (request.sessionId) {
          recent.delete(request.sessionId);
          await db.delete(sessions).where(eq(sessions.sid, request.sessionId));
        }
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      },
      forgetUser(userId) {
        for (const [sid, entry] of recent) if (entry.user.id === userId) recent.delete(sid);
      },
      async pruneExpired() {
        const removed = await db
          .delete(sessions)
          .where(lt(sessions.expire, sql`now()`))
          .returning({ sid: sessions.sid });
        return removed.length;
      },
    };
    app.decorate('sessions', store);
  },
  { name: 'sessions', dependencies: ['@fastify/cookie'] },
);

/** Guard for routes that need a signed-in user: 401 otherwise. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  const user = await request.server.sessions.currentUser(request);
  if (!user) throw new HttpError(401, 'Unauthorized');
  request.user = user;
}

/** Guard for the label's team: 401 signed out, 403 for artists. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  await requireUser(request);
  if (request.user!.role !== 'admin') throw new HttpError(403, "You don't have admin privileges");
}

/** The user a guarded handler runs for. */
export function userOf(request: FastifyRequest): UserRow {
  if (!request.user) throw new HttpError(401, 'Unauthorized');
  return request.user;
}
