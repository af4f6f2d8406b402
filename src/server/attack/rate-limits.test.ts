import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE } from '../features/auth/login-throttle';
import type { UserRow } from '../platform/db/schema';
import { RATE_LIMITS } from '../platform/rate-limits';
import { RESUMABLE_UPLOADS_PATH } from '@shared/submissions';
import { createAdmin, createArtist, createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../test/helpers';
import { secondInstance } from '../test/helpers';

/** Issue 9 finding 3: TRUST_PROXY decides whose X-Forwarded-For counts; every limit is shared by all instances. */
let t: TestApp;
let proxied: TestApp;
let artist: UserRow;
let artistCookie: string;
let admin: UserRow;

beforeAll(async () => {
  [t, proxied] = await Promise.all([createTestApp(), createTestApp({ TRUST_PROXY: '127.0.0.1' })]);
  artist = await createArtist(t.db);
  artistCookie = await t.signIn(artist);
  admin = await createAdmin(t.db);
});
afterAll(async () => {
  await t?.close();
  await proxied?.close();
});

const failedLogin = (app: TestApp['app'], forwardedFor: string, remoteAddress = '127.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { email: `nobody-${Math.random().toString(36).slice(2)}@example.com`, password: 'wrong-pass' },
  });

const expectRetryAfter = (res: { statusCode: number; headers: Record<string, unknown> }) => {
  expect(res.statusCode).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
};

describe('TRUST_PROXY', () => {
  it('unset: X-Forwarded-For is ignored, so rotating it does not escape the per-address login limit', async () => {
    const remoteAddress = '198.51.100.7';
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerIp; i++) {
      const res = await failedLogin(t.app, `192.0.2.${i + 1}`, remoteAddress);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await failedLogin(t.app, '192.0.2.200', remoteAddress);
    expectRetryAfter(blocked);
    expect(blocked.json().message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
  }, 120_000);

  it('set to the proxy’s address: the client address comes from X-Forwarded-For, and only from that proxy', async () => {
    // Registration attempts are limited per address and are cheap to make (an empty body is a 400).
    const register = (forwardedFor: string, remoteAddress = '127.0.0.1') =>
      proxied.app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress,
        headers: { origin: TEST_ORIGIN, 'x-forwarded-for': forwardedFor },
        payload: {},
      });
    for (let i = 0; i < RATE_LIMITS.registrations.max; i++) expect((await register('192.0.2.10')).statusCode).toBe(400);
    expectRetryAfter(await register('192.0.2.10'));
    // Clients behind the proxy are told apart: one address's attempts do not block another's.
    expect((await register('192.0.2.11')).statusCode).toBe(400);
    // A peer that is not the trusted proxy cannot pick its address by rotating the header.
    for (let i = 0; i < RATE_LIMITS.registrations.max; i++) {
      expect((await register(`192.0.2.${(i % 200) + 20}`, '198.51.100.99')).statusCode).toBe(400);
    }
    expectRetryAfter(await register('192.0.2.254', '198.51.100.99'));
  }, 120_000);
});

