import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The whole data model of SPEC §3, plus what the contract needs around it (uploads, payment
 * events, history, login throttling). Ids are application-made UUID strings kept as text, so a
 * malformed id in a URL is simply "not found" rather than a database type error.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Always stored lower-cased, so the unique index compares case-insensitively (CONTRACT §3). */
    email: text('email'),
    password: text('password'),
    authProvider: text('auth_provider', { enum: ['local', 'google'] }).notNull().default('local'),
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
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_google_id_key').on(t.googleId),
    // The admin search's substring match on email (pg_trgm, migration 0001).
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').$type<SessionData>().notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
    /** Also in `sess`; a column so a user's sessions can be found and removed with the user. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sessions_expire_idx').on(t.expire), index('sessions_user_idx').on(t.userId)],
);

export interface SessionData {
  userId: string;
  createdAt: string;
  /** How the session was opened, for the audit trail in logs. */
  via: 'password' | 'google' | 'register';
}

export const submissions = pgTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    submissionMethod: text('submission_method', { enum: ['link', 'upload'] }).notNull(),
    musicUrl: text('music_url'),
    musicFileUrl: text('music_file_url'),
    videoUrl: text('video_url'),
    videoFileUrl: text('video_file_url'),
    artworkUrl: text('artwork_url'),
    releaseStatus: text('release_status', { enum: ['released', 'unreleased'] }).notNull(),
    releaseDate: text('release_date'),
    releaseDateOption: text('release_date_option', { enum: ['specific', 'undecided', 'asap'] }),
    artistName: text('artist_name').notNull(),
    songTitle: text('song_title').notNull(),
    hasLyrics: boolean('has_lyrics').notNull(),
    lyricsLanguage: text('lyrics_language'),
    lyrics: text('lyrics'),
    description: text('description'),
    aiUsage: boolean('ai_usage').notNull(),
    videoStyle: text('video_style', { enum: ['custom', 'non-custom'] }).notNull(),
    styleReferenceUrls: text('style_reference_urls').array().notNull().default(sql`'{}'::text[]`),
    characterImageUrls: text('character_image_urls').array().notNull().default(sql`'{}'::text[]`),
    creativeDirection: text('creative_direction'),
    pricingTier: text('pricing_tier', { enum: ['free', 'basic', 'premium', 'professional'] }).notNull(),
    publishOnYoutube: boolean('publish_on_youtube').notNull().default(true),
    termsAccepted: boolean('terms_accepted').notNull().default(false),
    status: text('status').notNull().default('draft'),
    adminReview: text('admin_review'),
    adminReviewedAt: timestamp('admin_reviewed_at', { withTimezone: true }),
    adminReviewedBy: text('admin_reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    /** Internal notes of the label's team; never sent to artists. */
    adminNotes: text('admin_notes'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    paymentStatus: text('payment_status'),
    amount: numeric('amount', { precision: 10, scale: 2 }),
    genre: text('genre'),
    mood: text('mood'),
    ...timestamps,
  },
  (t) => [
    index('submissions_user_created_idx').on(t.userId, t.createdAt.desc()),
    // The admin list's order (newest first, id breaks ties), unfiltered and by status: a page's
    // ids come from an index-only walk (docs/decisions/040-admin-list-at-scale.md). NULLS FIRST is
    // what a plain ORDER BY ... DESC means; with NULLS LAST the planner cannot read it in order.
    index('submissions_status_created_id_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('submissions_created_id_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The admin search's case-insensitive substring match on title and artist name (pg_trgm).
    index('submissions_song_title_trgm_idx').using('gin', t.songTitle.op('gin_trgm_ops')),
    index('submissions_artist_name_trgm_idx').using('gin', t.artistName.op('gin_trgm_ops')),
    uniqueIndex('submissions_payment_intent_key').on(t.stripePaymentIntentId),
  ],
);

/**
 * How many submissions have each status, kept by triggers on `submissions` (migration 0003), so
 * the admin dashboard's counts cost one tiny read instead of a pass over every submission
 * (docs/decisions/040-admin-list-at-scale.md). Never written by application code.
 */
export const submissionStatusCounts = pgTable('submission_status_counts', {
  status: text('status').primaryKey(),
  count: bigint('count', { mode: 'number' }).notNull().default(0),
});

/** Who changed what on a submission, and when (status, notes, payment). */
export const submissionHistory = pgTable(
  'submission_history',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** Null when the change came from the system (a payment webhook). */
    actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
    field: text('field', { enum: ['status', 'notes', 'payment_status', 'review'] }).notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('submission_history_submission_idx').on(t.submissionId, t.createdAt)],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    fromUserId: text('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toUserId: text('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_from_created_idx').on(t.fromUserId, t.createdAt),
    index('messages_to_created_idx').on(t.toUserId, t.createdAt),
    index('messages_unread_idx').on(t.toUserId, t.fromUserId).where(sql`${t.isRead} = false`),
  ],
);

/**
 * A file a user uploaded. The row is made when the upload URL is issued (status `pending`);
 * `receiving` while this server streams the bytes in (local storage; makes the URL single-use),
 * `stored` once they are in the store. `size` and `contentType` are set by the normalisation
 * routes once they have checked the bytes; only then may a submission reference the upload.
 * Rows never attached to a submission are removed after 24 hours (CONTRACT §5).
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'receiving', 'stored'] }).notNull().default('pending'),
    size: bigint('size', { mode: 'number' }),
    contentType: text('content_type'),
    fileName: text('file_name'),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    /** Until when the upload URL may be used. */
    uploadExpiresAt: timestamp('upload_expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId),
    index('uploads_unattached_idx').on(t.createdAt).where(sql`${t.submissionId} is null`),
    index('uploads_submission_idx').on(t.submissionId),
  ],
);

/** Stripe events already handled, so a redelivered event changes nothing more (CONTRACT §6). */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  submissionId: text('submission_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Failed sign-ins per key (an email or an IP), shared by every server instance. */
export const loginFailures = pgTable(
  'login_failures',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_failures_window_idx').on(t.windowStart)],
);

export type UserRow = typeof users.$inferSelect;
export type SubmissionRow = typeof submissions.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
