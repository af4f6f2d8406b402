import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../features/auth/accounts';
import { users } from '../platform/db/schema';
import { announceUserChanged } from '../platform/sessions';
import { cookieFrom, createAdmin, createArtist, createTestApp, sessionCookie, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../test/helpers';
import { secondInstance } from '../test/helpers';

/**
 * Issue 9 finding 4 and CONTRACT §9: sign-out, a role change, a password change and an account
 * deletion take effect on every instance within one second. Two instances on one database (on
 * PostgreSQL each with its own pool and its own LISTEN connection); instance B has the session
 * in its memory when the change is made through A.
 */
const REVOCATION_DEADLINE_MS = 1000;

let t: TestApp;
let b: { app: FastifyInstance; close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  b = await secondInstance(t);
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

const get = (app: FastifyInstance, url: string, cookie: string) => app.inject({ url, headers: { cookie } });

/** Polls `check` on instance B until it holds; answers how long that took, failing past the deadline. */
async function within(deadlineMs: number, check: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > deadlineMs) throw new Error(`not revoked within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe(`revocation across instances (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('sign-out on A: B refuses the old cookie within a second, writes included', async () => {
    const artist = await createArtist(t.db);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: artist.email, password: TEST_PASSWORD } });
    const cookie = cookieFrom(login);
    expect((await get(b.app, '/api/user', cookie)).statusCode).toBe(200);

    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: TEST_ORIGIN } });
    const latency = await within(REVOCATION_DEADLINE_MS, async () => (await get(b.app, '/api/user', cookie)).statusCode === 401);
    const write = await b.app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { cookie, origin: TEST_ORIGIN },
      payload: {},
    });
    expect(write.statusCode).toBe(401);
    console.info(`revocation latency, sign-out: ${latency.toFixed(1)} ms`);
  });

  it('role change (as `npm run admin -- demote` makes it): B stops admitting the demoted admin within a second', async () => {
    const admin = await createAdmin(t.db);
    const cookie = await sessionCookie(t.app, t.db, admin);
    expect((await get(b.app, '/api/admin/submissions', cookie)).statusCode).toBe(200);

    const demoted = await setRole(t.db, admin.email!, 'user');
    await announceUserChanged(t.db, demoted.id);
    const latency = await within(REVOCATION_DEADLINE_MS, async () => (await get(b.app, '/api/admin/submissions', cookie)).statusCode === 403);
    console.info(`revocation latency, role change: ${latency.toFixed(1)} ms`);
  });

  it('password change (other sessions end): B refuses the other sessions within a second, keeps the current one', async () => {
    const artist = await createArtist(t.db);
    const current = await sessionCookie(t.app, t.db, artist);
    const other = await sessionCookie(t.app, t.db, artist);
    expect((await get(b.app, '/api/user', other)).statusCode).toBe(200);
    expect((await get(b.app, '/api/user', current)).statusCode).toBe(200);

    const currentSid = t.app.unsignCookie(decodeURIComponent(current.split('=')[1]!)).value!;
    await t.app.sessions.endUserSessions(artist.id, { except: currentSid });
    const latency = await within(REVOCATION_DEADLINE_MS, async () => (await get(b.app, '/api/user', other)).statusCode === 401);
    expect((await get(b.app, '/api/user', current)).statusCode).toBe(200);
    console.info(`revocation latency, password change: ${latency.toFixed(1)} ms`);
  });

  it('account deletion: B refuses every session of the deleted account within a second', async () => {
    const artist = await createArtist(t.db);
    const cookie = await sessionCookie(t.app, t.db, artist);
    expect((await get(b.app, '/api/submissions', cookie)).statusCode).toBe(200);

    await t.db.delete(users).where(eq(users.id, artist.id));
    await t.app.sessions.forgetUser(artist.id);
    const latency = await within(REVOCATION_DEADLINE_MS, async () => (await get(b.app, '/api/submissions', cookie)).statusCode === 401);
    console.info(`revocation latency, account deletion: ${latency.toFixed(1)} ms`);
  });
});
