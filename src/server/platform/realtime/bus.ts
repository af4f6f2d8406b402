import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../db/client';

/** The channel of the realtime hub's events; every instance listens on it. */
export const REALTIME_CHANNEL = 'realtime_events';
/** The channel on which instances tell each other that sessions or users changed. */
export const SESSION_CHANNEL = 'session_events';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a little head-room is kept so that a
 * payload measured here is never refused there.
 */
export const MAX_NOTIFY_BYTES = 7900;

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * Cross-instance fan-out through PostgreSQL LISTEN/NOTIFY. Every instance sharing the database,
 * this one included, receives every notification on the channel.
 */
export interface NotificationBus {
  start(): Promise<void>;
  stop(): Promise<void>;
  notify(payload: string): Promise<void>;
  /** Called with each payload that arrives on the channel. */
  onNotification(handler: (payload: string) => void): void;
  /**
   * Called when the listening connection came back after a loss: notifications sent while it was
   * down are gone, so whoever relies on them must catch up another way.
   */
  onResubscribed(handler: () => void): void;
}

export function createNotificationBus(
  database: Database,
  log: FastifyBaseLogger,
  channel: string = REALTIME_CHANNEL,
): NotificationBus {
  if (database.kind === 'pglite') return pgliteBus(database, log, channel);
  return postgresBus(database, log, channel);
}

/** The embedded database lives in this process: its LISTEN/NOTIFY is in-process. */
function pgliteBus(database: Database, log: FastifyBaseLogger, channel: string): NotificationBus {
  const pglite = database.pglite!;
  const handlers: ((payload: string) => void)[] = [];
  let unlisten: (() => Promise<void>) | undefined;
  return {
    async start() {
      unlisten = await pglite.listen(channel, (payload) => {
        for (const handler of handlers) handler(payload);
      });
    },
    async stop() {
      const stopListening = unlisten;
      unlisten = undefined;
      await stopListening?.().catch((error: unknown) => log.debug({ err: error }, 'unlisten failed'));
    },
    async notify(payload) {
      await pglite.query('select pg_notify($1, $2)', [channel, payload]);
    },
    onNotification(handler) {
      handlers.push(handler);
    },
    onResubscribed() {
      // The embedded database never drops its in-process listener.
    },
  };
}

/**
 * A dedicated connection (not from the pool: a pooled connection is handed to other queries and
 * released) LISTENs on the channel and reconnects with backoff when it is lost. NOTIFY goes
 * through the pool, so sending never waits behind the listener's reconnection.
 */
function postgresBus(database: Database, log: FastifyBaseLogger, channel: string): NotificationBus {
  const handlers: ((payload: string) => void)[] = [];
  const resubscribedHandlers: (() => void)[] = [];
  let client: pg.Client | undefined;
  let stopped = false;
  let everConnected = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const deliver = (message: pg.Notification) => {
    if (message.channel !== channel || message.payload === undefined) return;
    for (const handler of handlers) handler(message.payload);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: database.connectionString, keepAlive: true });
    next.on('notification', deliver);
    next.on('error', (error) => {
      log.warn({ err: error }, 'realtime listener connection failed');
      dropAndRetry(next);
    });
    next.on('end', () => dropAndRetry(next));
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      if (client === next) client = undefined;
      next.removeAllListeners();
      next.on('error', () => {});
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    attempt = 0;
    if (everConnected) {
      log.info('realtime listener reconnected');
      for (const handler of resubscribedHandlers) handler();
    }
    everConnected = true;
  }

  function dropAndRetry(lost: pg.Client) {
    if (client !== lost) return;
    client = undefined;
    lost.removeAllListeners('notification');
    lost.end().catch(() => {});
    scheduleRetry();
  }

  function scheduleRetry() {
    if (stopped || retryTimer) return;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt) * (0.75 + Math.random() / 2);
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch((error: unknown) => {
        log.warn({ err: error }, 'realtime listener could not reconnect');
        scheduleRetry();
      });
    }, delay);
    retryTimer.unref();
  }

  return {
    async start() {
      // The first connection must work: an instance that cannot listen would silently miss messages.
      await connect();
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
    async notify(payload) {
      await database.pool!.query('select pg_notify($1, $2)', [channel, payload]);
    },
    onNotification(handler) {
      handlers.push(handler);
    },
    onResubscribed(handler) {
      resubscribedHandlers.push(handler);
    },
  };
}
