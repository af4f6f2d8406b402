import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { ChannelStatus } from '@shared/production';
import type { Db } from '../../platform/db/client';
import { youtubeChannels } from '../../platform/db/schema';
import { apiError } from '../../platform/errors';
import { discoverOpenId, offlineAccessParameters, revokeToken } from '../../platform/openid';
import { openToken, sealToken, TokenBoxError } from '../../platform/token-box';
import { readMyChannel, YouTubeApiError, type ApiUrls } from './youtube-api';

/** What the label's channel is connected for (CONTRACT §16). */
export const CHANNEL_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/yt-analytics.readonly',
];

/** What must survive the round trip to the provider; kept in a short-lived signed cookie. */
export interface ChannelFlow {
  state: string;
  verifier: string;
}


/** An access token is refreshed this long before it expires, so a request never carries a dying one. */
const EXPIRY_MARGIN_MS = 60_000;

interface ChannelOptions {
  db: Db;
  client: { clientId: string; clientSecret: string; issuer: string } | undefined;
  redirectUri: string;
  urls: ApiUrls;
  tokenKey: Buffer;
  log?: FastifyBaseLogger;
}

/**
 * A token sealed with another key (a restore onto another SESSION_SECRET or TOKEN_ENCRYPTION_KEY:
 * a backup holds no key, CONTRACT §23) opens nothing: the channel is as good as not connected,
 * and the team is told to connect it again rather than meeting a server error.
 */
function openSealed(key: Buffer, sealed: string): string {
  try {
    return openToken(key, sealed);
  } catch (error) {
    if (error instanceof TokenBoxError) throw apiError('channel_not_connected', "The channel's connection does not open with this server's key: connect it again");
    throw error;
  }
}

/**
 * The label's YouTube channel (CONTRACT §16): connected once by an admin through the issuer's
 * OAuth flow (discovery, state, PKCE, offline access), its refresh token sealed at rest, its
 * access token refreshed when it expires, and every API call made with a live token.
 */
export class LabelChannel {
  private discovered: Promise<oidc.Configuration> | undefined;
  /** One refresh at a time on this instance: two callers at once share it. */
  private refreshing: Promise<string> | undefined;
  /** The background read of the channel's figures under way: one at a time, however many pages ask. */
  private readingFigures: Promise<void> | undefined;

  constructor(private readonly options: ChannelOptions) {}

  get urls(): ApiUrls {
    return this.options.urls;
  }

  get configured(): boolean {
    return this.options.client !== undefined;
  }

  private configuration(): Promise<oidc.Configuration> {
    const client = this.options.client;
    if (!client) throw apiError('conflict', 'No OAuth client is configured for the channel (YOUTUBE_OAUTH_CLIENT_ID or GOOGLE_CLIENT_ID)');
    this.discovered ??= discoverOpenId(client)
      .catch((error: unknown) => {
        this.discovered = undefined;
        throw error;
      });
    return this.discovered;
  }

