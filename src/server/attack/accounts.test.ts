import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSession } from '@shared/account';
import { ensureAdminAccount } from '../features/auth/accounts';
import { sessions, users } from '../platform/db/schema';
import { cookieFrom, createAdmin, createArtist, createTestApp, secondInstance, sessionCookie, TEST_PASSWORD, type Method, type TestApp } from '../test/helpers';
import { waitFor } from '../test/kit';
import type { TestSmtpServer } from '../test/smtp-test-server';
import { snapshotDatabase } from './attack-support';

/**
 * The routes of CONTRACT §11 under attack: a replayed or raced reset token, another artist's
 * session, the team routes as an artist, and input that is not what it should be. (The route walk
 * and the fuzzer cover the new routes by themselves: they list every registered route.)
 */
let t: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  t = await createTestApp({}, { smtp: true, addressPerCall: true });
  smtp = t.smtp;
});
afterAll(() => t?.close());

const send = (method: Method, url: string, payload?: unknown, cookie?: string) => t.call(method, url, cookie, payload);

async function resetToken(email: string): Promise<string> {
  const asked = Date.now();
  expect((await send('POST', '/api/password-reset', { email })).statusCode).toBe(202);
  const mail = await smtp.waitFor((m) => m.to.includes(email) && m.receivedAt >= asked);
  return /reset-password\?token=([\w-]+)/.exec(mail.mail.text ?? '')![1]!;
}

describe('reset tokens', () => {
  it('a token used twice at the same moment works once', async () => {
    const artist = await createArtist(t.db);
    const token = await resetToken(artist.email!);
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => send('POST', '/api/password-reset/confirm', { token, password: `raced-password-${i}` })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
    const replay = await send('POST', '/api/password-reset/confirm', { token, password: 'replayed-password' });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('This link is invalid or has expired');
  });

  it('a verification token is not a reset token, nor the other way round', async () => {
    const artist = await createArtist(t.db);
    const token = await resetToken(artist.email!);
    const asVerification = await t.app.inject({ url: `/api/verify-email?token=${token}` });
    expect(asVerification.headers.location).toBe('/dashboard?verification=invalid');
    expect((await send('POST', '/api/password-reset/confirm', { token, password: 'still-works-1' })).statusCode).toBe(200);
  });
});

/** Issue 22 finding 2: a reset link ends when the account moves to another address or its password changes. */
describe('reset links bound to the address and the password they were sent for', () => {
  const invalidLink = (res: { statusCode: number; json(): { message: string } }) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This link is invalid or has expired');
  };
  const signIn = (email: string, password: string) => send('POST', '/api/login', { email, password });

  it('a link sent to the old address does not work once the account has moved to a new one', async () => {
    const artist = await createArtist(t.db);
    const cookie = await sessionCookie(t.app, t.db, artist);
    const oldMailbox = await resetToken(artist.email!);
    const newEmail = `moved-${artist.id.slice(0, 8)}@example.com`.toLowerCase();
    expect((await send('PUT', '/api/account/email', { email: newEmail, currentPassword: TEST_PASSWORD }, cookie)).statusCode).toBe(202);
    const mail = await smtp.waitFor((m) => m.to.includes(newEmail));
    const verify = /verify-email\?token=([\w-]+)/.exec(mail.mail.text ?? '')![1]!;
    expect((await t.app.inject({ url: `/api/verify-email?token=${verify}` })).headers.location).toBe('/dashboard?verification=done');
    const [moved] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, artist.id));
    expect(moved!.email).toBe(newEmail);

    invalidLink(await send('POST', '/api/password-reset/confirm', { token: oldMailbox, password: 'taken-over-1' }));
    expect((await signIn(newEmail, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('a link issued before a password change does not work after it', async () => {
    const artist = await createArtist(t.db);
    const cookie = await sessionCookie(t.app, t.db, artist);
    const before = await resetToken(artist.email!);
    expect((await send('PUT', '/api/account/password', { currentPassword: TEST_PASSWORD, newPassword: 'changed-pass-22' }, cookie)).statusCode).toBe(200);

    invalidLink(await send('POST', '/api/password-reset/confirm', { token: before, password: 'taken-over-2' }));
    expect((await signIn(artist.email!, 'changed-pass-22')).statusCode).toBe(200);
    // A link asked for after the change works.
    const after = await resetToken(artist.email!);
    expect((await send('POST', '/api/password-reset/confirm', { token: after, password: 'reset-after-22' })).statusCode).toBe(200);
  });
});

/**
 * Issue 22 finding 2 asked the same of verification links: they were already bound at the confirm
 * (the link's address must be the account's address or the one it is changing to), and stay so.
 */
describe('verification links bound to the address they were sent to', () => {
  it('a link sent to the old address does nothing once the account has moved to a new one', async () => {
    const artist = await createArtist(t.db);
    const cookie = await sessionCookie(t.app, t.db, artist);
    const linkIn = async (email: string, since: number) => {
      const mail = await smtp.waitFor((m) => m.to.includes(email) && m.receivedAt >= since);
      return /verify-email\?token=([\w-]+)/.exec(mail.mail.text ?? '')![1]!;
    };
    const start = Date.now();
    expect((await send('POST', '/api/verify-email/resend', undefined, cookie)).statusCode).toBe(202);
    const oldAddressLink = await linkIn(artist.email!, start);
    const newEmail = `verified-move-${artist.id.slice(0, 8)}@example.com`.toLowerCase();
    expect((await send('PUT', '/api/account/email', { email: newEmail, currentPassword: TEST_PASSWORD }, cookie)).statusCode).toBe(202);
    expect((await t.app.inject({ url: `/api/verify-email?token=${await linkIn(newEmail, start)}` })).headers.location).toBe('/dashboard?verification=done');

    expect((await t.app.inject({ url: `/api/verify-email?token=${oldAddressLink}` })).headers.location).toBe('/dashboard?verification=invalid');
    const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, artist.id));
    expect(row!.email).toBe(newEmail);
  });
});

