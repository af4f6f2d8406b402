// Submissions: the submission, its history, counts, review desk, ratings, templates and track comments;
// and its deliveries, which sit here because the submission names its approved cut (approved_delivery_id)
// and the areas import each other in one direction only. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
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
import { oneOf, timestamps } from './columns';
import { users } from './accounts';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { HISTORY_FIELDS, STATUS_CHANGE_REASONS } from '../../../../shared/admin';
import { CONTENT_ID_ANSWERS, type Owner } from '../../../../shared/rights';
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
} from '../../../../shared/submissions';

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
 * How many submissions have each status, kept by triggers on `submissions` (migrations 0003,
 * 0030 and 0037), so the admin dashboard's counts cost one tiny read instead of a pass over every
 * submission (docs/decisions/040-admin-list-at-scale.md). A status's count is the sum of its
 * shards: each transaction writes to one of 128 shards by its transaction id, so transactions
 * that add submissions at the same moment rarely queue on one row until commit (decisions 186
 * and 208). Never written by application code.
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

export type SubmissionRow = typeof submissions.$inferSelect;

export type SubmissionDeskRow = typeof submissionDesk.$inferSelect;

export type TrackCommentRow = typeof trackComments.$inferSelect;
