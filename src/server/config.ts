import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { PRODUCT_NAME } from '@shared/brand';
import type { ScreenThresholds } from '@shared/production';
import { DEFAULT_DECISION_DAYS, defaultLateDecisionMessage } from '@shared/decisions';
import { PRICING_TIERS, type PricingTier } from '@shared/submissions';
import type { DecisionSettings } from '@shared/decisions';
import { TAX_REPORTING_THRESHOLD_DEFAULT_USD } from '@shared/payees';

/**
 * The environment, parsed once (CONTRACT §1). Nothing else in the server reads process.env:
 * everything takes a Config, so tests build apps with their own.
 */
const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const booleanString = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const DEFAULT_DATA_DIR = './data';

/** A percentage from 0 to 100, fractions allowed (the viral screen's thresholds). */
const percentSetting = (fallback: number) =>
  z.coerce.number({ message: 'must be a percentage from 0 to 100' }).min(0, 'must be a percentage from 0 to 100').max(100, 'must be a percentage from 0 to 100').default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional()),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  DATABASE_URL: optionalString.pipe(
    z.url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// URL' }).optional(),
  ),
  SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ADMIN_EMAIL: optionalString.pipe(z.email({ message: 'must be an email address' }).optional()),
  ADMIN_PASSWORD: optionalString.pipe(z.string().min(6, 'must be at least 6 characters').optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: z.url({ message: 'must be a URL' }).default('https://accounts.google.com'),
  /** The sign-in provider's name on the sign-in button and its errors ("Microsoft", "Acme SSO"). */
  SIGN_IN_PROVIDER_NAME: optionalString.pipe(z.string().max(40, 'must be at most 40 characters').optional()),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalString.pipe(z.url({ message: 'must be a URL' }).optional()),
  S3_BUCKET: optionalString,
  S3_REGION: optionalString,
  S3_ENDPOINT: optionalString.pipe(z.url({ message: 'must be a URL' }).optional()),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanString,
  TRUST_PROXY: optionalString,
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' }).optional()),
  MAIL_FROM: optionalString.pipe(z.string().max(320, 'must be at most 320 characters').optional()),
  MESSAGE_EMAIL_DELAY_S: z.coerce.number().int().min(0).max(7 * 24 * 3600).default(300),
  LATE_DELIVERY_REFUND: z.enum(['off', 'auto'], { message: 'must be off or auto' }).default('off'),
  /** CONTRACT §26: the plans' decision days, e.g. professional=3,premium=5,basic=7,free=30 (fractions allowed). */
  DECISION_DAYS: z.string().trim().default(''),
  LATE_DECISION: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
  LATE_DECISION_MESSAGE: optionalString.pipe(z.string().max(2000, 'must be at most 2000 characters').optional()),
  AUTO_ASSIGN: z.enum(['on', 'off'], { message: 'must be on or off' }).default('off'),
  BONUS_PER_TRACK_USD: z
    .string()
    .trim()
    .regex(/^\d{1,7}(\.\d{1,2})?$/, 'must be an amount in US dollars, e.g. 25 or 25.50')
    .default('0'),
  YOUTUBE_API_KEY: optionalString,
  YOUTUBE_CHANNEL_ID: optionalString,
  YOUTUBE_API_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('https://www.googleapis.com'),
  YOUTUBE_ANALYTICS_URL: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .default('https://youtubeanalytics.googleapis.com'),
  YOUTUBE_OAUTH_CLIENT_ID: optionalString,
  YOUTUBE_OAUTH_CLIENT_SECRET: optionalString,
  YOUTUBE_TIMEOUT_S: z.coerce.number({ message: 'must be a number of seconds' }).positive('must be more than 0').max(600, 'must be at most 600').default(60),
  YOUTUBE_RETRY_DELAY_S: z.coerce.number({ message: 'must be a number of seconds' }).positive('must be more than 0').max(3600, 'must be at most 3600').default(15),
  YOUTUBE_UPLOADS_AT_ONCE: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(20, 'must be at most 20').default(3),
  // Views that are real (CONTRACT §25, decision 195): the screen's three thresholds, in percent.
  VIRAL_SCREEN_EXTERNAL_PERCENT: percentSetting(50),
  VIRAL_SCREEN_MIN_VIEW_PERCENT: percentSetting(15),
  VIRAL_SCREEN_ONE_DAY_PERCENT: percentSetting(60),
  TOKEN_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'must be 32 bytes, as 64 hex digits or base64')
      .optional(),
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BACKUP_DIR: optionalString,
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  BACKUP_CRON: z
    .string()
    .trim()
    .regex(/^\S+( \S+){4}$/, 'must be a cron schedule of five fields, e.g. 0 3 * * *')
    .default('0 3 * * *'),
  BACKUP_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  LABEL_LEGAL_NAME: optionalString.pipe(z.string().max(200, 'must be at most 200 characters').optional()),
  LABEL_ADDRESS: optionalString.pipe(z.string().max(500, 'must be at most 500 characters').optional()),
  LABEL_TAX_ID: optionalString.pipe(z.string().max(100, 'must be at most 100 characters').optional()),
  DDEX_PARTY_ID: optionalString.pipe(
    z
      .string()
      .regex(/^PADPIDA[A-Z0-9]{1,20}$/, 'must be a DDEX Party Id (DPID), e.g. PADPIDA2014120301')
      .optional(),
  ),
  WEBHOOK_ALLOW_PRIVATE: booleanString,
  VAT_RATE: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,2}(\.\d{1,2})?$/, 'must be a percentage from 0 to 99.99, e.g. 20 or 7.7')
      .optional(),
  ),
  TAX_REPORTING_THRESHOLD_USD: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an amount in US dollars, e.g. 2000 or 600')
    .default(String(TAX_REPORTING_THRESHOLD_DEFAULT_USD)),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: URL;
  /** The origin allowed on state-changing requests and WebSocket upgrades. */
  publicOrigin: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string;
  admin: { email: string; password: string } | undefined;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  /** The name the sign-in button and its errors give the OpenID provider; undefined without one (issue 43 item 11). */
  signInProviderName: string | undefined;
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string | undefined; apiUrl: string | undefined } | undefined;
  s3:
    | {
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
  /** Outgoing email (CONTRACT §10); without `smtpUrl` emails stay in the outbox and are logged. */
  mail: { smtpUrl: string | undefined; from: string; messageDelayS: number };
  logLevel: string;
  /** Scheduled backups (CONTRACT §20): an archive into `dir` at each `cron` time (UTC), the last `keep` kept. */
  backup: { dir: string; keep: number; cron: string } | undefined;
  /**
   * BACKUP_KEY (decision 191): archives are signed with it (HMAC-SHA256 of the manifest), and a
   * restore refuses one that does not verify; unset, archives are not signed.
   */
  backupKey: Buffer | undefined;
  /** The bearer token GET /metrics asks for; unset, there is no /metrics. */
  metricsToken: string | undefined;
  /**
   * Invoices and credit notes (CONTRACT §19): the seller (LABEL_LEGAL_NAME; LABEL_ADDRESS, where a
   * written `\n` starts a new line; LABEL_TAX_ID) and the VAT included in the prices
   * (VAT_RATE, a percentage), each unset by default.
   */
  billing: { legalName: string | undefined; address: string | undefined; taxId: string | undefined; vatRatePercent: number | undefined };
  /** The label's DDEX Party Id, the sender of the release package's ERN message (CONTRACT §28); unset: named only. */
  ddexPartyId: string | undefined;
  /** Webhooks (CONTRACT §28): whether endpoints on private and loopback addresses are allowed (WEBHOOK_ALLOW_PRIVATE=1). */
  webhooks: { allowPrivate: boolean };
  /**
   * Payees' papers (CONTRACT §24): a W-9 payee paid at least this much in a year (US dollars,
   * TAX_REPORTING_THRESHOLD_USD, default 2000) is `reportable` in the accountant's CSV.
   */
  payees: { taxReportingThresholdUsd: number };
  /** After approval (CONTRACT §13). */
  production: {
    /** `auto`: a paid submission not delivered by its deadline is refunded by a scheduled job. */
    lateDeliveryRefund: 'off' | 'auto';
    /** What each published track earns after the artist's third viral hit, e.g. "25.00". */
    bonusPerTrackUsd: string;
    /** The YouTube Data API v3, when both key and channel are set. */
    youtube: { apiKey: string; channelId: string; apiUrl: string } | undefined;
    /**
     * The label's channel, connected by OAuth (CONTRACT §16): the client it is connected with
     * (YOUTUBE_OAUTH_*, else GOOGLE_*), through GOOGLE_ISSUER's discovery; unset without a client.
     */
    channel: { clientId: string; clientSecret: string; issuer: string } | undefined;
    /** The Data API (and its uploads) and the Analytics API. */
    youtubeApiUrl: string;
    youtubeAnalyticsUrl: string;
    /** AES-256-GCM key for OAuth tokens at rest: TOKEN_ENCRYPTION_KEY, else derived from the session secret. */
    tokenKey: Buffer;
    /**
     * Publishing never hangs (CONTRACT §23, decision 175): how long a YouTube request may go
     * without an answer, the wait before the second try (doubling after), uploads run at once.
     */
    publishing: { timeoutMs: number; retryDelayMs: number; uploadsAtOnce: number };
    /** The viral screen's thresholds (CONTRACT §25): VIRAL_SCREEN_*. */
    screen: ScreenThresholds;
  };
  /** Every artist answered (CONTRACT §26). */
  decisions: DecisionSettings;
  /**
   * Which peers may tell the client's address in X-Forwarded-For (CONTRACT §9): none (the TCP
   * peer is the client), the nearest N hops, or these proxy addresses/CIDRs.
   */
  trustProxy: false | number | string[];
}

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message is one line naming the variable. */
/**
 * What the sign-in button calls the OpenID provider (CONTRACT §23: any standard provider): the
 * name configured, else "Google" for Google's issuer, else the issuer's host, which is what the
 * browser shows once it gets there.
 */