/**
 * Issue 22 finding 3: ADMIN_EMAIL/ADMIN_PASSWORD at start-up never make a stranger an admin. The
 * configured address may be free again (the admin moved to another one, or deleted their account),
 * and anyone can register it; it is honoured only for an account whose address is verified.
 */
describe('ADMIN_EMAIL at start-up', () => {
  const register = (email: string) =>
    send('POST', '/api/register', { email, password: 'strangers-pass-1', firstName: 'Stran', lastName: 'Ger' });
  const roleOf = async (id: string) => (await t.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]!.role;

  it('does not upgrade an unverified account someone registered with the address, nor its session', async () => {
    const email = `boss-${Date.now().toString(36)}@label.example`;
    const registered = await register(email);
    expect(registered.statusCode).toBe(201);
    const strangerId = registered.json().id as string;

    await ensureAdminAccount(t.db, { email, password: 'configured-pass-1' });

    expect(await roleOf(strangerId)).toBe('user');
    // A fresh sign-in (no remembered session) sees the stored role; the configured password is not set on it.
    const signedIn = await send('POST', '/api/login', { email, password: 'strangers-pass-1' });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().role).toBe('user');
    expect((await send('GET', '/api/admin/users', undefined, cookieFrom(signedIn))).statusCode).toBe(403);
    expect((await send('GET', '/api/admin/users', undefined, cookieFrom(registered))).statusCode).toBe(403);
  });

  it('the configured admin moved to another address: whoever registers the old one is not made admin', async () => {
    const email = `boss-moved-${Date.now().toString(36)}@label.example`;
    const admin = await ensureAdminAccount(t.db, { email, password: 'configured-pass-2' });
    expect(admin).toMatchObject({ role: 'admin', emailVerified: true });
    await t.db.update(users).set({ email: `elsewhere-${email}` }).where(eq(users.id, admin!.id));

    const registered = await register(email);
    expect(registered.statusCode).toBe(201);
    await ensureAdminAccount(t.db, { email, password: 'configured-pass-2' });
    expect(await roleOf(registered.json().id as string)).toBe('user');
    expect(await roleOf(admin!.id)).toBe('admin');
  });

  it('makes an account admin once its address is verified', async () => {
    const artist = await createArtist(t.db, { emailVerified: true });
    await ensureAdminAccount(t.db, { email: artist.email!, password: 'configured-pass-3' });
    expect(await roleOf(artist.id)).toBe('admin');
  });
});

