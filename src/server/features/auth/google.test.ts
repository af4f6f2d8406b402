import { eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../platform/db/schema';
import { cookieFrom, createArtist, createTestApp, type TestApp } from '../../test/helpers';

/**
 * Google sign-in against a local OpenID provider: the same discovery, authorization-code, PKCE,
 * state and nonce checks the product runs against accounts.google.com.
 */
let provider: OAuth2Server;
let t: TestApp;
let claims: Record<string, unknown> = {};

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  provider.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, claims);
  });
  t = await createTestApp({
    GOOGLE_CLIENT_ID: 'hub-client',
    GOOGLE_CLIENT_SECRET: 'hub-secret',
    GOOGLE_ISSUER: provider.issuer.url!,
  });
});
afterAll(async () => {
  await t.close();
  await provider.stop();
});
afterEach(() => {
  claims = {};
});

/** Runs the browser's part of the round trip; returns the callback's response. */
async function signInWithGoogle(options: { tamperState?: boolean; dropFlowCookie?: boolean } = {}) {
  const start = await t.app.inject({ url: '/api/auth/google' });
  expect(start.statusCode).toBe(302);
  const authorizeUrl = new URL(start.headers.location as string);
  const flowCookie = start.cookies.find((c) => c.name === 'google_flow')!;
  expect(flowCookie.httpOnly).toBe(true);

  const authorize = await fetch(authorizeUrl, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location')!);
  if (options.tamperState) callback.searchParams.set('state', 'not-the-state');
  return t.app.inject({
    url: `${callback.pathname}${callback.search}`,
    headers: options.dropFlowCookie ? {} : { cookie: `google_flow=${flowCookie.value}` },
  });
}

describe('Google sign-in', () => {
  it('sends the browser to the provider with state, nonce and PKCE', async () => {
    const res = await t.app.inject({ url: '/api/auth/google' });
    const url = new URL(res.headers.location as string);
    expect(url.origin).toBe(new URL(provider.issuer.url!).origin);
    expect(url.searchParams.get('client_id')).toBe('hub-client');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:5000/api/auth/google/callback');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
  });

  it('creates an account for a new Google user and signs them in', async () => {
    claims = { sub: 'google-new-1', email: 'New.Person@Example.com', email_verified: true, given_name: 'New', family_name: 'Person' };
    const res = await signInWithGoogle();
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/dashboard');
    const me = await t.app.inject({ url: '/api/user', headers: { cookie: cookieFrom(res) } });
    expect(me.json()).toMatchObject({ email: 'new.person@example.com', authProvider: 'google', firstName: 'New', lastName: 'Person' });
  });

  it('signs in the same user again by Google id', async () => {
    claims = { sub: 'google-again', email: 'again@example.com', email_verified: true };
    const first = await signInWithGoogle();
    const second = await signInWithGoogle();
    const a = await t.app.inject({ url: '/api/user', headers: { cookie: cookieFrom(first) } });
    const b = await t.app.inject({ url: '/api/user', headers: { cookie: cookieFrom(second) } });
    expect(a.json().id).toBe(b.json().id);
  });

  it('links an existing local account with the same verified email', async () => {
    const local = await createArtist(t.db);
    claims = { sub: 'google-link-1', email: local.email!.toUpperCase(), email_verified: true };
    const res = await signInWithGoogle();
    const me = await t.app.inject({ url: '/api/user', headers: { cookie: cookieFrom(res) } });
    expect(me.json().id).toBe(local.id);
    const [row] = await t.db.select().from(users).where(eq(users.id, local.id));
    expect(row!.googleId).toBe('google-link-1');
  });

  it('does not link an account on an unverified email', async () => {
    const local = await createArtist(t.db);
    claims = { sub: 'google-unverified', email: local.email, email_verified: false };
    const res = await signInWithGoogle();
    expect(res.headers.location).toBe('/auth?error=unverified_email');
    const [row] = await t.db.select().from(users).where(eq(users.id, local.id));
    expect(row!.googleId).toBeNull();
  });

  it('refuses a callback whose state does not match, or without the flow cookie', async () => {
    claims = { sub: 'google-state', email: 'state@example.com', email_verified: true };
    const tampered = await signInWithGoogle({ tamperState: true });
    expect(tampered.headers.location).toBe('/auth?error=failed');
    expect(tampered.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    const noCookie = await signInWithGoogle({ dropFlowCookie: true });
    expect(noCookie.headers.location).toBe('/auth?error=failed');
  });
});

describe('Google sign-in not configured', () => {
  it('sends the browser back to /auth with the explanation code', async () => {
    const plain = await createTestApp();
    try {
      for (const url of ['/api/auth/google', '/api/auth/google/callback?code=x&state=y']) {
        const res = await plain.app.inject({ url });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe('/auth?error=not_configured');
      }
    } finally {
      await plain.close();
    }
  });
});