  async start(): Promise<{ url: URL; flow: ChannelFlow }> {
    const config = await this.configuration();
    const flow: ChannelFlow = { state: oidc.randomState(), verifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      // A refresh token the standard way where discovery lists offline_access, else Google's (CONTRACT §23).
      ...offlineAccessParameters(config, CHANNEL_SCOPES),
    });
    return { url, flow };
  }

  /** Exchanges the code, reads the channel the tokens belong to, and keeps it (sealed). */
  async finish(callbackUrl: URL, flow: ChannelFlow, adminId: string, now: Date): Promise<void> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    if (!tokens.refresh_token) throw new Error('The provider gave no refresh token (offline access was not granted)');
    const channel = await readMyChannel(this.urls, tokens.access_token);
    const key = this.options.tokenKey;
    const values = {
      channelId: channel.channelId,
      title: channel.title,
      subscriberCount: channel.subscriberCount,
      refreshToken: sealToken(key, tokens.refresh_token),
      accessToken: sealToken(key, tokens.access_token),
      accessTokenExpiresAt: expiryOf(tokens, now),
      connectedBy: adminId,
      connectedAt: now,
      updatedAt: now,
    };
    await this.options.db.insert(youtubeChannels).values({ id: 'label', ...values }).onConflictDoUpdate({ target: youtubeChannels.id, set: values });
  }

  /**
   * Forgets the channel, and revokes its grant at the provider's `revocation_endpoint` (CONTRACT
   * §23): revoking the refresh token ends the whole grant (RFC 7009). The channel is forgotten
   * even when the provider cannot be reached; what happened is returned for the log.
   */
  async disconnect(): Promise<{ revoked: boolean; error?: Error }> {
    const [row] = await this.options.db.delete(youtubeChannels).where(eq(youtubeChannels.id, 'label')).returning();
    if (!row || !this.options.client) return { revoked: false };
    try {
      const refreshToken = openToken(this.options.tokenKey, row.refreshToken);
      return { revoked: await revokeToken(await this.configuration(), refreshToken, 'refresh_token') };
    } catch (error) {
      return { revoked: false, error: error as Error };
    }
  }

  /**
   * The connected channel: its row, while its refresh token opens with this server's key. One
   * sealed with another key (restored onto another SESSION_SECRET or TOKEN_ENCRYPTION_KEY,
   * CONTRACT §23) reads as not connected until it is connected again, which replaces it.
   */
  private async row() {
    const [row] = await this.options.db.select().from(youtubeChannels).where(eq(youtubeChannels.id, 'label'));
    if (!row) return undefined;
    try {
      openToken(this.options.tokenKey, row.refreshToken);
      return row;
    } catch (error) {
      if (error instanceof TokenBoxError) return undefined;
      throw error;
    }
  }

  async isConnected(): Promise<boolean> {
    return (await this.row()) !== undefined;
  }

  /**
   * GET /api/admin/channel answers from what is known and never waits on YouTube (CONTRACT §23):
   * the title and subscriber figure last read, while a fresh read runs in the background (one at a
   * time) for the next answer.
   */
  async status(): Promise<ChannelStatus> {
    const row = await this.row();
    if (!row) {
      return { connected: false, configured: this.configured, channelId: null, title: null, subscriberCount: null, connectedAt: null };
    }
    this.readFiguresLater(row.channelId);
    return {
      connected: true,
      configured: this.configured,
      channelId: row.channelId,
      title: row.title,
      subscriberCount: row.subscriberCount,
      connectedAt: row.connectedAt.toISOString(),
    };
  }

  private readFiguresLater(channelId: string): void {
    if (this.readingFigures) return;
    this.readingFigures = this.withToken((token) => readMyChannel(this.urls, token))
      .then(async ({ title, subscriberCount }) => {
        // Only for the channel still connected: one connected again meanwhile keeps its own figures.
        await this.options.db
          .update(youtubeChannels)
          .set({ title, subscriberCount })
          .where(and(eq(youtubeChannels.id, 'label'), eq(youtubeChannels.channelId, channelId)));
      })
      .catch((error: unknown) => {
        // The figures last read stand in while YouTube is out of reach.
        this.options.log?.warn({ err: error }, 'the channel could not be read from YouTube');
      })
      .finally(() => {
        this.readingFigures = undefined;
      });
  }

  /** The channel's subscriber count now, for a publication to lock (CONTRACT §13, §16). */
  async subscriberCount(): Promise<number> {
    const channel = await this.withToken((token) => readMyChannel(this.urls, token));
    if (channel.subscriberCount === null) throw new YouTubeApiError('The channel hides its subscriber count', null, false);
    await this.options.db.update(youtubeChannels).set({ subscriberCount: channel.subscriberCount }).where(eq(youtubeChannels.id, 'label'));
    return channel.subscriberCount;
  }

  /** A live access token: the stored one while it lasts, else a refreshed one. */
  async accessToken(forceRefresh = false): Promise<string> {
    const row = await this.row();
    if (!row) throw apiError('channel_not_connected');
    const key = this.options.tokenKey;
    if (!forceRefresh && row.accessToken && row.accessTokenExpiresAt && row.accessTokenExpiresAt.getTime() - EXPIRY_MARGIN_MS > Date.now()) {
      return openSealed(key, row.accessToken);
    }
    this.refreshing ??= this.refresh(openSealed(key, row.refreshToken)).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refresh(refreshToken: string): Promise<string> {
    const config = await this.configuration();
    let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
    try {
      tokens = await oidc.refreshTokenGrant(config, refreshToken);
    } catch (error) {
      // A refused refresh token (revoked access) needs the channel connected again; say so, without the token.
      const refused = error instanceof oidc.ResponseBodyError;
      throw new YouTubeApiError(
        refused ? "The channel's access was refused: connect the channel again" : `The token could not be refreshed (${(error as Error).message})`,
        refused ? 401 : null,
        !refused,
        null,
        // YouTube's own reason for a sign-in that does not open: the desk advises connecting again.
        refused ? 'authError' : null,
      );
    }
    const key = this.options.tokenKey;
    await this.options.db
      .update(youtubeChannels)
      .set({
        accessToken: sealToken(key, tokens.access_token),
        accessTokenExpiresAt: expiryOf(tokens, new Date()),
        // Google keeps the refresh token; a provider that rotates it gives a new one.
        ...(tokens.refresh_token ? { refreshToken: sealToken(key, tokens.refresh_token) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(youtubeChannels.id, 'label'));
    return tokens.access_token;
  }

  /** Runs `call` with a live token; a 401 (a token revoked or expired early) refreshes once and tries again. */
  async withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(await this.accessToken());
    } catch (error) {
      if (error instanceof YouTubeApiError && error.status === 401) return call(await this.accessToken(true));
      throw error;
    }
  }
}

function expiryOf(tokens: oidc.TokenEndpointResponseHelpers, now: Date): Date {
  const seconds = tokens.expiresIn() ?? 3600;
  return new Date(now.getTime() + seconds * 1000);
}
