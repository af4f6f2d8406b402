import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CLOSE_SESSION_ENDED, CLOSE_TOO_MANY_SOCKETS } from '@shared/live-events';
import type { Db, Tx } from '../db/client';
import { MAX_NOTIFY_BYTES, REALTIME_CHANNEL, type NotificationBus } from './bus';

/** What is pushed to browsers: a JSON object with a `type`. */
interface RealtimeEvent {
  type: string;
  [key: string]: unknown;
}

/**
 * A reference to an event too large for a NOTIFY payload: each instance loads it again from the
 * database with the loader registered under `loader`.
 */
interface EventReference {
  loader: string;
  id: string;
}

type EventLoader<Event extends RealtimeEvent = RealtimeEvent> = (id: string) => Promise<Event | null>;

/** The part of a `ws` WebSocket the hub uses (kept narrow so that tests can stand in for it). */
export interface HubSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  ping(): void;
  terminate(): void;
  close(code?: number, reason?: string): void;
  on(event: 'pong' | 'close', listener: () => void): unknown;
}

interface HubOptions<Event extends RealtimeEvent = RealtimeEvent> {
  bus: NotificationBus;
  /** Checks an event where it is produced (the app passes the shared schema's parse); throws when it is not one. */
  checkEvent?: (event: Event) => void;
  log: FastifyBaseLogger;
  /** How often sockets are pinged; one missed pong and the socket is terminated at the next beat. */
  heartbeatMs?: number;
  /** The session ids among these that are still valid; sockets of the others are closed. */
  validSessions?: (sessionIds: string[]) => Promise<Set<string>>;
}

const DEFAULT_HEARTBEAT_MS = 30_000;
/** A tab per socket; more than this for one user is a leak or abuse, and the oldest goes. */
export const MAX_SOCKETS_PER_USER = 20;
/**
 * One browser (one session) with more tabs open than this is a script, not a person: the extra
 * socket is refused with CLOSE_TOO_MANY_SOCKETS, and the session's open tabs keep theirs. (Closing
 * the oldest instead would have the tabs take each other's place forever, each reconnecting.)
 */
export const MAX_SOCKETS_PER_SESSION = 10;
/** A client this far behind in reading is not keeping up; it reconnects and refetches instead. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const OPEN = 1;

interface Connection {
  socket: HubSocket;
  userId: string;
  sessionId: string;
  alive: boolean;
}

interface Envelope {
  /**
   * The instance that published it, which has already delivered it to its own sockets; COMMITTED
   * when a transaction sent it (`notifyOnCommit`), which every instance delivers, this one included.
   */
  o: string;
  /** Recipients' user ids. */
  u: string[];
  e?: RealtimeEvent;
  r?: EventReference;
}

/**
 * The per-instance registry of open sockets (user id → sockets) and the fan-out of events to them.
 * `publish` delivers to this instance's sockets at once, then NOTIFYs the other instances, which
 * deliver to theirs. Nothing is kept that another instance would need: a socket lives on one
 * instance, and missed events are recovered by the client refetching when it reconnects.
 */
const COMMITTED = 'commit';

/**
 * Sends `event` to these users' sockets on every instance when `tx` commits, and never if it rolls
 * back: a NOTIFY is delivered at commit. For an event that announces the transaction's own change
 * (domain/submission/transition.ts), so no one is told of a change before they can read it. The
 * caller checks the event against its schema; recipients are split over several notifications
 * when one would be too large.
 */
