import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
// Relative, not '@shared/…': drizzle-kit loads this file without the tsconfig path aliases.
import { HISTORY_FIELDS, STATUS_CHANGE_REASONS } from '../../../shared/admin';
import { AUTH_PROVIDERS, ROLES } from '../../../shared/auth';
import { ARTIST_ACTIVITY_KINDS } from '../../../shared/artist-activity';
import { BILLING_DOCUMENT_KINDS, type BillingSeller } from '../../../shared/billing';
import { OUTBOX_STATUSES } from '../../../shared/notifications';
import { WEBHOOK_DELIVERY_STATUSES } from '../../../shared/webhooks';
import { CONTENT_ID_ANSWERS, OWNER_ROLES, type Owner } from '../../../shared/rights';
import { COUNT_SOURCES, EARNING_STATUSES, PRIVACY_STATUSES, SCREEN_STATUSES, YOUTUBE_UPLOAD_STATES, type TrafficSource } from '../../../shared/production';
import { STORED_PAYOUT_STATUSES } from '../../../shared/payouts';
import { SHARE_STATUSES, TAX_FORM_KINDS } from '../../../shared/payees';
import {
  PAYMENT_STATUSES,
  PRICING_TIERS,
  REFUND_REASONS,
  RELEASE_DATE_OPTIONS,
  RELEASE_STATUSES,
  SUBMISSION_METHODS,
  MAX_ROUND,
  SUBMISSION_STATUSES,
  SUBMISSION_TYPES,
  VIDEO_STYLES,
} from '../../../shared/submissions';

/**
 * The whole data model of SPEC §3, plus what the contract needs around it (uploads, payment
 * events, history, login throttling). Ids are application-made UUID strings kept as text, so a
 * malformed id in a URL is simply "not found" rather than a database type error.
 */

/**
 * A CHECK that a column holds one of a shared list's values (src/shared), so the database refuses
 * what the types refuse. The list is written into the constraint as literals: when a value is added
 * to the shared array, `drizzle-kit generate` replaces the constraint. (A CHECK rather than a
 * PostgreSQL enum: adding or removing a value is then an ordinary migration, inside a transaction.)
 */
function oneOf(name: string, column: AnyPgColumn, values: readonly string[]): ReturnType<typeof check> {
  const literals: SQL = sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '));
  return check(name, sql`${column} in (${literals})`);
}

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