describe('input that is not what it should be', () => {
  it.each([
    ['NUL in the email', { email: 'a\u0000@example.com' }],
    ['a huge string', { email: `${'x'.repeat(70_000)}@example.com` }],
    ['the wrong type', { email: ['a@example.com'] }],
    ['nothing', {}],
  ])('POST /api/password-reset with %s → 400', async (_name, body) => {
    const res = await send('POST', '/api/password-reset', body);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
  });

  it.each([
    ['NUL in the token', { token: 'a\u0000b', password: 'long-enough-1' }],
    ['a huge token', { token: 'x'.repeat(70_000), password: 'long-enough-1' }],
    ['the wrong type', { token: 42, password: true }],
  ])('POST /api/password-reset/confirm with %s → 400', async (_name, body) => {
    expect((await send('POST', '/api/password-reset/confirm', body)).statusCode).toBe(400);
  });

  it('account changes refuse wrong types, NUL and huge strings with 400, changing nothing', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    const before = await snapshotDatabase(t.db);
    for (const [method, url, body] of [
      ['PUT', '/api/account/password', { currentPassword: 1, newPassword: null }],
      ['PUT', '/api/account/password', { currentPassword: TEST_PASSWORD, newPassword: 'x'.repeat(70_000) }],
      ['PUT', '/api/account/email', { email: 'new\u0000@example.com', currentPassword: TEST_PASSWORD }],
      ['DELETE', '/api/account', { password: ['x'] }],
      ['DELETE', '/api/account', {}],
      ['PATCH', `/api/admin/users/${artist.id}`, { role: 'admin' }],
    ] as const) {
      const res = await send(method, url, body, cookie);
      expect(res.statusCode, `${method} ${url}`).toBe(url.startsWith('/api/admin/') ? 403 : 400);
    }
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });
});

describe('other people’s things', () => {
  it('an artist cannot end, or even see, another artist’s session; a percent-encoded path changes nothing', async () => {
    const victim = await createArtist(t.db);
    const victimCookie = await t.signIn(victim);
    const [victimSession] = await t.db.select({ id: sessions.publicId }).from(sessions).where(eq(sessions.userId, victim.id));
    const attacker = await t.signIn(await createArtist(t.db));
    const list = (await send('GET', '/api/account/sessions', undefined, attacker)).json<AccountSession[]>();
    expect(list.map((s) => s.id)).not.toContain(victimSession!.id);
    expect((await send('DELETE', `/api/account/sessions/${victimSession!.id}`, undefined, attacker)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/%61ccount/sessions/${victimSession!.id}`, undefined, attacker)).statusCode).toBe(404);
    expect((await send('GET', '/api/user', undefined, victimCookie)).statusCode).toBe(200);
  });

  it('an artist cannot list the team or change a role, on any spelling of the path', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    const admin = await createAdmin(t.db);
    for (const url of ['/api/admin/users', '/api/%61dmin/users', '/api/admin/user%73']) {
      expect((await send('GET', url, undefined, cookie)).statusCode).toBe(403);
    }
    expect((await send('PATCH', `/api/admin/%75sers/${artist.id}`, { role: 'admin' }, cookie)).statusCode).toBe(403);
    expect((await send('PATCH', `/api/admin/users/${admin.id}`, { role: 'user' }, cookie)).statusCode).toBe(403);
    const [row] = await t.db.select({ role: users.role }).from(users).where(eq(users.id, artist.id));
    expect(row!.role).toBe('user');
  });

  it('deleting an account twice at the same moment deletes it once and never answers 5xx', async () => {
    const artist = await createArtist(t.db);
    const cookie = await t.signIn(artist);
    const results = await Promise.all([0, 1].map(() => send('DELETE', '/api/account', { password: TEST_PASSWORD }, cookie)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(204);
    expect([204, 401]).toContain(codes[1]);
    expect((await send('GET', '/api/user', undefined, cookie)).statusCode).toBe(401);
  });
});

describe('through the routes, on every instance within a second (CONTRACT §9)', () => {
  const within = (check: () => Promise<boolean>) => waitFor(check, { timeoutMs: 1000, intervalMs: 5, what: 'the revocation on instance B' });

  it('a password change ends the other sessions, and a deletion every session, on instance B too', async () => {
    const b = await secondInstance(t);
    try {
      const signedIn = (cookie: string) => b.app.inject({ url: '/api/user', headers: { cookie } }).then((r) => r.statusCode === 200);
      const artist = await createArtist(t.db);
      const current = await t.signIn(artist);
      const other = await t.signIn(artist);
      expect(await signedIn(other)).toBe(true);
      expect(await signedIn(current)).toBe(true);
      const changed = await send('PUT', '/api/account/password', { currentPassword: TEST_PASSWORD, newPassword: 'changed-pass-11' }, current);
      expect(changed.statusCode).toBe(200);
      await within(async () => !(await signedIn(other)));
      expect(await signedIn(current)).toBe(true);

      const deleted = await send('DELETE', '/api/account', { password: 'changed-pass-11' }, current);
      expect(deleted.statusCode).toBe(204);
      await within(async () => !(await signedIn(current)));
    } finally {
      await b.close();
    }
  });
});
