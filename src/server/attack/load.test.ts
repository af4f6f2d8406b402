import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HASHING_CONCURRENCY, HASHING_MAX_WAIT_MS, hashingCounts, hashingLoad, hashingProcessId } from '../features/auth/password';
import type { UserRow } from '../platform/db/schema';
import { createArtist, createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../test/helpers';

/**
 * Issue 9 finding 6: under 200 artists the server stopped answering. Measured cause: every
 * sign-in's password hash (scrypt, ~90 ms of a core) ran at once on libuv's threads, starving the
 * event loop — which on the embedded database also runs every query — while hashes of sign-ins
 * whose clients had already given up were still worked through (docs/decisions/054-*). These
 * tests check the order of events, never how long anything took.
 */
let t: TestApp;
let origin: string;
let artist: UserRow;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  artist = await createArtist(t.db);
  cookie = await t.signIn(artist);
});
afterAll(async () => {
  await t?.close();
});

const loginBody = () => JSON.stringify({ email: artist.email, password: TEST_PASSWORD });

const signIn = () =>
  fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
    body: loginBody(),
  });

const idle = () => vi.waitFor(() => expect(hashingLoad()).toMatchObject({ running: 0, waiting: 0 }), { timeout: 60_000, interval: 50 });

describe('sign-ins under load', () => {
  it('answers health checks and signed-in reads while sign-ins wait for their password checks', async () => {
    const burst = Array.from({ length: HASHING_CONCURRENCY + 10 }, signIn);
    await vi.waitFor(() => expect(hashingLoad().waiting).toBeGreaterThan(3), { timeout: 30_000, interval: 20 });

    for (const path of ['/healthz', '/readyz', '/api/user']) {
      const res = await fetch(`${origin}${path}`, { headers: { cookie } });
      expect(res.status, path).toBe(200);
    }
    // Answered before the queue of sign-ins drained: they never waited behind it.
    expect(hashingLoad().waiting).toBeGreaterThan(0);

    // Signed in, or (on a slow machine) refused at once as busy.
    const statuses = await Promise.all(burst.map(async (res) => (await res).status));
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses).toContain(200);
  });

  it('does not hash for sign-ins whose clients went away', async () => {
    await idle();
    const before = { ...hashingCounts };
    const count = HASHING_CONCURRENCY + 16;
    const body = loginBody();
    let answered = 0;
    const sockets = Array.from({ length: count }, () => {
      const socket = net.connect({ port: Number(new URL(origin).port), host: '127.0.0.1' });
      socket.on('error', () => {});
      socket.once('data', () => answered++);
      socket.write(
        `POST /api/login HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nOrigin: ${TEST_ORIGIN}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return socket;
    });
    // Every sign-in is in the queue or answered (refused at once as busy when the queue ahead
    // would keep it past HASHING_MAX_WAIT_MS, which on a busy machine is a shorter queue), and
    // some still wait. A fixed length of queue to wait for would never come on a slow machine.
    await vi.waitFor(
      () => {
        const { running, waiting } = hashingLoad();
        expect(answered + running + waiting).toBeGreaterThanOrEqual(count);
        expect(waiting).toBeGreaterThanOrEqual(2);
      },
      { timeout: 30_000, interval: 20 },
    );
    const waitingWhenAbandoned = hashingLoad().waiting;
    for (const socket of sockets) socket.destroy();
    await idle();

    const skipped = hashingCounts.skipped - before.skipped;
    const done = hashingCounts.done - before.done;
    // Those still waiting when their clients left are dropped (a hash may start in between).
    expect(skipped).toBeGreaterThanOrEqual(waitingWhenAbandoned - HASHING_CONCURRENCY);
    expect(done).toBeLessThan(count);
    // The server still signs people in afterwards.
    expect((await signIn()).status).toBe(200);
  });

  it('refuses sign-ins it could not check within HASHING_MAX_WAIT_MS with 503 and Retry-After', async () => {
    await idle();
    const responses = await Promise.all(
      // More than 3 s of hashing even on a fast machine (a hash costs tens of milliseconds at least).
      Array.from({ length: 150 }, async () => {
        const res = await signIn();
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { code?: string } };
      }),
    );
    const refused = responses.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status).toBe(503);
      expect(r.body.code).toBe('server_busy');
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
  }, 120_000);

  it('serves a browser that signed in to the account before ahead of a queue full of other sign-ins (decision 173)', async () => {
    await idle();
    // The owner's browser signed in once: it holds the account's device cookie.
    const first = await signIn();
    expect(first.status).toBe(200);
    const device = first.headers.getSetCookie().find((c) => c.startsWith('device_'))!.split(';')[0]!;
    expect(device).toBeTruthy();

    // A flood of sign-ins without it fills the queue past what it hashes within HASHING_MAX_WAIT_MS.
    const flood = Array.from({ length: 150 }, signIn);
    await vi.waitFor(() => expect(hashingLoad().expectedWaitMs).toBeGreaterThan(HASHING_MAX_WAIT_MS), { timeout: 30_000, interval: 10 });
    // Its owner's sign-in, sent now, goes ahead of them rather than being refused as busy.
    const owner = await fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: device },
      body: loginBody(),
    });
    expect(owner.status).toBe(200);
    const statuses = await Promise.all(flood.map(async (res) => (await res).status));
    expect(statuses).toContain(503);
  }, 120_000);

  it('answers a sign-in whose hashing process died under it with 503 and Retry-After, and hashes the next in a new one', async () => {
    await idle();
    expect((await signIn()).status).toBe(200);
    const helper = hashingProcessId()!;
    const pending = signIn();
    // The moment the hash is handed to the helper (it takes tens of milliseconds there), the helper dies.
    while (hashingLoad().running === 0) await new Promise((resolve) => setImmediate(resolve));
    process.kill(helper, 'SIGKILL');
    const refused = await pending;
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { code: string }).code).toBe('server_busy');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn()).status).toBe(200);
    expect(hashingProcessId()).not.toBe(helper);
  });
});