export const submissions = pgTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A track for the label to make a video of, or a finished video to publish (CONTRACT §12). */
    submissionType: text('submission_type', { enum: SUBMISSION_TYPES }).notNull().default('track'),
    submissionMethod: text('submission_method', { enum: SUBMISSION_METHODS }).notNull(),
    musicUrl: text('music_url'),
    musicFileUrl: text('music_file_url'),
    videoUrl: text('video_url'),
    videoFileUrl: text('video_file_url'),
    artworkUrl: text('artwork_url'),
    releaseStatus: text('release_status', { enum: RELEASE_STATUSES }).notNull(),
    releaseDate: text('release_date'),
    releaseDateOption: text('release_date_option', { enum: RELEASE_DATE_OPTIONS }),
    artistName: text('artist_name').notNull(),
    songTitle: text('song_title').notNull(),
    hasLyrics: boolean('has_lyrics').notNull(),
    lyricsLanguage: text('lyrics_language'),
    lyrics: text('lyrics'),
    description: text('description'),
    aiUsage: boolean('ai_usage').notNull(),
    videoStyle: text('video_style', { enum: VIDEO_STYLES }).notNull(),
    styleReferenceUrls: text('style_reference_urls').array().notNull().default(sql`'{}'::text[]`),
    characterImageUrls: text('character_image_urls').array().notNull().default(sql`'{}'::text[]`),
    creativeDirection: text('creative_direction'),
    pricingTier: text('pricing_tier', { enum: PRICING_TIERS }).notNull(),
    publishOnYoutube: boolean('publish_on_youtube').notNull().default(true),
    termsAccepted: boolean('terms_accepted').notNull().default(false),
    status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('draft'),
    adminReview: text('admin_review'),
    adminReviewedAt: timestamp('admin_reviewed_at', { withTimezone: true }),
    adminReviewedBy: text('admin_reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    /** Internal notes of the label's team; never sent to artists. */
    adminNotes: text('admin_notes'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }),
    amount: numeric('amount', { precision: 10, scale: 2 }),
    genre: text('genre'),
    mood: text('mood'),
    /** The wizard step a draft was saved at, so it resumes there; null once submitted. */
    draftStep: integer('draft_step'),
    /** When the artist last opened the submission; a later review or status change is "new" to them. */
    artistSeenAt: timestamp('artist_seen_at', { withTimezone: true }),
    /** The delivery deadline: payment succeeded + the tier's days (CONTRACT §13); null for free. */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** The first delivery of the tier's files. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** A full refund asked of Stripe: by whom it was decided and when; paymentStatus turns `refunded` when Stripe confirms. */
    refundReason: text('refund_reason', { enum: REFUND_REASONS }),
    refundRequestedAt: timestamp('refund_requested_at', { withTimezone: true }),
    stripeRefundId: text('stripe_refund_id'),
    /** The licence record: which Terms text the artist accepted (its SHA-256 in `terms_texts`) and when. */
    termsHash: text('terms_hash'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    /** The cut the artist approved and when (CONTRACT §17); a later delivery clears both. */
    approvedDeliveryId: text('approved_delivery_id').references((): AnyPgColumn => deliveries.id, { onDelete: 'set null' }),
    cutApprovedAt: timestamp('cut_approved_at', { withTimezone: true }),
    /** The split sheet (CONTRACT §22); null: the artist alone at 100% (`ownersOf`). */
    owners: jsonb('owners').$type<Owner[]>(),
    /** Whether the track is registered with a distributor or Content ID, its distributor and ISRC. */
    contentId: text('content_id', { enum: CONTENT_ID_ANSWERS }).notNull().default('unknown'),
    distributor: text('distributor'),
    isrc: text('isrc'),
    /** The team asked the distributor to allowlist the channel (CONTRACT §22). */
    allowlistDoneAt: timestamp('allowlist_done_at', { withTimezone: true }),
    allowlistDoneBy: text('allowlist_done_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * CONTRACT §27: which version of the music (or video) the row's fields hold, 1 for the original.
     * The row always holds the current version; every version is in `submission_versions`.
     */
    round: integer('round').notNull().default(1),
    /**
     * The decision clock (CONTRACT §26, domain/submission/decision-date.ts): when it started (the
     * payment's success, free: the submission; a new version, §27), the date the label promised an
     * answer by, and when a decision (DECISION_STATUSES) stopped it. Null before it started.
     */
    decisionClockAt: timestamp('decision_clock_at', { withTimezone: true }),
    decisionDueAt: timestamp('decision_due_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** Each sent once: the 75% reminder, the overdue one, and the late action (refund or close). */
    decisionRemindedAt: timestamp('decision_reminded_at', { withTimezone: true }),
    decisionOverdueAt: timestamp('decision_overdue_at', { withTimezone: true }),
    lateDecisionAt: timestamp('late_decision_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    oneOf('submissions_content_id_check', t.contentId, CONTENT_ID_ANSWERS),
    check('submissions_round_check', sql`${t.round} between 1 and ${sql.raw(String(MAX_ROUND))}`),
    index('submissions_user_created_idx').on(t.userId, t.createdAt.desc()),
    // The admin list's order (newest first, id breaks ties), unfiltered and by status: a page's
    // ids come from an index-only walk (docs/decisions/040-admin-list-at-scale.md). NULLS FIRST is
    // what a plain ORDER BY ... DESC means; with NULLS LAST the planner cannot read it in order.
    index('submissions_status_created_id_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Partial: the desk never lists drafts (CONTRACT §12), and so its walk stays index-only.
    index('submissions_created_id_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.status} <> 'draft'`),
    // The admin search's case-insensitive substring match on title and artist name (pg_trgm).
    index('submissions_song_title_trgm_idx').using('gin', t.songTitle.op('gin_trgm_ops')),
    index('submissions_artist_name_trgm_idx').using('gin', t.artistName.op('gin_trgm_ops')),
    uniqueIndex('submissions_payment_intent_key').on(t.stripePaymentIntentId),
    oneOf('submissions_status_check', t.status, SUBMISSION_STATUSES),
    oneOf('submissions_submission_type_check', t.submissionType, SUBMISSION_TYPES),
    oneOf('submissions_submission_method_check', t.submissionMethod, SUBMISSION_METHODS),
    oneOf('submissions_release_status_check', t.releaseStatus, RELEASE_STATUSES),
    oneOf('submissions_release_date_option_check', t.releaseDateOption, RELEASE_DATE_OPTIONS),
    oneOf('submissions_video_style_check', t.videoStyle, VIDEO_STYLES),
    oneOf('submissions_pricing_tier_check', t.pricingTier, PRICING_TIERS),
    oneOf('submissions_refund_reason_check', t.refundReason, REFUND_REASONS),
    oneOf('submissions_payment_status_check', t.paymentStatus, PAYMENT_STATUSES),
    // The desk's deadline filters and sort, and the late-delivery sweep: only what is still owed.
    index('submissions_due_open_idx').on(t.dueAt).where(sql`${t.deliveredAt} is null and ${t.dueAt} is not null`),
    // The queue, the desk's decision sort and filters, and the reminders' sweep: only what waits.
    index('submissions_decision_waiting_idx').on(t.decisionDueAt).where(sql`${t.decidedAt} is null and ${t.decisionDueAt} is not null`),
  ],
);

/** Every version of the Terms of Service an artist accepted, by the SHA-256 of its exact text. */
export const termsTexts = pgTable('terms_texts', {
  hash: text('hash').primaryKey(),
  version: text('version').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The licence agreement of an approved submission (CONTRACT §22): its text as generated, and the
 * SHA-256 of that text. Once an owner has signed, neither changes (decision 178).
 */
export const agreements = pgTable('agreements', {
  submissionId: text('submission_id')
    .primaryKey()
    .references(() => submissions.id, { onDelete: 'cascade' }),
  version: integer('version').notNull().default(1),
  text: text('text').notNull(),
  sha256: text('sha256').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One owner's signature of an agreement, made with the agreement: the owner as the text names
 * them, then once signed who typed which name when, from where, on which text (its SHA-256). An
 * owner with an email signs through an emailed link whose token is kept only as its hash.
 */
export const agreementSignatures = pgTable(
  'agreement_signatures',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => agreements.submissionId, { onDelete: 'cascade' }),
    ownerIndex: integer('owner_index').notNull(),
    ownerName: text('owner_name').notNull(),
    ownerEmail: text('owner_email'),
    role: text('role', { enum: OWNER_ROLES }).notNull(),
    share: numeric('share', { precision: 5, scale: 2 }).notNull(),
    signedName: text('signed_name'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    /** The account that signed: the artist (for themselves or on an owner's behalf); null by link. */
    signedBy: text('signed_by').references(() => users.id, { onDelete: 'set null' }),
    onBehalf: boolean('on_behalf').notNull().default(false),
    ip: text('ip'),
    userAgent: text('user_agent'),
    sha256: text('sha256'),
    /**
     * The version of the electronic-records disclosure (ESIGN_DISCLOSURE in shared/rights-texts.ts)
     * shown to the signer before they signed; null for signatures made before it was shown (decision 189).
     */
    disclosureVersion: integer('disclosure_version'),
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    tokenUsedAt: timestamp('token_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('agreement_signatures_owner_key').on(t.submissionId, t.ownerIndex),
    uniqueIndex('agreement_signatures_token_key').on(t.tokenHash),
    oneOf('agreement_signatures_role_check', t.role, OWNER_ROLES),
  ],
);
export type AgreementRow = typeof agreements.$inferSelect;
export type AgreementSignatureRow = typeof agreementSignatures.$inferSelect;

/** One delivery of files by the team, with its note (CONTRACT §13). */
export const deliveries = pgTable(
  'deliveries',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** 1, 2, … in the order the submission's deliveries were made (CONTRACT §17). */
    version: integer('version').notNull(),
    note: text('note'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('deliveries_submission_idx').on(t.submissionId, t.createdAt),
    uniqueIndex('deliveries_submission_version_key').on(t.submissionId, t.version),
  ],
);

/**
 * Comments on a delivery by its submission's owner and the team (CONTRACT §17), at a moment of one
 * of its files or on the whole cut, and replies to them. `readAt`: when the other side (the owner
 * for the team's comments, any admin for the owner's) first loaded it; the unread email waits for it.
 */
export const deliveryComments = pgTable(
  'delivery_comments',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    fileId: text('file_id').references(() => uploads.id, { onDelete: 'set null' }),
    atSeconds: real('at_seconds'),
    text: text('text').notNull(),
    replyTo: text('reply_to').references((): AnyPgColumn => deliveryComments.id, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The side that wrote it, kept if the author's account goes. */
    authorRole: text('author_role', { enum: ROLES }).notNull(),
    resolved: boolean('resolved').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('delivery_comments_delivery_idx').on(t.deliveryId, t.createdAt),
    index('delivery_comments_unread_idx').on(t.submissionId, t.authorRole).where(sql`${t.readAt} is null`),
    oneOf('delivery_comments_author_role_check', t.authorRole, ROLES),
  ],
);

/** The files of a delivery: uploads the team made, attached to the submission. */
export const deliveryFiles = pgTable(
  'delivery_files',
  {
    uploadId: text('upload_id')
      .primaryKey()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [index('delivery_files_delivery_idx').on(t.deliveryId, t.position)],
);

/** A revision the artist asked for after a delivery (the professional tier includes 3). */
export const revisionRequests = pgTable(
  'revision_requests',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** 1, 2, 3 …: unique per submission, so two requests at the same moment cannot both be the last one. */
    number: integer('number').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('revision_requests_submission_number_key').on(t.submissionId, t.number)],
);

/**
 * The video on the label's channel and its 14-day check (CONTRACT §13). `subscriberCount` is
 * locked when the publication is recorded; `viewsAt14Days` and `viralHit` follow the latest
 * reading in `view_readings`.
 */
export const publications = pgTable(
  'publications',
  {
    submissionId: text('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    videoUrl: text('video_url').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    subscriberCount: bigint('subscriber_count', { mode: 'number' }).notNull(),
    subscriberSource: text('subscriber_source', { enum: COUNT_SOURCES }).notNull(),
    checkAt: timestamp('check_at', { withTimezone: true }).notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    checkLateSeconds: integer('check_late_seconds'),
    /** The check's next try while YouTube Analytics has not reported the window's last day. */
    checkRetryAt: timestamp('check_retry_at', { withTimezone: true }),
    viewsAt14Days: bigint('views_at_14_days', { mode: 'number' }),
    viralHit: boolean('viral_hit'),
    /** When the hit was first recorded: tracks published after the third one earn the bonus. */
    hitRecordedAt: timestamp('hit_recorded_at', { withTimezone: true }),
    publishedBy: text('published_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The screen at the 14-day check (CONTRACT §25): null before it, or without the channel's analytics. */
    screenStatus: text('screen_status', { enum: SCREEN_STATUSES }),
    screenReasons: jsonb('screen_reasons').$type<string[]>(),
    screenSources: jsonb('screen_sources').$type<TrafficSource[]>(),
    averageViewPercentage: doublePrecision('average_view_percentage'),
    /** The screen's reads YouTube refused (its quota), and its last refusal: the desk shows them. */
    screenAttempts: integer('screen_attempts').notNull().default(0),
    screenError: text('screen_error'),
    /** The team's decision on a suspect hit (its history row says the same). */
    reviewedBy: text('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewReason: text('review_reason'),
    /** The second look at 28 days: due for every hit, done once. */
    secondLookAt: timestamp('second_look_at', { withTimezone: true }),
    secondLookedAt: timestamp('second_looked_at', { withTimezone: true }),
    secondLookViews: bigint('second_look_views', { mode: 'number' }),
    /** The second look found the same 14 days below the threshold: the hit no longer counts. */
    hitWithdrawnAt: timestamp('hit_withdrawn_at', { withTimezone: true }),
    hitWithdrawnReason: text('hit_withdrawn_reason'),
  },
  (t) => [
    index('publications_check_idx').on(t.checkAt).where(sql`${t.checkedAt} is null`),
    index('publications_second_look_idx').on(t.secondLookAt).where(sql`${t.secondLookedAt} is null`),
    oneOf('publications_subscriber_source_check', t.subscriberSource, COUNT_SOURCES),
    oneOf('publications_screen_status_check', t.screenStatus, SCREEN_STATUSES),
  ],
);

/** Each view count recorded for a publication: the scheduled reading and every correction. */
export const viewReadings = pgTable(
  'view_readings',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => publications.submissionId, { onDelete: 'cascade' }),
    views: bigint('views', { mode: 'number' }).notNull(),
    source: text('source', { enum: COUNT_SOURCES }).notNull(),
    recordedBy: text('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('view_readings_submission_idx').on(t.submissionId, t.recordedAt),
    oneOf('view_readings_source_check', t.source, COUNT_SOURCES),
  ],
);

/** A day's views in the 14-day window, from the Analytics API (CONTRACT §16); `day` is YYYY-MM-DD. */
export const dailyViews = pgTable(
  'daily_views',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => publications.submissionId, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    views: bigint('views', { mode: 'number' }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.day] })],
);

/**
 * The label's YouTube channel, connected by OAuth (CONTRACT §16): one row at most. The tokens
 * are AES-256-GCM ciphertexts (platform/crypto/token-box.ts), never the tokens themselves.
 */
export const youtubeChannels = pgTable(
  'youtube_channels',
  {
    id: text('id').primaryKey().default('label'),
    channelId: text('channel_id').notNull(),
    title: text('title').notNull(),
    subscriberCount: bigint('subscriber_count', { mode: 'number' }),
    refreshToken: text('refresh_token').notNull(),
    accessToken: text('access_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    connectedBy: text('connected_by').references(() => users.id, { onDelete: 'set null' }),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('youtube_channels_single_check', sql`${t.id} = 'label'`)],
);

/**
 * A video the product publishes on the channel (CONTRACT §16), one per submission: the job's
 * state, YouTube's resumable session and how many bytes it has, so a restart continues it.
 */
export const youtubeUploads = pgTable(
  'youtube_uploads',
  {
    submissionId: text('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    uploadId: text('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    state: text('state', { enum: YOUTUBE_UPLOAD_STATES }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    privacyStatus: text('privacy_status', { enum: PRIVACY_STATUSES }).notNull(),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    sessionUri: text('session_uri'),
    bytesSent: bigint('bytes_sent', { mode: 'number' }).notNull().default(0),
    bytesTotal: bigint('bytes_total', { mode: 'number' }).notNull(),
    videoId: text('video_id'),
    error: text('error'),
    /** Until when a worker holds this upload (renewed while it sends); a lapsed lease is taken over. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Tries that failed in a way worth retrying, and when the next is due (CONTRACT §23, decision 175). */
    attempts: integer('attempts').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** YouTube's reason for the last refusal (`quotaExceeded`, …), for the advice the team sees. */
    errorReason: text('error_reason'),
    requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('youtube_uploads_upload_idx').on(t.uploadId),
    oneOf('youtube_uploads_state_check', t.state, YOUTUBE_UPLOAD_STATES),
    oneOf('youtube_uploads_privacy_status_check', t.privacyStatus, PRIVACY_STATUSES),
  ],
);

/** The bonus ledger: one earning per published track after the artist's third hit. */
export const bonusEarnings = pgTable(
  'bonus_earnings',
  {
    submissionId: text('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: numeric('amount', { precision: 10, scale: 2 }).notNull(),
    status: text('status', { enum: EARNING_STATUSES }).notNull().default('owed'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidBy: text('paid_by').references(() => users.id, { onDelete: 'set null' }),
    /** The Stripe transfer that paid it (CONTRACT §19); null when unpaid or marked paid by hand. One earning, one transfer. */
    transferId: text('transfer_id').unique('bonus_earnings_transfer_id_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** CONTRACT §25: the hit this earning depended on was withdrawn before it was paid. */
    voidReason: text('void_reason'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (t) => [
    index('bonus_earnings_user_idx').on(t.userId, t.createdAt),
    oneOf('bonus_earnings_status_check', t.status, EARNING_STATUSES),
  ],
);

/**
 * A paid earning taken back (CONTRACT §25): written only by domain/bonus/withdraw-hit.ts, deducted
 * from the payee's next payouts (never charged to a card). A deduction that covers part of a line
 * splits it: the deducted part records where it went, the rest stays outstanding as a new line.
 */
export const bonusClawbacks = pgTable(
  'bonus_clawbacks',
  {
    id: text('id').primaryKey(),
    /** The earning clawed back. */
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** Whose next earnings it is deducted from: the payee of the share taken back (CONTRACT §24). */
    payeeId: text('payee_id')
      .notNull()
      .references(() => payees.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deductedAt: timestamp('deducted_at', { withTimezone: true }),
    /** The earning whose payout deducted it. */
    deductedFrom: text('deducted_from'),
  },
  (t) => [
    index('bonus_clawbacks_outstanding_idx').on(t.payeeId, t.createdAt).where(sql`${t.deductedAt} is null`),
    index('bonus_clawbacks_submission_idx').on(t.submissionId),
    check('bonus_clawbacks_amount_check', sql`${t.amountCents} > 0`),
  ],
);

/**
 * The artist's Stripe Connect Express account for bonus payouts (CONTRACT §19): one per artist,
 * its state kept current by `account.updated` (docs/decisions/162-bonus-payouts-stripe-connect.md).
 */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeAccountId: text('stripe_account_id').notNull().unique('payout_accounts_stripe_account_id_unique'),
    status: text('status', { enum: STORED_PAYOUT_STATUSES }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [oneOf('payout_accounts_status_check', t.status, STORED_PAYOUT_STATUSES)],
);

/**
 * Who a share of an earning is paid to (CONTRACT §24, decision 194): the submitting artist's own
 * (`userId`, paid through their account), or a co-owner by email (lower case, one payee however
 * many songs they co-own), who has no account. Kept when the artist's account is deleted: the tax
 * papers it holds are the label's to keep.
 */
export const payees = pgTable(
  'payees',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .unique('payees_user_id_unique')
      .references(() => users.id, { onDelete: 'set null' }),
    email: text('email').unique('payees_email_unique'),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('payees_email_lower_check', sql`${t.email} = lower(${t.email})`)],
);
export type PayeeRow = typeof payees.$inferSelect;

/** A payee's emailed link `/payee/{token}`: only the token's SHA-256, valid 30 days (decision 081). */
export const payeeLinks = pgTable(
  'payee_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    payeeId: text('payee_id')
      .notNull()
      .references(() => payees.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payee_links_payee_idx').on(t.payeeId)],
);

/**
 * One owner's part of an earning (CONTRACT §24): written with the earning from the split sheet
 * as it was then, in cents that add up to the earning. Its paid state has one writer
 * (domain/bonus/earning-payment.ts); one transfer per share.
 */
export const earningShares = pgTable(
  'earning_shares',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => bonusEarnings.submissionId, { onDelete: 'cascade' }),
    /** The owner's place on the split sheet; 0 is the submitting artist. */
    ownerId: integer('owner_id').notNull(),
    payeeId: text('payee_id').references(() => payees.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    role: text('role', { enum: OWNER_ROLES }).notNull(),
    share: numeric('share', { precision: 5, scale: 2 }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: SHARE_STATUSES }).notNull().default('unpaid'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidBy: text('paid_by').references(() => users.id, { onDelete: 'set null' }),
    transferId: text('transfer_id').unique('earning_shares_transfer_id_unique'),
    voidReason: text('void_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.ownerId], name: 'earning_shares_submission_id_owner_id_pk' }),
    index('earning_shares_payee_idx').on(t.payeeId, t.paidAt),
    oneOf('earning_shares_status_check', t.status, SHARE_STATUSES),
    oneOf('earning_shares_role_check', t.role, OWNER_ROLES),
    check('earning_shares_amount_check', sql`${t.amountCents} >= 0`),
  ],
);
export type EarningShareRow = typeof earningShares.$inferSelect;

/**
 * A payee's tax form as signed (CONTRACT §24): the TIN sealed with the token key (token-box.ts),
 * its last four kept apart to be shown; the rest as typed. A new form replaces the one on file.
 */
export const taxForms = pgTable(
  'tax_forms',
  {
    payeeId: text('payee_id')
      .primaryKey()
      .references(() => payees.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: TAX_FORM_KINDS }).notNull(),
    legalName: text('legal_name').notNull(),
    country: text('country').notNull(),
    address: text('address').notNull(),
    tinSealed: text('tin_sealed'),
    tinLast4: text('tin_last4'),
    signedName: text('signed_name').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    signedBy: text('signed_by').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [oneOf('tax_forms_kind_check', t.kind, TAX_FORM_KINDS)],
);
export type TaxFormRow = typeof taxForms.$inferSelect;

/** A co-owner payee's Stripe Connect Express account (as the artist's `payout_accounts`, CONTRACT §19). */
export const payeePayoutAccounts = pgTable(
  'payee_payout_accounts',
  {
    payeeId: text('payee_id')
      .primaryKey()
      .references(() => payees.id, { onDelete: 'cascade' }),
    stripeAccountId: text('stripe_account_id').notNull().unique('payee_payout_accounts_stripe_account_id_unique'),
    status: text('status', { enum: STORED_PAYOUT_STATUSES }).notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [oneOf('payee_payout_accounts_status_check', t.status, STORED_PAYOUT_STATUSES)],
);

/**
 * How many submissions have each status, kept by triggers on `submissions` (migrations 0003 and
 * 0030), so the admin dashboard's counts cost one tiny read instead of a pass over every
 * submission (docs/decisions/040-admin-list-at-scale.md). A status's count is the sum of its
 * shards: each transaction writes to one shard of its own choosing, so transactions that add
 * submissions at the same moment do not queue on one row until commit (decision 186). Never
 * written by application code.
 */
export const submissionStatusCounts = pgTable(
  'submission_status_counts',
  {
    status: text('status').notNull(),
    shard: smallint('shard').notNull().default(0),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'submission_status_counts_pkey', columns: [t.status, t.shard] })],
);

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
    field: text('field', { enum: HISTORY_FIELDS }).notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    /** Why the status changed (STATUS_CHANGE_REASONS, domain/submission/transition.ts); null on other fields. */
    reason: text('reason', { enum: STATUS_CHANGE_REASONS }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('submission_history_reason_check', t.reason, STATUS_CHANGE_REASONS),
    index('submission_history_submission_idx').on(t.submissionId, t.createdAt),
    oneOf('submission_history_field_check', t.field, HISTORY_FIELDS),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    fromUserId: text('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null: an artist's message to the label team (CONTRACT §18). */
    toUserId: text('to_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The artist whose team conversation this is; null between two team members (decision 159). */
    artistId: text('artist_id').references(() => users.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_from_created_idx').on(t.fromUserId, t.createdAt),
    index('messages_to_created_idx').on(t.toUserId, t.createdAt),
    index('messages_unread_idx').on(t.toUserId, t.fromUserId).where(sql`${t.isRead} = false`),
    index('messages_artist_created_idx').on(t.artistId, t.createdAt),
    index('messages_team_unread_idx').on(t.artistId, t.fromUserId).where(sql`${t.isRead} = false AND ${t.artistId} IS NOT NULL`),
  ],
);

/**
 * One row per artist: their conversation with the whole label team, pointing at its latest
 * message (CONTRACT §18, decision 159). Every admin's conversation list pages these; the
 * per-person `conversations` rows remain for messages between two team members.
 */
export const teamConversations = pgTable(
  'team_conversations',
  {
    artistId: text('artist_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageId: text('last_message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('team_conversations_latest_idx').on(t.lastMessageAt.desc(), t.artistId.desc())],
);

/** The files a message carries (CONTRACT §18), in the order they were sent. */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    uploadId: text('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'message_attachments_pk', columns: [t.messageId, t.position] }), index('message_attachments_upload_idx').on(t.uploadId)],
);

/**
 * One row per person per conversation (each message makes or moves two: the sender's and the
 * recipient's), pointing at its latest message. GET /api/messages/conversations pages these by
 * (user, latest first) on one index instead of grouping a user's whole history on each read;
 * unread counts are still counted from messages, on messages_unread_idx
 * (docs/decisions/141-conversations-on-the-server.md).
 */
export const conversations = pgTable(
  'conversations',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    otherUserId: text('other_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageId: text('last_message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.otherUserId] }),
    index('conversations_user_latest_idx').on(t.userId, t.lastMessageAt.desc(), t.otherUserId.desc()),
  ],
);

/**
 * A file a user uploaded. The row is made when the upload URL is issued (status `pending`);
 * `receiving` while this server streams the bytes in (local storage, or a resumable upload
 * until its last byte), `checking` while a normalisation route checks them, `stored` once they
 * are in the store. `receiving` and `checking` are claims held until `leaseUntil`: a claim whose
 * holder crashed simply expires, and the upload can be tried again. `size` and `contentType` are
 * set by the normalisation routes once they have checked the bytes; only then may a submission
 * reference the upload. Rows never attached to a submission are removed after 24 hours (CONTRACT §5).
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'receiving', 'checking', 'stored'] }).notNull().default('pending'),
    size: bigint('size', { mode: 'number' }),
    contentType: text('content_type'),
    fileName: text('file_name'),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    /**
     * Hex digests of the stored bytes, kept the first time a handover needs them (CONTRACT §28,
     * decision 198): stored bytes never change, so a digest once computed stays true.
     */
    md5: text('md5'),
    sha256: text('sha256'),
    /** Until when a `receiving` or `checking` claim holds; null for a resumable upload (tus locks it). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
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

/**
 * The review desk's working state of a submission (CONTRACT §14): who is on it, its tags, the
 * average of the team's ratings and how much of its track the team has heard. Kept beside
 * `submissions` rather than in it, so nothing of the team's internal work can ever reach an
 * artist's view of the row. A submission without a row here is unassigned, untagged, unrated
 * and unheard (docs/decisions/110-review-desk-data.md).
 */
export const submissionDesk = pgTable(
  'submission_desk',
  {
    submissionId: text('submission_id')
      .primaryKey()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    assigneeId: text('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** When the assignee was set: fair assignment's tie-break (assigned least recently, CONTRACT §26). */
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** Kept in step with `submission_ratings` by the rating's own transaction; null when unrated. */
    ratingAverage: real('rating_average'),
    ratingCount: integer('rating_count').notNull().default(0),
    /** Merged, sorted [start, end] second ranges of the track the team has played. */
    listenedRanges: jsonb('listened_ranges').$type<[number, number][]>().notNull().default(sql`'[]'::jsonb`),
    /** Covered share of the track, 0..1. */
    listenedShare: real('listened_share').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('submission_desk_assignee_idx').on(t.assigneeId),
    index('submission_desk_tags_idx').using('gin', t.tags),
    index('submission_desk_rating_idx').on(t.ratingAverage),
  ],
);

/** One admin's 1–5 rating of a submission, with a short comment; one per admin and submission. */
export const submissionRatings = pgTable(
  'submission_ratings',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    adminId: text('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    score: smallint('score').notNull(),
    comment: text('comment'),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.adminId] })],
);

/** Review texts the team reuses, with `{artistName}` and `{songTitle}` placeholders. */
export const reviewTemplates = pgTable(
  'review_templates',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    body: text('body').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [uniqueIndex('review_templates_name_key').on(sql`lower(${t.name})`)],
);

/** A team member's comment pinned to a moment of the track; internal unless visible to the artist. */
export const trackComments = pgTable(
  'track_comments',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => users.id, { onDelete: 'set null' }),
    atSeconds: real('at_seconds').notNull(),
    text: text('text').notNull(),
    visibleToArtist: boolean('visible_to_artist').notNull().default(false),
    /** CONTRACT §27: the version of the track the comment is about; it stays there when a new version comes. */
    round: integer('round').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('track_comments_submission_idx').on(t.submissionId, t.atSeconds)],
);

/**
 * Every version of a submission's music (or video), one per round (CONTRACT §27, decision 197):
 * round 1 is what the artist first sent (written when the submission goes to the label), rounds
 * 2 to 4 the new versions. The submission row holds the current version's fields; an earlier
 * version's upload stays attached to the submission (so it is backed up, exported and listed with
 * the submission's files) and is never overwritten or removed while the submission lasts.
 */
export const submissionVersions = pgTable(
  'submission_versions',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    round: integer('round').notNull(),
    /** The artist's word on what changed; null for round 1. */
    note: text('note'),
    fileName: text('file_name'),
    /** A link version's URL; null for an uploaded file. */
    url: text('url'),
    /** An uploaded version's `/objects/uploads/{id}`; null for a link. */
    objectPath: text('object_path'),
    uploadId: text('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('submission_versions_submission_round_key').on(t.submissionId, t.round),
    check('submission_versions_round_check', sql`${t.round} between 1 and ${sql.raw(String(MAX_ROUND))}`),
  ],
);
export type SubmissionVersionRow = typeof submissionVersions.$inferSelect;

/**
 * The waveform of an uploaded track, computed once when the upload is checked
 * (PUT /api/music-files), so a player draws it at once whatever the file's size.
 */
export const audioPeaks = pgTable('audio_peaks', {
  uploadId: text('upload_id')
    .primaryKey()
    .references(() => uploads.id, { onDelete: 'cascade' }),
  durationSeconds: real('duration_seconds').notNull(),
  /** Peak amplitude per equal slice of the track, 0..1 with three decimals. */
  peaks: jsonb('peaks').$type<number[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

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
 * One email to one person (docs/decisions/081-outbox.md). Written in the transaction of the change
 * that causes it, sent by the `email.send` job. `templateData` is what the template needs, frozen
 * at the change; subject and bodies are kept as they were sent (secret links masked) so the
 * Outbox page shows exactly what went out. `dedupeKey` makes several causes (three unread
 * messages) share one pending email.
 */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    templateData: jsonb('template_data').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    dedupeKey: text('dedupe_key'),
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('outbox_emails_created_idx').on(t.createdAt),
    index('outbox_emails_user_kind_idx').on(t.userId, t.kind, t.createdAt),
    uniqueIndex('outbox_emails_pending_dedupe_key').on(t.dedupeKey).where(sql`${t.status} = 'pending'`),
    oneOf('outbox_emails_status_check', t.status, OUTBOX_STATUSES),
  ],
);

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

/**
 * What stays of a payment when the submission it paid for is deleted with its account
 * (CONTRACT §11): the label's accounting record, with no personal data and no link to a person.
 */
export const paymentRecords = pgTable(
  'payment_records',
  {
    stripePaymentIntentId: text('stripe_payment_intent_id').primaryKey(),
    /** The deleted submission's id, kept only to match Stripe's own records. */
    submissionId: text('submission_id').notNull(),
    pricingTier: text('pricing_tier', { enum: PRICING_TIERS }).notNull(),
    amount: numeric('amount', { precision: 10, scale: 2 }),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('payment_records_pricing_tier_check', t.pricingTier, PRICING_TIERS),
    oneOf('payment_records_payment_status_check', t.paymentStatus, PAYMENT_STATUSES),
  ],
);

/**
 * Invoices and credit notes (CONTRACT §19), each a record that does not change once issued: the
 * buyer, plan and amount as they were at issue. Kept when the submission or account goes
 * (accounting records): the links then turn null.
 */
export const billingDocuments = pgTable(
  'billing_documents',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: BILLING_DOCUMENT_KINDS }).notNull(),
    year: integer('year').notNull(),
    sequence: integer('sequence').notNull(),
    /** INV-2026-000001 / CN-2026-000001 (documentNumber in src/shared/billing.ts). */
    number: text('number').notNull(),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    pricingTier: text('pricing_tier', { enum: PRICING_TIERS }).notNull(),
    songTitle: text('song_title').notNull(),
    /** What Stripe charged (or refunded), in the currency's smallest unit. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    buyerName: text('buyer_name'),
    buyerEmail: text('buyer_email'),
    buyerCountry: text('buyer_country'),
    /** On a credit note: the invoice it cancels. */
    invoiceNumber: text('invoice_number'),
    /** The seller and VAT rate as at issue; null on documents issued before they were kept (migration 0024). */
    seller: jsonb('seller').$type<BillingSeller>(),
  },
  (t) => [
    uniqueIndex('billing_documents_number_key').on(t.number),
    uniqueIndex('billing_documents_kind_year_sequence_key').on(t.kind, t.year, t.sequence),
    uniqueIndex('billing_documents_submission_kind_key').on(t.submissionId, t.kind),
    index('billing_documents_user_idx').on(t.userId, t.issuedAt),
    oneOf('billing_documents_kind_check', t.kind, BILLING_DOCUMENT_KINDS),
    oneOf('billing_documents_pricing_tier_check', t.pricingTier, PRICING_TIERS),
  ],
);

/** The last number issued per kind and year; bumped in the transaction that issues the next one. */
export const billingDocumentCounters = pgTable(
  'billing_document_counters',
  {
    kind: text('kind', { enum: BILLING_DOCUMENT_KINDS }).notNull(),
    year: integer('year').notNull(),
    lastSequence: integer('last_sequence').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.year] }), oneOf('billing_document_counters_kind_check', t.kind, BILLING_DOCUMENT_KINDS)],
);

export type BillingDocumentRow = typeof billingDocuments.$inferSelect;

export type UserRow = typeof users.$inferSelect;
export type OutboxEmailRow = typeof outboxEmails.$inferSelect;
export type SubmissionRow = typeof submissions.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
export type SubmissionDeskRow = typeof submissionDesk.$inferSelect;
export type TrackCommentRow = typeof trackComments.$inferSelect;
export type DeliveryCommentRow = typeof deliveryComments.$inferSelect;

/**
 * What an artist did that the team should hear (issue 33 part 4, decision 174), written by one
 * domain verb (domain/submission/artist-activity.ts) and pushed live to the team.
 */
export const artistActivity = pgTable(
  'artist_activity',
  {
    id: text('id').primaryKey(),
    /** Not a foreign key: a withdrawal deletes the submission, and its activity is still heard. */
    submissionId: text('submission_id').notNull(),
    songTitle: text('song_title').notNull(),
    kind: text('kind', { enum: ARTIST_ACTIVITY_KINDS }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('artist_activity_submission_idx').on(t.submissionId, t.createdAt),
    index('artist_activity_created_idx').on(t.createdAt),
    oneOf('artist_activity_kind_check', t.kind, ARTIST_ACTIVITY_KINDS),
  ],
);

/** When each admin last looked at a submission's artist activity: newer activity is "new" to them. */
export const artistActivitySeen = pgTable(
  'artist_activity_seen',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'artist_activity_seen_pk', columns: [t.userId, t.submissionId] })],
);

/**
 * An endpoint of the label's other tools that receives webhooks (CONTRACT §28). `secret` is the
 * signing secret sealed with the token key (platform/token-box.ts), never the secret itself.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  secret: text('secret').notNull(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A fact as it happened, written in the transaction that made it (domain/webhook/queue-webhook-event.ts). */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The webhook outbox: one row per event and endpoint, claimed by one instance at a time
 * (`leaseUntil`), retried at `nextAttemptAt` until delivered or given up (decision 198).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_key').on(t.eventId, t.endpointId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    oneOf('webhook_deliveries_status_check', t.status, WEBHOOK_DELIVERY_STATUSES),
  ],
);

/** Each attempt at a delivery, with the receiver's status code (null: no answer). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_key').on(t.deliveryId, t.attempt)],
);
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