export async function notifyOnCommit(tx: Tx | Db, userIds: string[], event: RealtimeEvent): Promise<void> {
  const recipients = [...new Set(userIds)];
  const perNotification = Math.max(1, Math.floor((MAX_NOTIFY_BYTES - JSON.stringify(event).length - 100) / 40));
  for (let start = 0; start < recipients.length; start += perNotification) {
    const payload = JSON.stringify({ o: COMMITTED, u: recipients.slice(start, start + perNotification), e: event } satisfies Envelope);
    await tx.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`);
  }
}

export class RealtimeHub<Event extends RealtimeEvent = RealtimeEvent> {
  readonly instanceId = randomUUID();
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly loaders = new Map<string, EventLoader<Event>>();
  private readonly pending = new Set<Promise<void>>();
  private readonly bus: NotificationBus;
  private readonly log: FastifyBaseLogger;
  private readonly heartbeatMs: number;
  private readonly validSessions: HubOptions['validSessions'];
  private readonly checkEvent: ((event: Event) => void) | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Counts session changes heard; see `changesHeard` and `add`. */
  private changes = 0;
  /** Users whose sockets' sessions are being checked again; `again` when another change came meanwhile. */
  private readonly rechecks = new Map<string, { again: boolean }>();

  constructor(options: HubOptions<Event>) {
    this.bus = options.bus;
    this.checkEvent = options.checkEvent;
    this.log = options.log;
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.validSessions = options.validSessions;
    this.bus.onNotification((payload) => this.receive(payload));
    // Notifications sent while this instance could not listen are lost: tell its clients to refetch.
    this.bus.onResubscribed(() => this.broadcastLocal({ type: 'resync' }));
  }

  async start(): Promise<void> {
    await this.bus.start();
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Resolves once every session check, send and load under way here has finished (those they
   * start included), or after `timeoutMs`: a caller counting sockets after a change waits for it.
   */
  async idle(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.pending]), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()).unref())]);
    }
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await Promise.allSettled([...this.pending]);
    await this.bus.stop();
    for (const connection of this.connections()) connection.socket.close(1001, 'Server shutting down');
    this.byUser.clear();
  }

  /** Events published with a reference are loaded on each instance by the loader of that name. */
  registerLoader(name: string, loader: EventLoader<Event>): void {
    this.loaders.set(name, loader);
  }

  /**
   * How many session changes this instance has heard so far. Taken before a socket's session is
   * looked up and passed to `add`: a change heard in between may have ended the session after it
   * was read, so the socket's session is checked again once it is tracked.
   */
  changesHeard(): number {
    return this.changes;
  }

  /**
   * Tracks an open socket of a signed-in user until it closes, stops answering pings or its session
   * ends. `changesBefore`: `changesHeard()` from before the session was looked up. Answers false,
   * having closed the socket, when its session already has MAX_SOCKETS_PER_SESSION.
   */
  add(socket: HubSocket, userId: string, sessionId: string, changesBefore?: number): boolean {
    let set = this.byUser.get(userId);
    let ofSession = 0;
    for (const other of set ?? []) if (other.sessionId === sessionId) ofSession++;
    if (ofSession >= MAX_SOCKETS_PER_SESSION) {
      socket.close(CLOSE_TOO_MANY_SOCKETS, 'Too many connections for this session');
      return false;
    }
    const connection: Connection = { socket, userId, sessionId, alive: true };
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    if (set.size >= MAX_SOCKETS_PER_USER) {
      const oldest = set.values().next().value!;
      this.remove(oldest);
      oldest.socket.close(1008, 'Too many connections');
    }
    set.add(connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('close', () => this.remove(connection));
    if (changesBefore !== undefined && changesBefore !== this.changes) this.track(this.closeIfEnded([connection]));
    return true;
  }

  /**
   * A session ended (sign-out, "sign out that session"), announced by any instance: its sockets
   * here close at once with CLOSE_SESSION_ENDED, so nothing more reaches them.
   */
  endSession(sessionId: string): void {
    this.changes++;
    for (const connection of this.connections()) {
      if (connection.sessionId === sessionId) this.endConnection(connection);
    }
  }

  /**
   * A user changed (password, role, deletion, profile), announced by any instance: their sockets'
   * sessions here are checked again, and the ended ones closed (a password change or a deletion
   * ends sessions). A role change keeps a live session's socket: events are addressed to user
   * ids, never to roles, so a socket carries nothing its user's role would decide.
   */
  recheckUser(userId: string): void {
    this.changes++;
    if (!this.byUser.has(userId)) return;
    const running = this.rechecks.get(userId);
    if (running) {
      // A check already under way may have read the sessions before this change: one more after it.
      running.again = true;
      return;
    }
    const state = { again: false };
    this.rechecks.set(userId, state);
    const run = async () => {
      try {
        do {
          state.again = false;
          await this.closeIfEnded([...(this.byUser.get(userId) ?? [])]);
        } while (state.again);
      } finally {
        this.rechecks.delete(userId);
      }
    };
    this.track(run());
  }

  /** Announcements were lost (the listener reconnected): every socket's session is checked again. */
  recheckAll(): void {
    this.changes++;
    this.track(this.closeIfEnded([...this.connections()]));
  }

  /** Open sockets on this instance (all users, or one). */
  socketCount(userId?: string): number {
    if (userId !== undefined) return this.byUser.get(userId)?.size ?? 0;
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  /**
   * Sends `event` to every open socket of these users on every instance. Resolves once the other
   * instances have been notified; a failure there is logged, never thrown: the event is only a
   * hint to refresh, and what it announces is already stored.
   */
  publish(userIds: string[], event: Event, reference?: EventReference): Promise<void> {
    this.checkEvent?.(event);
    const recipients = [...new Set(userIds)];
    this.deliverLocal(recipients, JSON.stringify(event));

    let payload = JSON.stringify({ o: this.instanceId, u: recipients, e: event } satisfies Envelope);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
      if (!reference) {
        this.log.error({ type: event.type }, 'realtime event too large for other instances and has no reference');
        return Promise.resolve();
      }
      payload = JSON.stringify({ o: this.instanceId, u: recipients, r: reference } satisfies Envelope);
    }
    const sending = this.bus
      .notify(payload)
      .catch((error: unknown) => this.log.error({ err: error, type: event.type }, 'realtime notify failed'))
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
    return sending;
  }

  private receive(payload: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      this.log.warn('malformed realtime notification ignored');
      return;
    }
    if (envelope.o === this.instanceId || !Array.isArray(envelope.u)) return;
    const local = envelope.u.filter((userId) => this.byUser.has(userId));
    if (local.length === 0) return;
    if (envelope.e) {
      this.deliverLocal(local, JSON.stringify(envelope.e));
      return;
    }
    const reference = envelope.r;
    const loader = reference && this.loaders.get(reference.loader);
    if (!reference || !loader) {
      this.log.warn({ reference }, 'realtime notification without a known loader ignored');
      return;
    }
    const loading = loader(reference.id)
      .then((event) => {
        if (event) this.deliverLocal(local, JSON.stringify(event));
      })
      .catch((error: unknown) => this.log.error({ err: error, reference }, 'realtime event could not be loaded'))
      .finally(() => this.pending.delete(loading));
    this.pending.add(loading);
  }

  private deliverLocal(userIds: string[], data: string): void {
    for (const userId of userIds) {
      const set = this.byUser.get(userId);
      if (!set) continue;
      for (const connection of set) this.send(connection, data);
    }
  }

  private broadcastLocal(event: RealtimeEvent): void {
    const data = JSON.stringify(event);
    for (const connection of this.connections()) this.send(connection, data);
  }

  private send(connection: Connection, data: string): void {
    const { socket } = connection;
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.remove(connection);
      socket.terminate();
      return;
    }
    socket.send(data);
  }

  private remove(connection: Connection): void {
    const set = this.byUser.get(connection.userId);
    if (!set?.delete(connection)) return;
    if (set.size === 0) this.byUser.delete(connection.userId);
  }

  private *connections(): Iterable<Connection> {
    for (const set of [...this.byUser.values()]) yield* [...set];
  }

  /** Terminates sockets that missed a pong, pings the rest, and closes those whose session ended. */
  private async beat(): Promise<void> {
    const live: Connection[] = [];
    for (const connection of this.connections()) {
      if (!connection.alive) {
        this.remove(connection);
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      try {
        connection.socket.ping();
        live.push(connection);
      } catch {
        this.remove(connection);
        connection.socket.terminate();
      }
    }
    // Sessions that simply expired are announced by no one: this is what closes their sockets.
    await this.closeIfEnded(live);
  }

  /** Closes those of these sockets whose session is no longer valid; a failed check closes nothing. */
  private async closeIfEnded(candidates: Connection[]): Promise<void> {
    if (!this.validSessions || candidates.length === 0) return;
    try {
      const valid = await this.validSessions([...new Set(candidates.map((c) => c.sessionId))]);
      for (const connection of candidates) {
        if (!valid.has(connection.sessionId)) this.endConnection(connection);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'realtime session check failed');
    }
  }

  private endConnection(connection: Connection): void {
    this.remove(connection);
    connection.socket.close(CLOSE_SESSION_ENDED, 'Session ended');
  }

  /** Keeps work in flight known, so that `stop` waits for it. */
  private track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => this.log.error({ err: error }, 'realtime session check failed'))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
