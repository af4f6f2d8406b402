// Accounts: users, their sessions and emailed links, notification settings, rate-limit counters. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf, timestamps } from './columns';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { AUTH_PROVIDERS, ROLES } from '../../../../shared/auth';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Always stored lower-cased, so the unique index compares case-insensitively (CONTRACT §3). */
    email: text('email'),
    password: text('password'),
    authProvider: text('auth_provider', { enum: AUTH_PROVIDERS }).notNull().default('local'),
    googleId: text('google_id'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    profileImageUrl: text('profile_image_url'),
    artistName: text('artist_name'),
    country: text('country'),
    instagramHandle: text('instagram_handle'),
    tiktokHandle: text('tiktok_handle'),
    twitterHandle: text('twitter_handle'),
    facebookHandle: text('facebook_handle'),
    youtubeHandle: text('youtube_handle'),
    spotifyHandle: text('spotify_handle'),
    soundcloudHandle: text('soundcloud_handle'),
    applemusicHandle: text('applemusic_handle'),
    amazonmusicHandle: text('amazonmusic_handle'),
    deezerHandle: text('deezer_handle'),
    bandcampHandle: text('bandcamp_handle'),
    otherPlatforms: text('other_platforms'),
    profileSetupComplete: boolean('profile_setup_complete').notNull().default(false),
    /** When the artist closed the first-visit profile prompt; it never opens by itself again. */
    profilePromptDismissedAt: timestamp('profile_prompt_dismissed_at', { withTimezone: true }),
    role: text('role', { enum: ROLES }).notNull().default('user'),
    /** Set when the user opened a verification link, or signed in with a Google-verified email. */
    emailVerified: boolean('email_verified').notNull().default(false),
    /**
     * An address the user asked to change to (CONTRACT §11); it replaces `email` only when the
     * link sent to it is opened.
     */
    pendingEmail: text('pending_email'),
    /**
     * Set when the account was deleted (CONTRACT §11): the row stays only as the anonymous owner of
     * the licensed submissions, with every personal field cleared; nobody can sign in to it
     * (docs/decisions/120-account-deletion-keeps-an-anonymous-owner.md).
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** An admin away since then (CONTRACT §26): fair assignment skips them; null when here. */
    awayAt: timestamp('away_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_google_id_key').on(t.googleId),
    // The admin search's substring match on email (pg_trgm, migration 0001).
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    oneOf('users_auth_provider_check', t.authProvider, AUTH_PROVIDERS),
    oneOf('users_role_check', t.role, ROLES),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** The SHA-256 (hex) of the id in the cookie, never the id (`hashSessionId`, CONTRACT §23). */
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').$type<SessionData>().notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
    /** Also in `sess`; a column so a user's sessions can be found and removed with the user. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The id the sessions list shows and `DELETE /api/account/sessions/{id}` takes: never the sid,
     * which is the bearer secret in the cookie.
     */
    publicId: text('public_id').notNull().default(sql`gen_random_uuid()::text`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The browser that opened the session, as it named itself (trimmed). */
    userAgent: text('user_agent'),
    /** Written at most once a minute per session, never on every request. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sessions_expire_idx').on(t.expire),
    index('sessions_user_idx').on(t.userId),
    uniqueIndex('sessions_public_id_key').on(t.publicId),
  ],
);

export interface SessionData {
  userId: string;
  createdAt: string;
  /** How the session was opened, for the audit trail in logs. */
  via: 'password' | 'google' | 'register';
}

/** Failed sign-ins per key (an email or an IP), shared by every server instance. */
/**
 * Every rate limit's counters (failed sign-ins, registrations, submissions, uploads, messages…),
 * one row per limit and key, so that a limit holds across every instance on the database
 * (docs/decisions/050-rate-limits-in-postgresql.md).
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    /** When this window runs out; pruned after that. */
    windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_counters_window_end_idx').on(t.windowEnd)],
);

/**
 * Which notification emails a user wants (CONTRACT §10). No row means every kind is on, so a new
 * account needs nothing written.
 */
export const notificationSettings = pgTable('notification_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  statusChanges: boolean('status_changes').notNull().default(true),
  messages: boolean('messages').notNull().default(true),
  deliveries: boolean('deliveries').notNull().default(true),
  digest: boolean('digest').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The columns both emailed-link tables share (domain/email/emailed-links.ts mints into either):
 * only a SHA-256 of the token is kept, with its user, the address the link went to, and when it
 * expires and was used.
 */
const emailedTokenColumns = () => ({
  tokenHash: text('token_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Email verification links (CONTRACT §11). `email` is the address the link verifies; it must
 * still be the user's (or the one they are changing to) when the link is opened.
 */
export const emailVerificationTokens = pgTable('email_verification_tokens', emailedTokenColumns(), (t) => [
  index('email_verification_tokens_user_idx').on(t.userId),
  index('email_verification_tokens_expires_idx').on(t.expiresAt),
]);

/**
 * Password reset links (CONTRACT §11): one hour, once. `email` is the address the link went to:
 * it works only while the account still has it, and opening it proves that mailbox, so it counts
 * as verified.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    ...emailedTokenColumns(),
    /**
     * SHA-256 of the password hash the account had when the link was sent (of '' for none): the
     * link works only while that password is unchanged (domain/email/emailed-links.ts).
     */
    passwordFingerprint: text('password_fingerprint').notNull(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId), index('password_reset_tokens_expires_idx').on(t.expiresAt)],
);

export type UserRow = typeof users.$inferSelect;
