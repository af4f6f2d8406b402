import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { youtubeChannels } from '../../platform/db/schema';
import { openToken } from '../../platform/token-box';
import { createAdmin, createTestApp, type TestApp } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { startStandardOidcProvider, type StandardOidcProvider } from '../../test/standard-oidc-provider';
import { startYouTubeStub, type YouTubeStub } from '../../test/youtube-stub';
import { CHANNEL_SCOPES } from './channel';

/**
 * CONTRACT §23 "Any standard OpenID provider": the channel connected through oidc-provider with
 * its defaults: a refresh token only for the `offline_access` scope, `client_secret_basic` at
 * the token endpoint, and a `revocation_endpoint` that disconnecting uses.
 */
let op: StandardOidcProvider;
let stub: YouTubeStub;
let t: TestApp;
let adminCookie: string;

beforeAll(async () => {
  op = await startStandardOidcProvider([
    { client_id: 'label-channel-client', client_secret: 'label-channel-secret-long-enough', redirect_uris: ['http://localhost:5000/api/admin/channel/callback'] },
  ]);
  op.accounts.set('label-owner', { email: 'owner@label.example', email_verified: true });
  stub = await startYouTubeStub({ subscribers: 41_000 });
  stub.verifyBearer = (token) => op.verify(token);
  t = await createTestApp({
    YOUTUBE_OAUTH_CLIENT_ID: 'label-channel-client',
    YOUTUBE_OAUTH_CLIENT_SECRET: 'label-channel-secret-long-enough',
    GOOGLE_ISSUER: op.issuer,
    YOUTUBE_API_URL: stub.url,
    YOUTUBE_ANALYTICS_URL: stub.url,
  });
  adminCookie = await t.signIn(await createAdmin(t.db));
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
  await op?.stop();
});

async function storedRefreshToken(): Promise<string> {
  const [row] = await t.db.select().from(youtubeChannels);
  return openToken(t.config.production.tokenKey, row!.refreshToken);
}

describe('the channel with a standard OpenID provider', () => {
  it("asks for offline access the standard way: openid and offline_access with consent, not Google's access_type", async () => {
    const res = await t.call('GET', '/api/admin/channel/connect', adminCookie);
    const url = new URL(res.headers.location as string);
    expect(url.origin).toBe(op.issuer);
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(['openid', 'offline_access', ...CHANNEL_SCOPES]);
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.has('access_type')).toBe(false);
  });

  it('connects: the code is exchanged with client_secret_basic, the refresh token kept, the channel read', async () => {
    const start = await t.call('GET', '/api/admin/channel/connect', adminCookie);
    const flow = start.cookies.find((c) => c.name === 'channel_flow')!;
    const callback = await op.authorize(start.headers.location as string, 'label-owner');
    const res = await t.app.inject({ url: `${callback.pathname}${callback.search}`, headers: { cookie: `${adminCookie}; channel_flow=${flow.value}` } });
    expect(res.headers.location).toBe('/admin/channel');
    expect((await t.call('GET', '/api/admin/channel', adminCookie)).json()).toMatchObject({ connected: true, channelId: stub.channelId, subscriberCount: 41_000 });
    expect(await op.refreshTokenAlive(await storedRefreshToken())).toBe(true);
  });

  it('refreshes an expired access token at the provider', async () => {
    await t.db.update(youtubeChannels).set({ accessTokenExpiresAt: new Date(Date.now() - 1000) });
    stub.subscribers = 42_000;
    // The channel page answers from what it knows and reads the channel in the background
    // (CONTRACT §23): a later answer has the figure read with the refreshed token. (A read the test
    // before started may still be on its way: the figure and the refresh are awaited together.)
    const refreshed = async () => ((await t.db.select().from(youtubeChannels))[0]!.accessTokenExpiresAt?.getTime() ?? 0) > Date.now();
    const figure = await waitFor(
      async () => {
        const read: number = (await t.call('GET', '/api/admin/channel', adminCookie)).json().subscriberCount;
        return read === 42_000 && (await refreshed()) && read;
      },
      { what: 'the figure read with the refreshed token' },
    );
    expect(figure).toBe(42_000);
    expect(await refreshed()).toBe(true);
    expect(await op.refreshTokenAlive(await storedRefreshToken())).toBe(true);
  });

  it("disconnecting revokes the grant at the provider's revocation_endpoint", async () => {
    const refreshToken = await storedRefreshToken();
    const res = await t.call('DELETE', '/api/admin/channel', adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ connected: false });
    expect(await op.refreshTokenAlive(refreshToken)).toBe(false);
  });
});
