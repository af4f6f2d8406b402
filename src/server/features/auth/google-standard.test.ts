import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_ERRORS } from '@shared/auth-texts';
import { users } from '../../platform/db/schema';
import { startStandardOidcProvider, type StandardOidcProvider } from '../../test/standard-oidc-provider';
import { cookieFrom, createArtist, createTestApp, type TestApp } from '../../test/helpers';

/**
 * CONTRACT §23 "Any standard OpenID provider": sign-in against oidc-provider with its defaults,
 * which puts email and names only at the userinfo endpoint, lists no `select_account` and
 * authenticates the client with `client_secret_basic`.
 */
let op: StandardOidcProvider;
let t: TestApp;

beforeAll(async () => {
  op = await startStandardOidcProvider([
    { client_id: 'hub-client', client_secret: 'hub-secret-that-is-long-enough', redirect_uris: ['http://localhost:5000/api/auth/google/callback'] },
  ]);
  t = await createTestApp({ GOOGLE_CLIENT_ID: 'hub-client', GOOGLE_CLIENT_SECRET: 'hub-secret-that-is-long-enough', GOOGLE_ISSUER: op.issuer });
});
afterAll(async () => {
  await t?.close();
  await op?.stop();
});

async function signIn(accountId: string) {
  const start = await t.app.inject({ url: '/api/auth/google' });
  expect(start.statusCode).toBe(302);
  const flowCookie = start.cookies.find((c) => c.name === 'google_flow')!;
  const callback = await op.authorize(start.headers.location as string, accountId);
  return t.app.inject({ url: `${callback.pathname}${callback.search}`, headers: { cookie: `google_flow=${flowCookie.value}` } });
}

describe('sign-in with a standard OpenID provider', () => {
  it('names the provider by its issuer’s host on the sign-in button, not "Google" (issue 43 item 11)', async () => {
    const config = (await t.app.inject({ url: '/api/config' })).json();
    expect(config).toMatchObject({ googleEnabled: true, signInProvider: new URL(op.issuer).hostname });
    expect(config.signInProvider).not.toBe('Google');
  });

  it('sends no prompt value the provider does not list (oidc-provider refuses select_account)', async () => {
    const res = await t.app.inject({ url: '/api/auth/google' });
    const url = new URL(res.headers.location as string);
    expect(url.origin).toBe(op.issuer);
    expect(url.searchParams.has('prompt')).toBe(false);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
  });

  it('creates the account with the email and names the userinfo endpoint gives (the ID token has only sub)', async () => {
    op.accounts.set('op-user-1', { email: 'Standard.Person@Example.com', email_verified: true, given_name: 'Standard', family_name: 'Person' });
    const res = await signIn('op-user-1');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    const me = await t.app.inject({ url: '/api/user', headers: { cookie: cookieFrom(res) } });
    expect(me.json()).toMatchObject({ email: 'standard.person@example.com', authProvider: 'google', firstName: 'Standard', lastName: 'Person' });
    const [row] = await t.db.select().from(users).where(eq(users.googleId, 'op-user-1'));
    expect(row!.emailVerified).toBe(true);
  });

  it('links an existing local account by the verified email the userinfo endpoint gives', async () => {
    const local = await createArtist(t.db);
    op.accounts.set('op-link-1', { email: local.email!.toUpperCase(), email_verified: true });
    const res = await signIn('op-link-1');
    const me = await t.app.inject({ url: '/api/user', headers: { cookie: cookieFrom(res) } });
    expect(me.json().id).toBe(local.id);
  });

  it('creates no account without an email: back to /auth with the explanation', async () => {
    op.accounts.set('op-no-email', { given_name: 'Nomail' });
    const res = await signIn('op-no-email');
    expect(res.headers.location).toBe('/auth?error=no_email');
    expect(GOOGLE_ERRORS.no_email('Acme')).toMatch(/^Your Acme account did not share an email/);
    expect(res.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await t.db.select().from(users).where(eq(users.googleId, 'op-no-email'))).toEqual([]);
  });
});
