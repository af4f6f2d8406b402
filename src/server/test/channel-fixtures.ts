import { expect } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from './oidc-provider';
import { createTestApp, type TestApp, type TestAppOptions } from './helpers';
import { startYouTubeStub, type YouTubeStub } from './youtube-stub';

export interface ChannelWorld {
  t: TestApp;
  provider: TestOidcProvider;
  stub: YouTubeStub;
  close(): Promise<void>;
}

/** The app with an OAuth client for the channel, the OpenID test provider and the YouTube stub wired together. */
export async function startChannelWorld(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<ChannelWorld> {
  const provider = await startTestOidcProvider();
  const stub = await startYouTubeStub({ subscribers: 31_000 });
  stub.verifyBearer = (token) => provider.verify(token);
  const t = await createTestApp(
    {
      YOUTUBE_OAUTH_CLIENT_ID: 'label-channel-client',
      YOUTUBE_OAUTH_CLIENT_SECRET: 'label-channel-secret',
      GOOGLE_ISSUER: provider.issuer,
      YOUTUBE_API_URL: stub.url,
      YOUTUBE_ANALYTICS_URL: stub.url,
      ...env,
    },
    options,
  );
  return {
    t,
    provider,
    stub,
    close: async () => {
      await t.close();
      await stub.close();
      await provider.stop();
    },
  };
}

/** The admin's browser through the whole round trip: connect → the provider → the callback. The callback's response. */
export async function connectChannel(t: TestApp, adminCookie: string) {
  const start = await t.app.inject({ url: '/api/admin/channel/connect', headers: { cookie: adminCookie } });
  expect(start.statusCode).toBe(302);
  const flow = start.cookies.find((c) => c.name === 'channel_flow');
  expect(flow?.httpOnly).toBe(true);
  const authorize = await fetch(start.headers.location as string, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location')!);
  return t.app.inject({
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: `${adminCookie}; channel_flow=${flow!.value}` },
  });
}
