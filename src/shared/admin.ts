import { DECISION_FILTERS } from './decisions';
import { z } from 'zod';
import { DUE_FILTERS, SCREEN_STATUSES } from './production';
import { RIGHTS_STATE_MESSAGE, RIGHTS_STATES } from './rights';
import { ADMIN_SETTABLE_STATUSES, SUBMISSION_STATUSES } from './submissions';
import type { AdminStats, AdminSubmission } from './submission-schemas';

/** The wire of the admin API (CONTRACT §8): the server validates with it, the client types from it. */

export const ADMIN_PAGE_SIZE_DEFAULT = 50;
const ADMIN_PAGE_SIZE_MAX = 200;
const ADMIN_SEARCH_MAX = 200;
export const ADMIN_NOTES_MAX = 10_000;
export const ADMIN_REVIEW_MAX = 5_000;

const positiveInt = (name: string, max?: number) => {
  let schema = z.coerce
    .number({ message: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`);
  if (max !== undefined) schema = schema.max(max, `${name} must be at most ${max}`);
  return schema;
};

export const TAG_MAX_LENGTH = 40;

/** Tags are compared and stored lower-cased, so "Synthwave" and "synthwave" are one tag. */
export const tagSchema = z
  .string({ message: 'A tag must be text' })
  .trim()
  .toLowerCase()
  .min(1, 'A tag cannot be empty')
  .max(TAG_MAX_LENGTH, `A tag must be at most ${TAG_MAX_LENGTH} characters`);

/** Who a submission is assigned to, as the list filter names it. */
export const ASSIGNEE_FILTERS = ['me', 'none'] as const;

export const SORTS = ['created', 'due', 'rating', 'decision'] as const;
export type AdminSort = (typeof SORTS)[number];

/** The review desk's additions to the admin list query (CONTRACT §14). */
const deskListQueryShape = {
  assignee: z
    .string()
    .trim()
    .max(100, 'assignee is at most 100 characters')
    .optional()
    .transform((v) => v || undefined),
  tag: z
    .string()
    .trim()
    .toLowerCase()
    .max(TAG_MAX_LENGTH, `A tag must be at most ${TAG_MAX_LENGTH} characters`)
    .optional()
    .transform((v) => v || undefined),
  paid: z
    .enum(['true', 'false'], { message: 'paid must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  sort: z
    .enum(SORTS, { message: `sort must be one of ${SORTS.join(', ')}` })
    .optional()
    .transform((v): AdminSort => v ?? 'created'),
  /** Deadlines (CONTRACT §13): not yet delivered and past due, due today (UTC) or within 7 days. */
  due: z
    .union([z.enum(DUE_FILTERS), z.literal('')], { message: `due must be one of ${DUE_FILTERS.join(', ')}` })
    .optional()
    .transform((v) => v || undefined),
  /** Views that are real (CONTRACT §25): `?viral=suspect` lists the hits waiting for the team's decision. */
  viral: z
    .union([z.enum(SCREEN_STATUSES), z.literal('')], { message: `viral must be one of ${SCREEN_STATUSES.join(', ')}` })
    .optional()
    .transform((v) => v || undefined),
  /** Decisions (CONTRACT §26): waiting and past the promised date, or due before the end of today (UTC). */
  decision: z
    .union([z.enum(DECISION_FILTERS), z.literal('')], { message: `decision must be one of ${DECISION_FILTERS.join(', ')}` })
    .optional()
    .transform((v) => v || undefined),
  /** Rights before release (CONTRACT §22): what publishing waits for (issue 43 item 9). */
  rights: z
    .union([z.enum(RIGHTS_STATES), z.literal('')], { message: RIGHTS_STATE_MESSAGE })
    .optional()
    .transform((v) => v || undefined),
};

/**
 * GET /api/admin/submissions query. Out-of-range paging is refused (400), never clamped, so a
 * client bug shows up instead of silently answering another page (docs/decisions/040).
 */
export const adminListQuerySchema = z.object({
  status: z
    .union([z.enum(SUBMISSION_STATUSES), z.literal('all'), z.literal('')], { message: 'Unknown status' })
    .optional()
    .transform((v) => (v && v !== 'all' ? v : undefined)),
  q: z
    .string()
    .trim()
    .max(ADMIN_SEARCH_MAX, `Search must be at most ${ADMIN_SEARCH_MAX} characters`)
    .optional()
    .transform((v) => v || undefined),
  page: positiveInt('page').default(1),
  pageSize: positiveInt('pageSize', ADMIN_PAGE_SIZE_MAX).default(ADMIN_PAGE_SIZE_DEFAULT),
  ...deskListQueryShape,
});
export type AdminListQuery = z.output<typeof adminListQuerySchema>;

/** GET /api/admin/submissions.csv: the list's filters, without paging or sort (newest first). */
export const adminCsvQuerySchema = adminListQuerySchema.omit({ page: true, pageSize: true, sort: true });

export const STATUS_MESSAGE = `Status must be one of ${ADMIN_SETTABLE_STATUSES.join(', ')}`;

/** The review sent with a status change (single or bulk): absent keeps the current one, blank clears it. */
export const reviewSchema = z
  .string({ message: 'review must be text' })
  .trim()
  .max(ADMIN_REVIEW_MAX, `Review must be at most ${ADMIN_REVIEW_MAX} characters`)
  .nullish()
  .transform((v) => (v === undefined ? undefined : v || null));

/** CONTRACT §27: asking for changes says what to change. */
export const CHANGES_REVIEW_REQUIRED = 'Say what the artist should change: a review is required to request changes';

/** The rule of both status changes (single and bulk): `changes_requested` comes with a review. */
export function requireReviewForChanges(value: { status: string; review?: string | null | undefined }, ctx: z.RefinementCtx): void {
  if (value.status === 'changes_requested' && !value.review) ctx.addIssue({ code: 'custom', path: ['review'], message: CHANGES_REVIEW_REQUIRED });
}

/** PATCH /api/admin/submissions/{id}/status. */
export const statusChangeSchema = z
  .object({
    status: z.enum(ADMIN_SETTABLE_STATUSES, { message: STATUS_MESSAGE }),
    review: reviewSchema,
  })
  .superRefine(requireReviewForChanges);
export type StatusChangeInput = z.input<typeof statusChangeSchema>;

/** PATCH /api/admin/submissions/{id}/notes. Blank clears the notes. */
export const notesSchema = z.object({
  notes: z
    .string({ message: 'notes must be text' })
    .max(ADMIN_NOTES_MAX, `Notes must be at most ${ADMIN_NOTES_MAX} characters`)
    .nullable()
    .transform((v) => (v?.trim() ? v : null)),
});

export interface AdminSubmissionPage {
  submissions: AdminSubmission[];
  stats: AdminStats;
  /** Rows matching status and q, across all pages; for a search, at most SEARCH_COUNT_CAP. */
  total: number;
  /** True when a search matched more than `total` rows and counting stopped there. */
  totalCapped: boolean;
  page: number;
  pageSize: number;
}

export const HISTORY_FIELDS = [
  'status',
  'notes',
  'payment_status',
  'review',
  'assignee',
  'tags',
  'delivery',
  'revision',
  'refund',
  'publication',
  'views',
  /** CONTRACT §22: the split sheet changed, an owner signed, the allowlist done, a publication without the rights. */
  'owners',
  'agreement',
  'allowlist',
  'rights_override',
  /** CONTRACT §25: the team's decision on a suspect hit, and a hit the second look withdrew. */
  'viral_review',
  'viral_hit',
  /** CONTRACT §27: the artist sent a new version; from and to are the rounds. */
  'version',
] as const;
export type HistoryField = (typeof HISTORY_FIELDS)[number];

/**
 * Why a submission's status changed, kept on its history row beside who changed it. Each names one
 * row of the allowed moves (ALLOWED_STATUS_MOVES in server/domain/submission/transition.ts).
 */
export const STATUS_CHANGE_REASONS = [
  'submitted',
  'review',
  'tier_changed',
  'checkout_reopened',
  'payment_succeeded',
  'payment_failed',
  'published',
  /** No decision by the promised date: a free submission closed by the system (CONTRACT §26). */
  'late_decision',
  /** CONTRACT §27: the team asked for a new version. */
  'changes_requested',
  /** CONTRACT §27: the artist sent the new version; the submission is back in the queue. */
  'resubmitted',
] as const;
export type StatusChangeReason = (typeof STATUS_CHANGE_REASONS)[number];

/** GET /api/admin/submissions/{id}/history: oldest first. */
export interface SubmissionHistoryEntry {
  id: string;
  field: HistoryField;
  fromValue: string | null;
  toValue: string | null;
  createdAt: string;
  /** Null for system changes (a payment webhook) or a deleted account. */
  actor: { id: string; name: string } | null;
}

/**
 * PUT /api/admin/me/availability: an admin marks themselves away (skipped by fair assignment,
 * CONTRACT §26) and back. Here, not in decisions.ts, whose texts an artist's first page imports
 * without zod.
 */
export const availabilitySchema = z.object({ away: z.boolean({ message: 'away must be true or false' }) });
export type Availability = z.infer<typeof availabilitySchema>;