describe('limits shared by every instance on the database', () => {
  it('counts registrations across two instances: together they accept no more than one would', async () => {
    const second = await secondInstance(t);
    try {
      const remoteAddress = '198.51.100.21';
      const register = (app: TestApp['app']) =>
        app.inject({ method: 'POST', url: '/api/register', remoteAddress, headers: { origin: TEST_ORIGIN }, payload: {} });
      // Every attempt counts, even one that fails validation: half on each instance.
      for (let i = 0; i < RATE_LIMITS.registrations.max; i++) {
        expect((await register(i % 2 === 0 ? t.app : second.app)).statusCode).toBe(400);
      }
      expectRetryAfter(await register(t.app));
      expectRetryAfter(await register(second.app));
    } finally {
      await second.close();
    }
  });

  it.each([
    ['messages', 'POST', '/api/messages'],
    ['submissions', 'POST', '/api/submissions'],
    ['urlMetadata', 'POST', '/api/url-metadata'],
  ] as const)('%s: 429 with Retry-After past the limit, per user', async (name, method, url) => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    const call = (as: string) => t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, cookie: as }, payload: {} });
    for (let i = 0; i < RATE_LIMITS[name].max; i++) expect((await call(cookie)).statusCode).toBe(400);
    const refused = await call(cookie);
    expectRetryAfter(refused);
    expect(refused.json().message).toMatch(/^Too many requests\. Please try again in \d+ (seconds?|minutes?)\.$/);
    // Another artist is not affected.
    expect((await call(artistCookie)).statusCode).toBe(400);
  });

  it('signing links: a token guesser gets 429 per address, another address is not affected (CONTRACT §22)', async () => {
    const guess = (remoteAddress: string) =>
      t.app.inject({ method: 'GET', url: `/api/sign/${'g'.repeat(43)}`, remoteAddress, headers: { origin: TEST_ORIGIN } });
    for (let i = 0; i < RATE_LIMITS.signingLinks.max; i++) expect((await guess('203.0.113.41')).statusCode).toBe(404);
    expectRetryAfter(await guess('203.0.113.41'));
    expect((await guess('203.0.113.42')).statusCode).toBe(404);
  });

  it('uploads: 429 with Retry-After once the upload URLs of the hour are used up', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    const call = () => t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { origin: TEST_ORIGIN, cookie } });
    for (let i = 0; i < RATE_LIMITS.uploads.max; i++) expect((await call()).statusCode).toBe(200);
    expectRetryAfter(await call());
  }, 120_000);

  it('video uploads: the uploads started are counted per user, whatever the address, 429 with Retry-After past the limit', async () => {
    const user = await createArtist(t.db);
    const cookie = await t.signIn(user);
    // Without Upload-Length a start is refused (400), and still counts: every attempt that reaches the route does.
    const start = (as: string, n: number) =>
      t.app.inject({
        method: 'POST',
        url: RESUMABLE_UPLOADS_PATH,
        remoteAddress: `203.0.113.${n % 250}`,
        headers: { origin: TEST_ORIGIN, cookie: as, 'tus-resumable': '1.0.0' },
      });
    for (let i = 0; i < RATE_LIMITS.videoUploads.max; i++) expect((await start(cookie, i)).statusCode).toBe(400);
    expectRetryAfter(await start(cookie, 251));
    // Another artist, from an address the first one used, is not affected.
    expect((await start(artistCookie, 0)).statusCode).toBe(400);
  }, 120_000);

  it('a sent message still reaches its recipient under the limit', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { origin: TEST_ORIGIN, cookie: artistCookie },
      payload: { toUserId: admin.id, content: 'Hello' },
    });
    expect(res.statusCode).toBe(201);
  });
});

const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email, password } });
const statusCounts = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.statusCode]: (counts[r.statusCode] ?? 0) + 1 }), {});

/**
 * A burst of attempts at once, then one at a time until refused: in all, exactly `left` failures
 * are answered 401. An attempt the server was too busy to check (503, a machine under load) counts
 * nothing, so the attempts after it make up the difference; none is answered beyond it.
 */
async function expectExactlyChecked(left: number, attempt: () => Promise<{ statusCode: number; headers: Record<string, unknown> }>) {
  const results = await Promise.all(Array.from({ length: 20 }, attempt));
  const counts = statusCounts(results);
  expect(Object.keys(counts).filter((code) => !['401', '429', '503'].includes(code))).toEqual([]);
  expect(counts[401] ?? 0).toBeLessThanOrEqual(left);
  for (const refused of results.filter((r) => r.statusCode === 429)) expectRetryAfter(refused);
  let checked = counts[401] ?? 0;
  for (let i = 0; i <= left; i++) {
    const res = await attempt();
    if (res.statusCode === 429) break;
    expect(res.statusCode).toBe(401);
    checked++;
  }
  expect(checked).toBe(left);
}

describe('failed sign-ins counted in one statement (issue 22 finding 4)', () => {
  it('20 wrong passwords at once for one email from one address: exactly the limit is checked, the rest are 429', async () => {
    const victim = await createArtist(t.db);
    const attempt = () => login(victim.email!, 'wrong-pass', '198.51.100.60');
    await expectExactlyChecked(LOGIN_THROTTLE.maxFailuresPerEmailAndAddress, attempt);
  }, 120_000);

  it('the per-address limit holds under a burst too: with two failures left, twenty at once let two through', async () => {
    const remoteAddress = '198.51.100.61';
    const someone = () => login(`burst-${Math.random().toString(36).slice(2)}@example.com`, 'wrong-pass', remoteAddress);
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerIp - 2; i++) expect((await someone()).statusCode).toBe(401);
    await expectExactlyChecked(2, someone);
  }, 120_000);
});