export function providerNameOf(configured: string | undefined, issuer: string): string {
  if (configured?.trim()) return configured.trim();
  const host = new URL(issuer).hostname;
  return host === 'accounts.google.com' ? 'Google' : host;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}`);
  }
  const e = parsed.data;
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const dataDir = path.resolve(e.DATA_DIR);

  if ((e.ADMIN_EMAIL === undefined) !== (e.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if ((e.GOOGLE_CLIENT_ID === undefined) !== (e.GOOGLE_CLIENT_SECRET === undefined)) {
    throw new ConfigError('Invalid configuration: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }
  if ((e.STRIPE_SECRET_KEY === undefined) !== (e.STRIPE_PUBLISHABLE_KEY === undefined)) {
    throw new ConfigError('Invalid configuration: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together');
  }
  if (e.S3_BUCKET && !e.S3_REGION) {
    throw new ConfigError('Invalid configuration: S3_REGION is required when S3_BUCKET is set');
  }
  if ((e.YOUTUBE_API_KEY === undefined) !== (e.YOUTUBE_CHANNEL_ID === undefined)) {
    throw new ConfigError('Invalid configuration: YOUTUBE_API_KEY and YOUTUBE_CHANNEL_ID must be set together');
  }
  if ((e.YOUTUBE_OAUTH_CLIENT_ID === undefined) !== (e.YOUTUBE_OAUTH_CLIENT_SECRET === undefined)) {
    throw new ConfigError('Invalid configuration: YOUTUBE_OAUTH_CLIENT_ID and YOUTUBE_OAUTH_CLIENT_SECRET must be set together');
  }
  if (e.NODE_ENV === 'production' && !e.SESSION_SECRET) {
    throw new ConfigError('Invalid configuration: SESSION_SECRET is required when NODE_ENV=production');
  }

  const sessionSecret = e.SESSION_SECRET ?? developmentSecret(dataDir);
  const channelClientId = e.YOUTUBE_OAUTH_CLIENT_ID ?? e.GOOGLE_CLIENT_ID;
  const channelClientSecret = e.YOUTUBE_OAUTH_CLIENT_ID ? e.YOUTUBE_OAUTH_CLIENT_SECRET : e.GOOGLE_CLIENT_SECRET;

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    publicOrigin: publicUrl.origin,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    sessionSecret,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER }
        : undefined,
    signInProviderName: e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? providerNameOf(e.SIGN_IN_PROVIDER_NAME, e.GOOGLE_ISSUER) : undefined,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiUrl: e.STRIPE_API_URL,
          }
        : undefined,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION!,
          endpoint: e.S3_ENDPOINT,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `"${PRODUCT_NAME}" <no-reply@${publicUrl.hostname}>`,
      messageDelayS: e.MESSAGE_EMAIL_DELAY_S,
    },
    logLevel: e.LOG_LEVEL,
    backup: e.BACKUP_DIR ? { dir: path.resolve(e.BACKUP_DIR), keep: e.BACKUP_KEEP, cron: e.BACKUP_CRON } : undefined,
    backupKey: e.BACKUP_KEY === undefined ? undefined : Buffer.from(e.BACKUP_KEY, 'utf8'),
    metricsToken: e.METRICS_TOKEN,
    billing: {
      legalName: e.LABEL_LEGAL_NAME,
      address: e.LABEL_ADDRESS?.replaceAll('\\n', '\n'),
      taxId: e.LABEL_TAX_ID,
      vatRatePercent: e.VAT_RATE === undefined ? undefined : Number(e.VAT_RATE),
    },
    ddexPartyId: e.DDEX_PARTY_ID,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE },
    payees: { taxReportingThresholdUsd: Number(e.TAX_REPORTING_THRESHOLD_USD) },
    production: {
      lateDeliveryRefund: e.LATE_DELIVERY_REFUND,
      bonusPerTrackUsd: Number(e.BONUS_PER_TRACK_USD).toFixed(2),
      youtube:
        e.YOUTUBE_API_KEY && e.YOUTUBE_CHANNEL_ID
          ? { apiKey: e.YOUTUBE_API_KEY, channelId: e.YOUTUBE_CHANNEL_ID, apiUrl: e.YOUTUBE_API_URL }
          : undefined,
      channel:
        channelClientId && channelClientSecret
          ? { clientId: channelClientId, clientSecret: channelClientSecret, issuer: e.GOOGLE_ISSUER }
          : undefined,
      youtubeApiUrl: e.YOUTUBE_API_URL,
      youtubeAnalyticsUrl: e.YOUTUBE_ANALYTICS_URL,
      tokenKey: tokenKeyOf(e.TOKEN_ENCRYPTION_KEY, sessionSecret),
      publishing: {
        timeoutMs: Math.round(e.YOUTUBE_TIMEOUT_S * 1000),
        retryDelayMs: Math.round(e.YOUTUBE_RETRY_DELAY_S * 1000),
        uploadsAtOnce: e.YOUTUBE_UPLOADS_AT_ONCE,
      },
      screen: {
        externalPercentMax: e.VIRAL_SCREEN_EXTERNAL_PERCENT,
        averageViewPercentMin: e.VIRAL_SCREEN_MIN_VIEW_PERCENT,
        oneDayPercentMax: e.VIRAL_SCREEN_ONE_DAY_PERCENT,
      },
    },
    decisions: {
      days: parseDecisionDays(e.DECISION_DAYS),
      late: e.LATE_DECISION === 'on',
      lateMessage: e.LATE_DECISION_MESSAGE ?? defaultLateDecisionMessage(e.LABEL_LEGAL_NAME ?? PRODUCT_NAME),
      autoAssign: e.AUTO_ASSIGN === 'on',
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
  };
}

/**
 * DECISION_DAYS (CONTRACT §26): `plan=days` pairs, comma-separated; a plan left out keeps its
 * default. Days are positive and may be fractions (0.5 = twelve hours), at most a year.
 */
export function parseDecisionDays(value: string): Record<PricingTier, number> {
  const days = { ...DEFAULT_DECISION_DAYS };
  if (!value) return days;
  for (const pair of value.split(',')) {
    const [plan, amount, ...rest] = pair.split('=').map((part) => part.trim());
    const number = Number(amount);
    if (rest.length > 0 || !plan || !(PRICING_TIERS as readonly string[]).includes(plan) || !amount || !Number.isFinite(number) || number <= 0 || number > 366) {
      throw new ConfigError(`Invalid configuration: DECISION_DAYS must be plan=days pairs, e.g. professional=3,premium=5,basic=7,free=30 (not "${pair.trim()}")`);
    }
    days[plan as PricingTier] = number;
  }
  return days;
}

/** 32 bytes from hex or base64; unset, derived from the session secret (HKDF-SHA256), so development needs no setup. */
function tokenKeyOf(value: string | undefined, sessionSecret: string): Buffer {
  if (value) return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'oauth-tokens', 'token-encryption-key', 32));
}

/** proxy-addr's names for address ranges, accepted beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 100) throw new ConfigError('Invalid configuration: TRUST_PROXY must be at most 100 hops');
    return hops === 0 ? false : hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError(
        `Invalid configuration: TRUST_PROXY must be a number of hops or a comma list of addresses/CIDRs (not "${entry}")`,
      );
    }
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The DATA_DIR the environment names, read without loading the configuration: loading it writes
 * the development secret there, and a restore that is refused takes back what it wrote.
 */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR || DEFAULT_DATA_DIR);
}

/** Development needs no setup: a random secret is made once and kept in DATA_DIR. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  }
}
