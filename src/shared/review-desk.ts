import { z } from 'zod';
import { ADMIN_REVIEW_MAX, STATUS_MESSAGE, requireReviewForChanges, reviewSchema as review, tagSchema } from './admin';
import { ADMIN_SETTABLE_STATUSES, MAX_ROUND, paymentStateOf, type AdminSettableStatus } from './submissions';

/**
 * The review desk for a team (CONTRACT §14): assignment, tags, ratings, templates, bulk changes,
 * timestamped comments and listening progress. The server validates with these schemas; the
 * client types from them (docs/decisions/110-review-desk-data.md).
 */

export const BULK_IDS_MAX = 200;
export const TAGS_PER_SUBMISSION_MAX = 20;
/** The refusal when a submission would carry more than TAGS_PER_SUBMISSION_MAX tags (single route and bulk). */
export const TOO_MANY_TAGS_MESSAGE = `A submission can have at most ${TAGS_PER_SUBMISSION_MAX} tags`;
/** One bulk `tag` change's refusal, naming how many submissions it would take past the limit. */
export const tooManyTagsInBulkMessage = (count: number) =>
  `${count} of the chosen submissions would have more than ${TAGS_PER_SUBMISSION_MAX} tags; nothing was changed`;
/** Beside the id (`ids.N`) of each submission a bulk tag change would take past the limit. */
export const tooManyTagsFor = (count: number) => `This submission would have ${count} tags; at most ${TAGS_PER_SUBMISSION_MAX} are allowed`;
const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_COMMENT_MAX = 280;
export const TEMPLATE_NAME_MAX = 80;
export const COMMENT_TEXT_MAX = 1_000;
/** Longer than any track the label takes; a bound so a bogus moment is refused, not stored. */
const TRACK_SECONDS_MAX = 6 * 60 * 60;
/** Points of a stored waveform: enough for a sharp line across a wide screen, ~8 KB of JSON. */
export const WAVEFORM_POINTS = 1_000;

const idSchema = z.string({ message: 'ids must be text' }).min(1, 'An id cannot be empty').max(100, 'An id is at most 100 characters');

/** POST /api/admin/submissions/bulk. */
export const bulkActionSchema = z.intersection(
  z.object({
    ids: z
      .array(idSchema, { message: 'ids must be a list' })
      .min(1, 'Choose at least one submission')
      .max(BULK_IDS_MAX, `At most ${BULK_IDS_MAX} submissions at once`)
      .transform((ids) => [...new Set(ids)]),
  }),
  z.discriminatedUnion(
    'action',
    [
      z
        .object({ action: z.literal('status'), status: z.enum(ADMIN_SETTABLE_STATUSES, { message: STATUS_MESSAGE }), review })
        .superRefine(requireReviewForChanges),
      z.object({ action: z.literal('assign'), assigneeId: idSchema.nullable() }),
      z.object({
        action: z.literal('tag'),
        add: z.array(tagSchema).max(TAGS_PER_SUBMISSION_MAX).default([]),
        remove: z.array(tagSchema).max(TAGS_PER_SUBMISSION_MAX).default([]),
      }),
      z.object({ action: z.literal('delete') }),
    ],
    { message: 'action must be one of status, assign, tag, delete' },
  ),
);
export type BulkActionInput = z.input<typeof bulkActionSchema>;
export type BulkAction = z.output<typeof bulkActionSchema>;

/** PUT /api/admin/submissions/{id}/assignee. */
export const assignSchema = z.object({ assigneeId: idSchema.nullable() });

/** PUT /api/admin/submissions/{id}/tags: the submission's whole tag list. */
export const tagsSchema = z.object({
  tags: z
    .array(tagSchema, { message: 'tags must be a list' })
    .max(TAGS_PER_SUBMISSION_MAX, TOO_MANY_TAGS_MESSAGE)
    .transform((tags) => [...new Set(tags)]),
});

/** PUT /api/admin/submissions/{id}/rating. */
export const ratingSchema = z.object({
  score: z
    .number({ message: `score must be a whole number from ${RATING_MIN} to ${RATING_MAX}` })
    .int(`score must be a whole number from ${RATING_MIN} to ${RATING_MAX}`)
    .min(RATING_MIN, `score must be a whole number from ${RATING_MIN} to ${RATING_MAX}`)
    .max(RATING_MAX, `score must be a whole number from ${RATING_MIN} to ${RATING_MAX}`),
  comment: z
    .string({ message: 'comment must be text' })
    .trim()
    .max(RATING_COMMENT_MAX, `The comment must be at most ${RATING_COMMENT_MAX} characters`)
    .nullish()
    .transform((v) => v || null),
});

/** POST /api/admin/review-templates and PUT …/{id}. */
export const reviewTemplateSchema = z.object({
  name: z
    .string({ message: 'name must be text' })
    .trim()
    .min(1, 'Name is required')
    .max(TEMPLATE_NAME_MAX, `Name must be at most ${TEMPLATE_NAME_MAX} characters`),
  body: z
    .string({ message: 'body must be text' })
    .trim()
    .min(1, 'Text is required')
    .max(ADMIN_REVIEW_MAX, `Text must be at most ${ADMIN_REVIEW_MAX} characters`),
});

/** POST /api/admin/submissions/{id}/comments. */
const roundSchema = z
  .number({ message: 'round must be a whole number' })
  .int('round must be a whole number')
  .min(1, 'round starts at 1')
  .max(MAX_ROUND, `round is at most ${MAX_ROUND}`);