describe('the other limits count before they judge (checked for issue 22 finding 4)', () => {
  it('20 reset requests at once for one email, from 20 addresses: exactly the per-email limit is accepted', async () => {
    const email = `burst-reset-${Math.random().toString(36).slice(2)}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/password-reset', remoteAddress: `198.51.100.${100 + i}`, headers: { origin: TEST_ORIGIN }, payload: { email } }),
      ),
    );
    const max = RATE_LIMITS.passwordResetsPerEmail.max;
    expect(statusCounts(results)).toEqual({ 202: max, 429: 20 - max });
  });
});

describe('a lockout that stops the guesser, not the owner (issue 22 finding 5, issue 32 finding 2)', () => {
  it('a guesser at one address is refused there, even with the right password; the owner elsewhere signs in', async () => {
    const victim = await createArtist(t.db);
    const guesser = '203.0.113.70';
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerEmailAndAddress; i++) expect((await login(victim.email!, 'wrong-pass', guesser)).statusCode).toBe(401);
    expectRetryAfter(await login(victim.email!, 'wrong-pass', guesser));
    expectRetryAfter(await login(victim.email!, TEST_PASSWORD, guesser));
    expect((await login(victim.email!, TEST_PASSWORD, '203.0.113.71')).statusCode).toBe(200);
  }, 120_000);

  it('issue 32 finding 2: 60 guesses from 60 addresses meet a 429 from every address after the email’s 20; the owner’s browser still signs in', async () => {
    const victim = await createArtist(t.db);
    // The owner signed in on this browser before: it holds the account's device cookie.
    const first = await login(victim.email!, TEST_PASSWORD, '203.0.114.250');
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((c) => c.name.startsWith('device_'))!;
    expect(device).toMatchObject({ httpOnly: true, path: '/api/login' });
    const deviceCookie = `${device.name}=${device.value}`;

    const ceiling = RATE_LIMITS.loginFailuresPerEmail.max;
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push((await login(victim.email!, 'wrong-pass', `203.0.114.${i}`)).statusCode);
    expect(answers.slice(0, ceiling)).toEqual(Array<number>(ceiling).fill(401));
    expect(answers.slice(ceiling)).toEqual(Array<number>(60 - ceiling).fill(429));
    // The right password from a fresh address without the cookie: refused too, with Retry-After.
    expectRetryAfter(await login(victim.email!, TEST_PASSWORD, '203.0.114.201'));
    // A device cookie of another account, or a forged one, is no exemption.
    const other = await createArtist(t.db);
    const otherDevice = (await login(other.email!, TEST_PASSWORD, '203.0.114.202')).cookies.find((c) => c.name.startsWith('device_'))!;
    const withCookie = (password: string, cookie: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers: { cookie }, payload: { email: victim.email, password } });
    expectRetryAfter(await withCookie(TEST_PASSWORD, `${device.name}=${otherDevice.value}`, '203.0.114.203'));
    expectRetryAfter(await withCookie(TEST_PASSWORD, `${device.name}=forged`, '203.0.114.203'));
    // The owner's browser, from wherever it is now, is limited only by its own failures.
    const owner = await withCookie(TEST_PASSWORD, deviceCookie, '198.18.0.1');
    expect(owner.statusCode).toBe(200);
    expect(owner.json().id).toBe(victim.id);
    const renewed = owner.cookies.find((c) => c.name === device.name)!;
    const ownCookie = `${renewed.name}=${renewed.value}`;
    for (let i = 0; i < LOGIN_THROTTLE.maxFailuresPerDevice; i++) expect((await withCookie('wrong-pass', ownCookie, '198.18.0.1')).statusCode).toBe(401);
    expectRetryAfter(await withCookie(TEST_PASSWORD, ownCookie, '198.18.0.1'));
    // Its failures were its own: the browser signed in before that (the first cookie) still gets in.
    expect((await withCookie(TEST_PASSWORD, deviceCookie, '198.18.0.2')).statusCode).toBe(200);
  }, 180_000);

  it('issue 32 finding 2: IPv6 addresses count per /64, so fresh addresses of one network are one address', async () => {
    const victim = await createArtist(t.db);
    for (let i = 1; i <= LOGIN_THROTTLE.maxFailuresPerEmailAndAddress; i++) {
      expect((await login(victim.email!, 'wrong-pass', `2001:db8:aa:bb::${i.toString(16)}`)).statusCode).toBe(401);
    }
    expectRetryAfter(await login(victim.email!, 'wrong-pass', '2001:db8:aa:bb:ffff:1:2:3'));
    expectRetryAfter(await login(victim.email!, TEST_PASSWORD, '2001:0db8:00aa:00bb:0:0:0:9'));
    // Another /64 is another address.
    expect((await login(victim.email!, TEST_PASSWORD, '2001:db8:aa:bc::1')).statusCode).toBe(200);
  }, 120_000);
});
