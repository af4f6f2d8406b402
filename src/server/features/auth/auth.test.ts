import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@shared/auth';
import { sessions, users } from '../../platform/db/schema';
import { SESSION_TTL_MS } from '../../platform/sessions';
import { cookieFrom, createArtist, createTestApp, TEST_ORIGIN, TEST_PASSWORD, uniqueEmail, type TestApp } from '../../test/helpers';
import { LOGIN_THROTTLE } from './login-throttle';
import { errorText } from '@shared/errors';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const unique = () => uniqueEmail('new', 'Example.com');
const registration = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Nova',
  lastName: 'Black',
  email: unique(),
  password: 'secret123',
  ...overrides,
});

describe('POST /api/register', () => {
  it('creates the account, signs in, and never returns the password hash', async () => {
    const body = registration();
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload: body });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({ firstName: 'Nova', lastName: 'Black', email: body.email.toLowerCase(), role: 'user' });
    expect(user).not.toHaveProperty('password');
    expect(JSON.stringify(user)).not.toContain('scrypt');

    const setCookie = res.cookies.find((c) => c.name === 'sid')!;
    expect(setCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(setCookie.secure).toBeFalsy();

    const me = await t.app.inject({ url: '/api/user', headers: { cookie: cookieFrom(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
    const [stored] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(stored!.password).toMatch(/^scrypt\$/);
  });

  it('refuses an email that is taken, compared case-insensitively (409)', async () => {
    const email = unique();
    await t.app.inject({ method: 'POST', url: '/api/register', payload: registration({ email }) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registration({ email: email.toUpperCase() }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: errorText('email_taken'), code: 'email_taken' });
  });

  it.each([
    ['firstName', { firstName: 'A' }, AUTH_MESSAGES.firstName],
    ['lastName', { lastName: ' B ' }, AUTH_MESSAGES.lastName],
    ['email', { email: 'not-an-email' }, AUTH_MESSAGES.email],
    ['password', { password: '12345' }, AUTH_MESSAGES.password],
  ])('answers a bad %s with 400 and SPEC’s message', async (path, override, message) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload: registration(override) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message, code: 'validation_failed', errors: [{ path, message }] });
  });

  it('ignores server-set fields such as role', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload: registration({ role: 'admin', id: 'mine' }) });
    expect(res.statusCode).toBe(201);
    expect(res.json().role).toBe('user');
    expect(res.json().id).not.toBe('mine');
  });

  it('answers malformed JSON and a missing body with 400, not 500', async () => {
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe('The request body is not valid JSON');
    const empty = await t.app.inject({ method: 'POST', url: '/api/register' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.length).toBeGreaterThan(0);
  });
});

describe('POST /api/login', () => {
  it('signs in with the right password, with a new session id each time', async () => {
    const user = await createArtist(t.db);
    const login = () =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email!.toUpperCase(), password: TEST_PASSWORD } });
    const first = await login();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: user.id, email: user.email });
    const second = await login();
    expect(cookieFrom(second)).not.toBe(cookieFrom(first));
  });

  it('answers a wrong password and an unknown email alike: 401 Invalid email or password', async () => {
    const user = await createArtist(t.db);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: 'wrong-password' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: errorText('invalid_credentials'), code: 'invalid_credentials' });
    expect(wrong.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    const unknown = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: unique(), password: 'whatever1' } });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: errorText('invalid_credentials'), code: 'invalid_credentials' });
  });

  it('validates the email and password length with SPEC’s messages', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'x', password: '1' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'email', message: AUTH_MESSAGES.email },
      { path: 'password', message: AUTH_MESSAGES.password },
    ]);
  });

  it('answers 429 after repeated failures for one email, even with the right password', async () => {
    const user = await createArtist(t.db);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerEmailAndAddress; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: 'wrong-pass' } });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: TEST_PASSWORD } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    // Another account from another address is not affected.
    const other = await createArtist(t.db);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: '10.9.8.7',
      payload: { email: other.email, password: TEST_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 429 after many failures from one address across emails', async () => {
    const remoteAddress = '192.0.2.44';
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerIp; i++) {
      await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email: unique(), password: 'wrong-pass' } });
    }
    const user = await createArtist(t.db);
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress,
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Each failure costs a full password check by design; thirty of them take a while.
  }, 120_000);
});

describe('sessions', () => {
  it('GET /api/user and /api/auth/user answer 401 without a session', async () => {
    for (const url of ['/api/user', '/api/auth/user']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized', code: 'unauthorized' });
    }
  });

  it('refuses a forged cookie (bad signature) and an unsigned session id', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    const [, value] = cookie.split('=');
    const sid = decodeURIComponent(value!).split('.')[0];
    const forged = await t.app.inject({ url: '/api/user', headers: { cookie: `sid=${sid}.forgedsignature` } });
    expect(forged.statusCode).toBe(401);
    const unsigned = await t.app.inject({ url: '/api/user', headers: { cookie: `sid=${sid}` } });
    expect(unsigned.statusCode).toBe(401);
    const good = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(good.statusCode).toBe(200);
  });

  it('refuses an expired session, and maintenance prunes it', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    await t.db.update(sessions).set({ expire: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    const res = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(await t.app.sessions.pruneExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it('a read does not write: the session row is left as it is', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    const [before] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    await t.app.inject({ url: '/api/user', headers: { cookie } });
    const [after] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(after!.expire.getTime()).toBe(before!.expire.getTime());
  });

  it('extends a session that has used up more than half its life', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    const soon = new Date(Date.now() + 60 * 60 * 1000);
    await t.db.update(sessions).set({ expire: soon }).where(eq(sessions.userId, user.id));
    await t.app.inject({ url: '/api/user', headers: { cookie } });
    const [after] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(after!.expire.getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 60_000);
  });

  it('logout destroys the session server-side', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: TEST_ORIGIN } });
    expect(out.statusCode).toBe(200);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    const me = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(me.statusCode).toBe(401);
  });

  it('what this instance remembers of a session never outlives sign-out or a profile change here', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().instagramHandle).toBeNull();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/profile/social-links',
      headers: { cookie },
      payload: { instagramHandle: '@nova' },
    });
    expect(saved.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().instagramHandle).toBe('@nova');

    await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('GET /api/login sends the browser to /auth', async () => {
    const res = await t.app.inject({ url: '/api/login' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/auth');
  });
});

describe('origin check and security headers', () => {
  it('refuses a state-changing request from a foreign Origin with 403, changing nothing', async () => {
    const payload = registration();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { origin: 'https://evil.example' },
      payload,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Cross-origin request refused', code: 'cross_origin' });
    expect(await t.db.select().from(users).where(eq(users.email, payload.email.toLowerCase()))).toHaveLength(0);
  });

  it('accepts the product’s own Origin', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/register', headers: { origin: TEST_ORIGIN }, payload: registration() });
    expect(res.statusCode).toBe(201);
  });

  it('sends nosniff on every answer (the page policies are for HTML: platform/serving.test.ts)', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});

describe('health and config', () => {
  it('answers /healthz and /readyz while the database answers', async () => {
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('GET /api/config says what is not configured', async () => {
    const res = await t.app.inject({ url: '/api/config' });
    expect(res.json()).toEqual({ stripePublishableKey: null, googleEnabled: false, signInProvider: null, mailEnabled: false, vatRatePercent: null, labelName: null });
  });

  it('answers an unknown API route with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('/api/nothing-here');
  });
});
