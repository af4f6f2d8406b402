// Production: a delivery's comments and files, the publication, its views, the label's channel and uploads to it. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { oneOf, timestamps } from './columns';
import { users } from './accounts';
import { deliveries, submissions } from './submissions';
import { uploads } from './uploads';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { ROLES } from '../../../../shared/auth';
import { COUNT_SOURCES, PRIVACY_STATUSES, SCREEN_STATUSES, YOUTUBE_UPLOAD_STATES, type TrafficSource } from '../../../../shared/production';

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

export type DeliveryCommentRow = typeof deliveryComments.$inferSelect;
