import { and, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { liveEventSchema } from '@shared/live-event-schema';
import type { LiveEvent } from '@shared/live-events';
import type { Database } from '../db/client';
import { sessions } from '../db/schema';
import { apiError } from '../errors';
import { isAllowedOrigin } from '../security';
import { requireUser, userOf } from '../sessions';
import { createNotificationBus } from './bus';
import { RealtimeHub } from './hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pushes events to users' open sockets on every instance (CONTRACT §7). */
    realtime: RealtimeHub<LiveEvent>;
  }
}

interface RealtimeOptions {
  database: Database;
  publicOrigin: string;
  heartbeatMs?: number;
}

/**
 * The WebSocket endpoint `/ws` and the hub behind it. The upgrade is checked before the handshake
 * completes: a foreign Origin gets 403 (browsers always send Origin on upgrades, and cookies go
 * with cross-site upgrades, so this is what stops another site from reading a user's events),
 * and no valid session gets 401. The socket belongs to the session's user for its whole life;
 * nothing the client sends can change that.
 */
export const realtimePlugin = fp<RealtimeOptions>(
  async (app: FastifyInstance, { database, publicOrigin, heartbeatMs }) => {
    const { db } = database;
    /** Per upgrade: the session changes heard before its session was looked up (see `hub.add`). */
    const changesBefore = new WeakMap<object, number>();
    const hub = new RealtimeHub<LiveEvent>({
      bus: createNotificationBus(database, app.log),
      // Every event is checked against the one schema the client types from (a typo fails here, not in a browser).
      checkEvent: (event) => void liveEventSchema.parse(event),
      log: app.log,
      ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
      validSessions: async (ids) => {
        const rows = await db
          .select({ sid: sessions.sid })
          .from(sessions)
          .where(and(inArray(sessions.sid, ids), gt(sessions.expire, sql`now()`)));
        return new Set(rows.map((r) => r.sid));
      },
    });
    app.decorate('realtime', hub);
    // Sign-out, password change, deletion, role change, announced by any instance: the sockets of
    // ended sessions close at once, not at the next heartbeat (CONTRACT §9; decision 051).
    app.sessions.onChange((change) => {
      if ('sessionId' in change) hub.endSession(change.sessionId);
      else if ('userId' in change) hub.recheckUser(change.userId);
      else hub.recheckAll();
    });
    app.addHook('onReady', () => hub.start());
    // preClose: before @fastify/websocket closes the sockets and the server stops taking upgrades.
    app.addHook('preClose', () => hub.stop());

    app.get(
      '/ws',
      {
        websocket: true,
        onRequest: async (request) => {
          if (!isAllowedOrigin(request.headers.origin, publicOrigin)) {
            throw apiError('cross_origin');
          }
          changesBefore.set(request, hub.changesHeard());
        },
        preValidation: requireUser,
      },
      (socket, request) => {
        const user = userOf(request);
        if (!hub.add(socket, user.id, request.sessionId!, changesBefore.get(request))) return;
        socket.send(JSON.stringify({ type: 'ready', userId: user.id }));
        socket.on('message', (data: Buffer, isBinary: boolean) => {
          if (isBinary) return;
          const message = parseClientMessage(data.toString());
          // SPEC §7's {type:'auth', userId} is accepted for compatibility; the session decides who this is.
          if (message?.type === 'auth' && message.userId !== user.id) {
            request.log.info({ userId: user.id }, 'websocket auth message for another user ignored');
          }
        });
      },
    );
  },
  { name: 'realtime', dependencies: ['@fastify/websocket', 'sessions'] },
);

/** The part of a `ws` WebSocket that `handleSocketError` uses. */
interface ErroredSocket {
  terminate(): void;
}

/**
 * @fastify/websocket's errorHandler: what happens to an error on an open socket. A frame the
 * client had no right to send (larger than maxPayload, malformed: ws's `WS_ERR_*` codes) is the
 * client's fault, like a 4xx: logged at info, and ws is already closing the socket with the
 * matching code (1009 for too large). Anything else is the server's: logged as an error, and
 * the socket cut.
 */
export function handleSocketError(error: Error, socket: ErroredSocket, request: FastifyRequest): void {
  if ((error as { code?: unknown }).code?.toString().startsWith('WS_ERR_')) {
    request.log.info({ err: error }, 'websocket closed: the client sent a frame it may not send');
    return;
  }
  request.log.error({ err: error }, 'websocket failed');
  socket.terminate();
}

function parseClientMessage(text: string): { type?: unknown; userId?: unknown } | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as { type?: unknown; userId?: unknown }) : null;
  } catch {
    return null;
  }
}