export const trackCommentSchema = z.object({
  atSeconds: z
    .number({ message: 'atSeconds must be a number of seconds' })
    .min(0, 'atSeconds cannot be negative')
    .max(TRACK_SECONDS_MAX, 'atSeconds is past the end of any track'),
  text: z
    .string({ message: 'text must be text' })
    .trim()
    .min(1, 'The comment cannot be empty')
    .max(COMMENT_TEXT_MAX, `The comment must be at most ${COMMENT_TEXT_MAX} characters`),
  visibleToArtist: z.boolean({ message: 'visibleToArtist must be true or false' }).default(false),
  /** CONTRACT §27: the version the comment is about; absent: the current one. */
  round: roundSchema.optional(),
});

/** GET /api/admin/submissions/{id}/waveform?round=: a version's waveform; absent: the current one. */
export const waveformQuerySchema = z.object({
  round: z.coerce.number({ message: 'round must be a whole number' }).pipe(roundSchema).optional(),
});

const seconds = (name: string) =>
  z.number({ message: `${name} must be a number of seconds` }).min(0, `${name} cannot be negative`).max(TRACK_SECONDS_MAX, `${name} is too large`);

/** POST /api/admin/submissions/{id}/listening: a stretch of the track the player played. */
export const listeningSchema = z
  .object({ from: seconds('from'), to: seconds('to'), durationSeconds: seconds('durationSeconds').positive().optional() })
  .refine((v) => v.to >= v.from, { message: 'to must not be before from', path: ['to'] });

/** `{artistName}` and `{songTitle}` in a review text, filled in for one submission. */
export function fillReviewTemplate(body: string, values: { artistName: string; songTitle: string }): string {
  return body.replace(/\{(artistName|songTitle)\}/g, (_match, key: 'artistName' | 'songTitle') => values[key]);
}

/** Merges [start, end] ranges into sorted, non-overlapping ones. */
export function mergeRanges(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...ranges].filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** The share of a track of `duration` seconds that the ranges cover, 0..1. */
export function coveredShare(ranges: readonly (readonly [number, number])[], duration: number): number {
  if (!(duration > 0)) return 0;
  const covered = mergeRanges(ranges.map(([a, b]) => [Math.max(0, a), Math.min(duration, b)] as const)).reduce((sum, [a, b]) => sum + (b - a), 0);
  return Math.min(1, covered / duration);
}

/** The desk's working state of one submission, as the list and details show it. */
export interface DeskState {
  assignee: TeamMember | null;
  tags: string[];
  /** Average of the team's ratings, one decimal; null when nobody rated. */
  ratingAverage: number | null;
  ratingCount: number;
  /** 0..1 of the track the team has listened to. */
  listenedShare: number;
}

export interface TeamMember {
  id: string;
  name: string;
}

interface SubmissionRating {
  admin: TeamMember;
  score: number;
  comment: string | null;
  updatedAt: string;
}

/** GET …/ratings and the answer of PUT …/rating. */
export interface SubmissionRatings {
  ratings: SubmissionRating[];
  average: number | null;
}

export interface ReviewTemplate {
  id: string;
  name: string;
  body: string;
  updatedAt: string;
}

export interface TrackComment {
  id: string;
  atSeconds: number;
  text: string;
  visibleToArtist: boolean;
  /** CONTRACT §27: the version of the track the comment is about (1: the original). */
  round: number;
  createdAt: string;
  /** The team member who wrote it; artists see the label's name instead. */
  author: TeamMember | null;
}

/** GET /api/admin/submissions/{id}/waveform. */
export interface Waveform {
  durationSeconds: number;
  peaks: number[];
}

/** POST /api/admin/submissions/bulk. */
export interface BulkResult {
  updated: number;
}

/** `m:ss` (or `h:mm:ss`) for a moment of a track. */
export function formatTrackTime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Statuses that move a submission forward; a paid-tier one that hasn't been paid gets a warning first. */
const ADVANCING_STATUSES = ['under_review', 'approved', 'in_creation', 'completed'] as const satisfies readonly AdminSettableStatus[];
type AdvancingStatus = (typeof ADVANCING_STATUSES)[number];
const isAdvancingStatus = (status: string): status is AdvancingStatus => (ADVANCING_STATUSES as readonly string[]).includes(status);

/**
 * A paid-tier submission whose payment has not succeeded: none yet, pending, failed or refunded.
 * The same rule as the list's `?paid=false` (decision 110), so the warning and the filter agree.
 */
export function isUnpaidPaidTier(tier: string, paymentStatus: string | null): boolean {
  const state = paymentStateOf(tier, paymentStatus);
  return state !== 'free' && state !== 'paid';
}

type PaymentOf = { pricingTier: string; paymentStatus: string | null };

/** Whether moving a submission to `status` asks first (UNPAID_WARNING): advancing one that isn't paid. */
export function needsUnpaidWarning(status: string, submission: PaymentOf): boolean {
  return isAdvancingStatus(status) && isUnpaidPaidTier(submission.pricingTier, submission.paymentStatus);
}

export const UNPAID_WARNING = 'This submission is on a paid plan and has not been paid yet.';
export const REFUNDED_WARNING = 'This submission is on a paid plan and its payment was refunded.';

/** The status dialog's warning before moving `targets` to `status`, or null when none is needed. */
export function unpaidWarningFor(status: string, targets: readonly PaymentOf[]): string | null {
  const unpaid = targets.filter((s) => needsUnpaidWarning(status, s));
  if (unpaid.length === 0) return null;
  if (targets.length === 1) return paymentStateOf(unpaid[0]!.pricingTier, unpaid[0]!.paymentStatus) === 'refunded' ? REFUNDED_WARNING : UNPAID_WARNING;
  return `${unpaid.length} of these submissions are on a paid plan and have not been paid yet, or were refunded.`;
}
