import { EventEmitter } from 'node:events';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { NotificationBus } from './bus';
import { CLOSE_SESSION_ENDED } from '@shared/live-events';
import { MAX_SOCKETS_PER_USER, RealtimeHub, type HubSocket } from './hub';

/** A socket that records what the hub does to it; it answers pings only while `responsive`. */
class FakeSocket extends EventEmitter implements HubSocket {
  readyState = 1;
  bufferedAmount = 0;
  responsive = true;
  sent: unknown[] = [];
  closedWith: number | undefined;
  terminated = false;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  ping() {
    if (this.responsive) queueMicrotask(() => this.emit('pong'));
  }
  terminate() {
    this.terminated = true;
    this.readyState = 3;
    this.emit('close');
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
    this.emit('close');
  }
}

/** An in-memory bus shared by hubs, as PostgreSQL's channel is shared by instances. */
function memoryBus(channel: EventEmitter): NotificationBus & { sent: string[]; resubscribe(): void } {
  const resubscribed: (() => void)[] = [];
  const sent: string[] = [];
  return {
    sent,
    start: async () => {},
    stop: async () => {},
    notify: async (payload) => {
      sent.push(payload);
      channel.emit('n', payload);
    },
    onNotification: (handler) => void channel.on('n', handler),
    onResubscribed: (handler) => void resubscribed.push(handler),
    resubscribe: () => resubscribed.forEach((h) => h()),
  };
}

const log = pino({ level: 'silent' });

