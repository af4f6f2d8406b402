import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), 'hub-config-'));

describe('loadConfig', () => {
  it('needs nothing in development: defaults, and a secret made once into DATA_DIR', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(5000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.publicOrigin).toBe('http://localhost:5000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.google).toBeUndefined();
    expect(config.stripe).toBeUndefined();
    expect(config.s3).toBeUndefined();
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim()).toBe(config.sessionSecret);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('names the sign-in provider as configured, "Google" for Google’s issuer, else by the issuer’s host (issue 43 item 11)', () => {
    const google = { DATA_DIR: dataDir(), GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs' };
    expect(loadConfig(google).signInProviderName).toBe('Google');
    expect(loadConfig({ ...google, GOOGLE_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0' }).signInProviderName).toBe('login.microsoftonline.com');
    expect(loadConfig({ ...google, GOOGLE_ISSUER: 'https://sso.label.example/realms/team', SIGN_IN_PROVIDER_NAME: ' Label SSO ' }).signInProviderName).toBe('Label SSO');
    expect(loadConfig({ DATA_DIR: dataDir(), SIGN_IN_PROVIDER_NAME: 'Label SSO' }).signInProviderName).toBeUndefined();
    expect(() => loadConfig({ ...google, SIGN_IN_PROVIDER_NAME: 'x'.repeat(41) })).toThrow(/SIGN_IN_PROVIDER_NAME/);
  });

  it('connects the channel with YOUTUBE_OAUTH_* or else GOOGLE_*, and seals its tokens with TOKEN_ENCRYPTION_KEY or a key from SESSION_SECRET', () => {
    const google = loadConfig({ DATA_DIR: dataDir(), GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs' }).production;
    expect(google.channel).toEqual({ clientId: 'g', clientSecret: 'gs', issuer: 'https://accounts.google.com' });
    const own = loadConfig({ DATA_DIR: dataDir(), GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs', YOUTUBE_OAUTH_CLIENT_ID: 'y', YOUTUBE_OAUTH_CLIENT_SECRET: 'ys' });
    expect(own.production.channel).toEqual({ clientId: 'y', clientSecret: 'ys', issuer: 'https://accounts.google.com' });
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ DATA_DIR: dataDir(), TOKEN_ENCRYPTION_KEY: hex }).production.tokenKey.toString('hex')).toBe(hex);
    const secret = 's'.repeat(40);
    const a = loadConfig({ DATA_DIR: dataDir(), SESSION_SECRET: secret }).production.tokenKey;
    expect(loadConfig({ DATA_DIR: dataDir(), SESSION_SECRET: secret }).production.tokenKey.equals(a)).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), SESSION_SECRET: 't'.repeat(40) }).production.tokenKey.equals(a)).toBe(false);
  });

  it('reads the publishing clocks (CONTRACT §23): 60 s timeout, 15 s first wait, three uploads at once; shorter for tests, refused when not a positive number', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).production.publishing).toEqual({ timeoutMs: 60_000, retryDelayMs: 15_000, uploadsAtOnce: 3 });
    const short = loadConfig({ DATA_DIR: dataDir(), YOUTUBE_TIMEOUT_S: '0.5', YOUTUBE_RETRY_DELAY_S: '0.05', YOUTUBE_UPLOADS_AT_ONCE: '5' });
    expect(short.production.publishing).toEqual({ timeoutMs: 500, retryDelayMs: 50, uploadsAtOnce: 5 });
    expect(() => loadConfig({ DATA_DIR: dataDir(), YOUTUBE_TIMEOUT_S: '0' })).toThrow(/YOUTUBE_TIMEOUT_S/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), YOUTUBE_RETRY_DELAY_S: 'soon' })).toThrow(/YOUTUBE_RETRY_DELAY_S/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), YOUTUBE_UPLOADS_AT_ONCE: '1.5' })).toThrow(/YOUTUBE_UPLOADS_AT_ONCE/);
  });

  it('reads the production settings: bonus per track, late-delivery refunds, YouTube (both or neither)', () => {
    const defaults = loadConfig({ DATA_DIR: dataDir() }).production;
    expect(defaults).toMatchObject({ lateDeliveryRefund: 'off', bonusPerTrackUsd: '0.00', youtube: undefined, channel: undefined });
    expect(defaults.youtubeAnalyticsUrl).toBe('https://youtubeanalytics.googleapis.com');
    expect(defaults.tokenKey).toHaveLength(32);
    const set = loadConfig({
      DATA_DIR: dataDir(),
      BONUS_PER_TRACK_USD: '25.5',
      LATE_DELIVERY_REFUND: 'auto',
      YOUTUBE_API_KEY: 'key',
      YOUTUBE_CHANNEL_ID: 'UC123',
    }).production;
    expect(set).toMatchObject({
      lateDeliveryRefund: 'auto',
      bonusPerTrackUsd: '25.50',
      youtube: { apiKey: 'key', channelId: 'UC123', apiUrl: 'https://www.googleapis.com' },
    });
    for (const [env, name] of [
      [{ BONUS_PER_TRACK_USD: '-5' }, 'BONUS_PER_TRACK_USD'],
      [{ BONUS_PER_TRACK_USD: '1.234' }, 'BONUS_PER_TRACK_USD'],
      [{ BONUS_PER_TRACK_USD: 'ten' }, 'BONUS_PER_TRACK_USD'],
      [{ LATE_DELIVERY_REFUND: 'yes' }, 'LATE_DELIVERY_REFUND'],
      [{ YOUTUBE_API_KEY: 'key' }, 'YOUTUBE_API_KEY'],
      [{ YOUTUBE_API_URL: 'ftp://x' }, 'YOUTUBE_API_URL'],
      [{ YOUTUBE_ANALYTICS_URL: 'ftp://x' }, 'YOUTUBE_ANALYTICS_URL'],
      [{ YOUTUBE_OAUTH_CLIENT_ID: 'id' }, 'YOUTUBE_OAUTH_CLIENT_ID'],
      [{ TOKEN_ENCRYPTION_KEY: 'short' }, 'TOKEN_ENCRYPTION_KEY'],
    ] as const) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), ...env }), name).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dataDir(), ...env }), name).toThrow(name);
    }
  });

  it('trusts no proxy unless TRUST_PROXY names hops or proxy addresses', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '10.0.0.0/8, ::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
  });

  it('derives the public origin from PUBLIC_URL', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://submit.label.example/', PORT: '8080' });
    expect(config.publicOrigin).toBe('https://submit.label.example');
    expect(config.port).toBe(8080);
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT /],
    [{ PORT: '70000' }, /^Invalid configuration: PORT /],
    [{ PUBLIC_URL: 'ftp://x' }, /^Invalid configuration: PUBLIC_URL must be an http\(s\) URL$/],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ URL$/],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long-enough' }, /^Invalid configuration: ADMIN_EMAIL /],
    [{ ADMIN_EMAIL: 'a@b.co' }, /ADMIN_EMAIL and ADMIN_PASSWORD must be set together/],
    [{ GOOGLE_CLIENT_ID: 'id' }, /GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together/],
    [{ STRIPE_SECRET_KEY: 'sk' }, /STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together/],
    [{ S3_BUCKET: 'b' }, /S3_REGION is required when S3_BUCKET is set/],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL /],
    [{ TRUST_PROXY: 'yes' }, /^Invalid configuration: TRUST_PROXY must be a number of hops or a comma list of addresses\/CIDRs \(not "yes"\)$/],
    [{ TRUST_PROXY: '10.0.0.1, 10.0.0.0/33' }, /^Invalid configuration: TRUST_PROXY .*\(not "10.0.0.0\/33"\)$/],
    [{ TRUST_PROXY: '1000' }, /^Invalid configuration: TRUST_PROXY must be at most 100 hops$/],
    [{ NODE_ENV: 'production' }, /SESSION_SECRET is required when NODE_ENV=production/],
    [{ SESSION_SECRET: 'short' }, /^Invalid configuration: SESSION_SECRET must be at least 32 characters$/],
  ])('stops on %o with one line naming the variable', (env, message) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), ...env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});
