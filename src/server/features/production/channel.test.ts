import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { youtubeChannels } from '../../platform/db/schema';
import { openToken } from '../../platform/token-box';
import { connectChannel, startChannelWorld, type ChannelWorld } from '../../test/channel-fixtures';
import { createAdmin, createArtist, createSubmissionRow } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { clearRights } from '../../test/rights-fixtures';
import { CHANNEL_SCOPES } from './channel';

/** CONTRACT §16, connecting the label's channel: against the OpenID test provider and the YouTube stub. */
let w: ChannelWorld;
let adminCookie: string;
let artistCookie: string;
const logLines: string[] = [];

beforeAll(async () => {
  const { Writable } = await import('node:stream');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  w = await startChannelWorld({ LOG_LEVEL: 'trace', YOUTUBE_API_KEY: 'a-wrong-key', YOUTUBE_CHANNEL_ID: 'UCsomeotherchannel' }, { logger: { level: 'trace', stream: sink } });
  adminCookie = await w.t.signIn(await createAdmin(w.t.db));
  artistCookie = await w.t.signIn(await createArtist(w.t.db));
});
afterAll(() => w?.close());

describe('connecting the channel', () => {
  it('sends the admin to the issuer with state, PKCE, offline access, consent and the three scopes', async () => {
    const res = await w.t.call('GET', '/api/admin/channel/connect', adminCookie);
    expect(res.statusCode).toBe(302);
    const url = new URL(res.headers.location as string);
    expect(url.origin).toBe(new URL(w.provider.issuer).origin);
    expect(url.searchParams.get('client_id')).toBe('label-channel-client');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:5000/api/admin/channel/callback');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(CHANNEL_SCOPES);
  });

  it('is not connected at first; the round trip connects it, keeps the refresh token sealed and shows the channel', async () => {
    expect((await w.t.call('GET', '/api/admin/channel', adminCookie)).json()).toMatchObject({ connected: false, configured: true });
    const callback = await connectChannel(w.t, adminCookie);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/admin/channel');
    const status = await w.t.call('GET', '/api/admin/channel', adminCookie);
    expect(status.json()).toMatchObject({ connected: true, channelId: w.stub.channelId, title: 'Label Channel', subscriberCount: 31_000 });
    expect(status.json().connectedAt).toBeTruthy();

    const [row] = await w.t.db.select().from(youtubeChannels);
    expect(row!.refreshToken.startsWith('v1.')).toBe(true);
    const refreshToken = openToken(w.t.config.production.tokenKey, row!.refreshToken);
    expect(refreshToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(status.body).not.toContain(refreshToken);
    expect(logLines.join('\n')).not.toContain(refreshToken);
    expect(logLines.join('\n')).not.toContain(openToken(w.t.config.production.tokenKey, row!.accessToken!));
  });

  it('refreshes an access token that expired, or that YouTube refuses, with the refresh token', async () => {
    const before = w.provider.refreshes.granted;
    w.stub.subscribers = 32_000;
    // Refused by YouTube before its time (401): refreshed once and asked again. The channel page
    // answers from what it knows and reads the channel in the background (CONTRACT §23): a later
    // answer has the new figure.
    // (A read started by the test before may still be on its way: the figure and the refresh are awaited together.)
    w.provider.expireAccessTokens();
    const figure = await waitFor(
      async () => {
        const read: number = (await w.t.call('GET', '/api/admin/channel', adminCookie)).json().subscriberCount;
        return read === 32_000 && w.provider.refreshes.granted !== before && read;
      },
      { what: 'the new figure, read with a refreshed token' },
    );
    expect(figure).toBe(32_000);
    expect(w.provider.refreshes.granted).toBe(before + 1);
    const afterFirst = w.provider.refreshes.granted;
    // Past its expiry as recorded: refreshed before the call (here, the count a publication locks).
    await w.t.db.update(youtubeChannels).set({ accessTokenExpiresAt: new Date(Date.now() - 1000) });
    w.provider.expireAccessTokens();
    w.stub.subscribers = 33_000;
    const submission = await createSubmissionRow(w.t.db, await createArtist(w.t.db), { status: 'approved' });
    await clearRights(w.t.db, submission.id);
    const recorded = await w.t.call('PUT', `/api/admin/submissions/${submission.id}/publication`, adminCookie, {
      videoUrl: 'https://www.youtube.com/watch?v=refresh3300',
      publishedAt: new Date().toISOString(),
    });
    expect(recorded.json().publication).toMatchObject({ subscriberCount: 33_000, subscriberSource: 'youtube' });
    expect(w.provider.refreshes.granted).toBe(afterFirst + 1);
    const [row] = await w.t.db.select().from(youtubeChannels);
    expect(row!.accessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it('takes precedence over YOUTUBE_API_KEY for the subscriber count locked at publishing', async () => {
    const artist = await createArtist(w.t.db);
    const submission = await createSubmissionRow(w.t.db, artist, { status: 'approved' });
    await clearRights(w.t.db, submission.id);
    w.stub.subscribers = 40_000;
    const res = await w.t.call('PUT', `/api/admin/submissions/${submission.id}/publication`, adminCookie, {
      videoUrl: 'https://www.youtube.com/watch?v=abcDEF_1234',
      publishedAt: new Date().toISOString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().publication).toMatchObject({ subscriberCount: 40_000, subscriberSource: 'youtube' });
  });

  it('a tampered state or a missing flow cookie connects nothing', async () => {
    const start = await w.t.app.inject({ url: '/api/admin/channel/connect', headers: { cookie: adminCookie } });
    const authorize = await fetch(start.headers.location as string, { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location')!);
    const noCookie = await w.t.app.inject({ url: `${callback.pathname}${callback.search}`, headers: { cookie: adminCookie } });
    expect(noCookie.headers.location).toBe('/admin/channel?error=failed');
    callback.searchParams.set('state', 'forged');
    const flow = start.cookies.find((c) => c.name === 'channel_flow')!;
    const forged = await w.t.app.inject({ url: `${callback.pathname}${callback.search}`, headers: { cookie: `${adminCookie}; channel_flow=${flow.value}` } });
    expect(forged.headers.location).toBe('/admin/channel?error=failed');
  });

  it('is for admins only: signed out 401, an artist 403, on percent-encoded paths too', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/channel'],
      ['GET', '/api/admin/channel/connect'],
      ['GET', '/api/admin/channel/callback?code=x&state=y'],
      ['DELETE', '/api/admin/channel'],
      ['GET', '/api/admin/%63hannel'],
      ['DELETE', '/api/%61dmin/channel'],
    ] as const) {
      expect((await w.t.call(method, url, null)).statusCode, `${method} ${url}`).toBe(401);
      expect((await w.t.call(method, url, artistCookie)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await w.t.db.select().from(youtubeChannels)).length).toBe(1);
  });

  it('disconnects: the tokens are gone', async () => {
    const res = await w.t.call('DELETE', '/api/admin/channel', adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ connected: false });
    expect(await w.t.db.select().from(youtubeChannels).where(eq(youtubeChannels.id, 'label'))).toEqual([]);
  });
});