describe('RealtimeHub', () => {
  it('terminates a socket that missed a pong and keeps the ones that answer', async () => {
    vi.useFakeTimers();
    try {
      const hub = new RealtimeHub({ bus: memoryBus(new EventEmitter()), log, heartbeatMs: 1000 });
      await hub.start();
      const healthy = new FakeSocket();
      const dead = new FakeSocket();
      dead.responsive = false;
      hub.add(healthy, 'u1', 's1');
      hub.add(dead, 'u1', 's2');
      await vi.advanceTimersByTimeAsync(1000); // ping both
      await vi.advanceTimersByTimeAsync(1000); // the dead one never answered
      expect(dead.terminated).toBe(true);
      expect(healthy.terminated).toBe(false);
      expect(hub.socketCount('u1')).toBe(1);
      await hub.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes sockets whose session has ended', async () => {
    vi.useFakeTimers();
    try {
      const hub = new RealtimeHub({
        bus: memoryBus(new EventEmitter()),
        log,
        heartbeatMs: 1000,
        validSessions: async (ids) => new Set(ids.filter((id) => id !== 'logged-out')),
      });
      await hub.start();
      const kept = new FakeSocket();
      const ended = new FakeSocket();
      hub.add(kept, 'u1', 'still-valid');
      hub.add(ended, 'u2', 'logged-out');
      await vi.advanceTimersByTimeAsync(1000);
      expect(ended.closedWith).toBe(CLOSE_SESSION_ENDED);
      expect(kept.closedWith).toBeUndefined();
      expect(hub.socketCount()).toBe(1);
      await hub.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('delivers once per socket: locally at once, elsewhere through the bus', async () => {
    const channel = new EventEmitter();
    const a = new RealtimeHub({ bus: memoryBus(channel), log });
    const b = new RealtimeHub({ bus: memoryBus(channel), log });
    const onA = new FakeSocket();
    const onB = new FakeSocket();
    const bystander = new FakeSocket();
    a.add(onA, 'u1', 's');
    b.add(onB, 'u1', 's');
    b.add(bystander, 'u3', 's');
    await a.publish(['u1', 'u1', 'u2'], { type: 'hello' });
    expect(onA.sent).toEqual([{ type: 'hello' }]);
    expect(onB.sent).toEqual([{ type: 'hello' }]);
    expect(bystander.sent).toEqual([]);
  });

  it('sends a reference instead of an oversized event, loaded again by the receiving instance', async () => {
    const channel = new EventEmitter();
    const busA = memoryBus(channel);
    const a = new RealtimeHub({ bus: busA, log });
    const b = new RealtimeHub({ bus: memoryBus(channel), log });
    const big = { type: 'big', body: 'x'.repeat(9000) };
    b.registerLoader('big', async (id) => (id === '42' ? big : null));
    const onB = new FakeSocket();
    b.add(onB, 'u1', 's');
    await a.publish(['u1'], big, { loader: 'big', id: '42' });
    expect(Buffer.byteLength(busA.sent[0]!)).toBeLessThan(200);
    await vi.waitFor(() => expect(onB.sent).toEqual([big]));
  });

  it('keeps at most MAX_SOCKETS_PER_USER sockets per user, closing the oldest', () => {
    const hub = new RealtimeHub({ bus: memoryBus(new EventEmitter()), log });
    const sockets = Array.from({ length: MAX_SOCKETS_PER_USER + 1 }, () => new FakeSocket());
    // One session each (as many devices): a single session is capped lower, at MAX_SOCKETS_PER_SESSION.
    for (const [index, socket] of sockets.entries()) hub.add(socket, 'u1', `s${index}`);
    expect(hub.socketCount('u1')).toBe(MAX_SOCKETS_PER_USER);
    expect(sockets[0]!.closedWith).toBe(1008);
  });

  it('drops a client that stopped reading instead of buffering without bound', async () => {
    const hub = new RealtimeHub({ bus: memoryBus(new EventEmitter()), log });
    const slow = new FakeSocket();
    slow.bufferedAmount = 2 * 1024 * 1024;
    hub.add(slow, 'u1', 's');
    await hub.publish(['u1'], { type: 'hello' });
    expect(slow.terminated).toBe(true);
    expect(hub.socketCount('u1')).toBe(0);
  });

  it('closes the sockets of an ended session at once, without waiting for a heartbeat', () => {
    const hub = new RealtimeHub({ bus: memoryBus(new EventEmitter()), log });
    const ended = new FakeSocket();
    const otherTab = new FakeSocket();
    hub.add(ended, 'u1', 'signed-out');
    hub.add(otherTab, 'u1', 'still-valid');
    hub.endSession('signed-out');
    expect(ended.closedWith).toBe(CLOSE_SESSION_ENDED);
    expect(otherTab.closedWith).toBeUndefined();
    expect(hub.socketCount('u1')).toBe(1);
  });

  it('checks a changed user’s sessions again at once and closes the ended ones only', async () => {
    const checked: string[][] = [];
    const hub = new RealtimeHub({
      bus: memoryBus(new EventEmitter()),
      log,
      validSessions: async (ids) => {
        checked.push(ids);
        return new Set(ids.filter((id) => id !== 'password-changed-elsewhere'));
      },
    });
    const ended = new FakeSocket();
    const current = new FakeSocket();
    const bystander = new FakeSocket();
    hub.add(ended, 'u1', 'password-changed-elsewhere');
    hub.add(current, 'u1', 'current');
    hub.add(bystander, 'u2', 'other');
    hub.recheckUser('u1');
    await vi.waitFor(() => expect(ended.closedWith).toBe(CLOSE_SESSION_ENDED));
    expect(current.closedWith).toBeUndefined();
    expect(checked).toEqual([['password-changed-elsewhere', 'current']]);
    expect(bystander.closedWith).toBeUndefined();
  });

  it('checks again a socket whose session was looked up before a change it did not see', async () => {
    const hub = new RealtimeHub({ bus: memoryBus(new EventEmitter()), log, validSessions: async () => new Set() });
    const before = hub.changesHeard();
    hub.endSession('signed-out'); // while the upgrade was between its session lookup and `add`
    const late = new FakeSocket();
    hub.add(late, 'u1', 'signed-out', before);
    await vi.waitFor(() => expect(late.closedWith).toBe(CLOSE_SESSION_ENDED));

    const unaffected = new FakeSocket();
    hub.add(unaffected, 'u1', 'signed-out', hub.changesHeard());
    await hub.idle();
    expect(unaffected.closedWith).toBeUndefined(); // no change since its lookup: the heartbeat's job
  });

  it('tells its clients to resync after the listener lost notifications', () => {
    const bus = memoryBus(new EventEmitter());
    const hub = new RealtimeHub({ bus, log });
    const socket = new FakeSocket();
    hub.add(socket, 'u1', 's');
    bus.resubscribe();
    expect(socket.sent).toEqual([{ type: 'resync' }]);
  });
});
