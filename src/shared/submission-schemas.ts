import type { QueuePlace } from './decisions';
import { z } from 'zod';
import type { ScreenStatus, YouTubeUploadState } from './production';
import type { DeskState } from './review-desk';
import {
  FILE_LIMITS,
  OBJECT_PATH_PATTERN,
  PAYMENT_STATUSES,
  PRICING_TIERS,
  RELEASE_DATE_OPTIONS,
  MOOD_MAX,
  SUBMISSION_TEXT_MAX,
  REFUND_REASONS,
  RELEASE_STATUSES,
  SUBMISSION_METHODS,
  SUBMISSION_TYPES,
  SUBMISSION_STATUSES,
  SUBMISSIONS_PAGE_MAX,
  SUBMISSIONS_PAGE_SIZE,
  URL_MAX_LENGTH,
  VIDEO_STYLES,
  isHttpLink,
} from './submissions';
import { GENRE_CHOICES } from './genres';
import { VIDEO_PLAN_TEXT, plansFor } from './plans';
import { CONTENT_ID_ANSWERS, DISTRIBUTOR_MAX, OWNER_ROLES, draftOwnersSchema, isrcSchema, ownersSchema, type DeskRightsState } from './rights';
import { ARTIST_NAME_MAX, ARTIST_NAME_TOO_LONG, AUTH_MESSAGES, type PublicProfile } from './auth';

/** SPEC §5's messages, letter for letter, plus the ones SPEC leaves to us. */
export const SUBMISSION_MESSAGES = {
  artistName: AUTH_MESSAGES.artistName,
  songTitle: 'Song title is required',
  termsAccepted: 'You must accept the Terms of Service and Privacy Policy to continue',
  musicUrl: 'Please enter a valid link (http or https) to your music',
  musicFile: 'Please upload your music file',
  objectPath: 'Must be a file uploaded to this site',
  videoUrl: 'Please enter a valid link (http or https) to your video',
  videoFile: 'Please upload your video file',
  videoHasNoMusic: 'A finished video is sent without a separate music file or link',
  genre: 'Choose one of the listed genres, or Other',
  tooManyStyleImages: `At most ${FILE_LIMITS.maxStyleImages} style reference images`,
  tooManyCharacterImages: `At most ${FILE_LIMITS.maxCharacterImages} character images`,
  // SPEC §5 labels the lyrics required when the song has them and §2 offers a specific date: both
  // were ticked or chosen and left empty, and the review then read "Lyrics: Yes" (issue 36).
  lyrics: 'Add the lyrics, or untick "This song has lyrics"',
  releaseDate: 'Choose the release date, or pick another option',
} as const;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);

const httpUrlWith = (message: string) =>
  z
    .string()
    .trim()
    .max(URL_MAX_LENGTH, `Links must be at most ${URL_MAX_LENGTH} characters`)
    .refine(isHttpLink, message);
export const httpUrl = httpUrlWith(SUBMISSION_MESSAGES.musicUrl);

/** Absent, null and '' all mean "none" and become null. */
function blankable<T extends z.ZodType<string>>(schema: T) {
  return z
    .union([schema, z.literal('')])
    .nullish()
    .transform((v) => (v ? (v as z.output<T>) : null));
}

const optionalHttpUrl = blankable(httpUrl);
const optionalVideoUrl = blankable(httpUrlWith(SUBMISSION_MESSAGES.videoUrl));

export const objectPathSchema = z.string().regex(OBJECT_PATH_PATTERN, SUBMISSION_MESSAGES.objectPath);
const pricingTier = z.enum(PRICING_TIERS, { message: 'Choose a plan: free, basic, premium or professional' });
const optionalObjectPath = blankable(objectPathSchema);

/**
 * Every field an artist sets, each checked on its own and without defaults: a draft may hold any
 * subset of them (CONTRACT §12).
 */
const submissionFields = {
  submissionType: z.enum(SUBMISSION_TYPES, { message: 'Choose a track or a finished video' }),
  submissionMethod: z.enum(SUBMISSION_METHODS, { message: 'Choose link or upload' }),
  musicUrl: optionalHttpUrl,
  musicFileUrl: optionalObjectPath,
  videoUrl: optionalVideoUrl,
  videoFileUrl: optionalObjectPath,
  artworkUrl: optionalObjectPath,
  releaseStatus: z.enum(RELEASE_STATUSES, { message: 'Choose released or unreleased' }),
  releaseDate: blankable(z.iso.date({ message: 'Release date must be a date (YYYY-MM-DD)' })),
  releaseDateOption: blankable(z.enum(RELEASE_DATE_OPTIONS)),
  artistName: z.string({ message: SUBMISSION_MESSAGES.artistName }).trim().max(ARTIST_NAME_MAX, ARTIST_NAME_TOO_LONG),
  songTitle: z
    .string({ message: SUBMISSION_MESSAGES.songTitle })
    .trim()
    .max(SUBMISSION_TEXT_MAX.songTitle, `Song title must be at most ${SUBMISSION_TEXT_MAX.songTitle} characters`),
  hasLyrics: z.boolean(),
  lyricsLanguage: text(SUBMISSION_TEXT_MAX.lyricsLanguage),
  lyrics: text(SUBMISSION_TEXT_MAX.lyrics),
  description: text(SUBMISSION_TEXT_MAX.description),
  aiUsage: z.boolean(),
  videoStyle: z.enum(VIDEO_STYLES, { message: 'Choose custom or non-custom' }),
  styleReferenceUrls: z.array(objectPathSchema).max(FILE_LIMITS.maxStyleImages, SUBMISSION_MESSAGES.tooManyStyleImages),
  characterImageUrls: z.array(objectPathSchema).max(FILE_LIMITS.maxCharacterImages, SUBMISSION_MESSAGES.tooManyCharacterImages),
  creativeDirection: text(SUBMISSION_TEXT_MAX.creativeDirection),
  pricingTier,
  publishOnYoutube: z.boolean(),
  genre: text(100).refine((v) => v === null || (GENRE_CHOICES as readonly string[]).includes(v), SUBMISSION_MESSAGES.genre),
  mood: text(MOOD_MAX),
  /** CONTRACT §22: the split sheet (the artist first), Content ID, the distributor and the ISRC. */
  owners: draftOwnersSchema.nullable(),
  contentId: z.enum(CONTENT_ID_ANSWERS, { message: 'Choose yes, no or I don’t know' }),
  distributor: text(DISTRIBUTOR_MAX),
  isrc: isrcSchema,
};

/**
 * The rules a submission must meet to go to the label (SPEC §5, CONTRACT §4, §12). A track needs
 * its music (a link or an upload) and a video style; a finished video needs its video (a link or
 * an upload) and no separate music. Video style, references and creative direction describe the
 * video the label would make, so a finished video carries none of them.
 */
export const createSubmissionSchema = z
  .object({
    ...submissionFields,
    submissionType: submissionFields.submissionType.default('track'),
    artistName: submissionFields.artistName.min(1, SUBMISSION_MESSAGES.artistName),
    songTitle: submissionFields.songTitle.min(1, SUBMISSION_MESSAGES.songTitle),
    hasLyrics: z.boolean().default(false),
    aiUsage: z.boolean().default(false),
    videoStyle: submissionFields.videoStyle.optional(),
    styleReferenceUrls: submissionFields.styleReferenceUrls.default([]),
    characterImageUrls: submissionFields.characterImageUrls.default([]),
    publishOnYoutube: z.boolean().default(true),
    // Left out: the artist alone at 100% (CONTRACT §22).
    owners: ownersSchema.nullish().transform((v) => v ?? null),
    contentId: submissionFields.contentId.default('unknown'),
    termsAccepted: z.literal(true, { message: SUBMISSION_MESSAGES.termsAccepted }),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.submissionType === 'video') {
      if (v.submissionMethod === 'link' && !v.videoUrl) issue('videoUrl', SUBMISSION_MESSAGES.videoUrl);
      if (v.submissionMethod === 'upload' && !v.videoFileUrl) issue('videoFileUrl', SUBMISSION_MESSAGES.videoFile);
      if (v.musicUrl || v.musicFileUrl) issue(v.musicUrl ? 'musicUrl' : 'musicFileUrl', SUBMISSION_MESSAGES.videoHasNoMusic);
      // A finished video takes the Free plan only (decision 154).
      if (!plansFor('video').includes(v.pricingTier)) issue('pricingTier', VIDEO_PLAN_TEXT);
      return;
    }
    if (v.submissionMethod === 'link' && !v.musicUrl) issue('musicUrl', SUBMISSION_MESSAGES.musicUrl);
    if (v.submissionMethod === 'upload' && !v.musicFileUrl) issue('musicFileUrl', SUBMISSION_MESSAGES.musicFile);
    if (!v.videoStyle) issue('videoStyle', 'Choose custom or non-custom');
  })
  .superRefine((v, ctx) => {
    if (v.hasLyrics && !v.lyrics) ctx.addIssue({ code: 'custom', path: ['lyrics'], message: SUBMISSION_MESSAGES.lyrics });
    if (v.releaseStatus === 'unreleased' && v.releaseDateOption === 'specific' && !v.releaseDate) {
      ctx.addIssue({ code: 'custom', path: ['releaseDate'], message: SUBMISSION_MESSAGES.releaseDate });
    }
  })
  .transform((v) =>
    v.submissionType === 'video'
      ? { ...v, videoStyle: 'non-custom' as const, styleReferenceUrls: [], characterImageUrls: [], creativeDirection: null }
      : { ...v, videoStyle: v.videoStyle ?? ('non-custom' as const) },
  );
export type CreateSubmissionInput = z.input<typeof createSubmissionSchema>;

/** The wizard's steps, 1-based; a draft remembers where the artist was. */
const WIZARD_STEP_MAX = 5;

/**
 * POST /api/submissions/drafts and PATCH /api/submissions/{id}: any subset of the fields, each
 * checked; a field left out keeps its value. The terms may be ticked but are only required to submit.
 */
export const draftSubmissionSchema = z
  .object(submissionFields)
  .partial()
  .extend({
    termsAccepted: z.boolean().optional(),
    draftStep: z.number().int().min(1).max(WIZARD_STEP_MAX).optional(),
  });
export type DraftSubmissionInput = z.input<typeof draftSubmissionSchema>;

/** POST /api/submissions/{id}/tier (CONTRACT §12). */
export const changeTierSchema = z.object({ pricingTier });

/** An upload a draft refers to, so the wizard can show it again when the artist comes back. */
export interface AttachedFile {
  objectPath: string;
  fileName: string | null;
  size: number | null;
  contentType: string | null;
}

const nullableString = z.string().nullable();

/**
 * A submission as its artist sees it (no internal admin notes), as the API sends it: the one
 * description of the shape, its enums taken from the shared lists. Dates are ISO strings. The
 * server compiles the list's serialiser from this schema (platform/response-schemas.ts), so a
 * field not listed here never leaves it.
 */
export const submissionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  submissionType: z.enum(SUBMISSION_TYPES),
  submissionMethod: z.enum(SUBMISSION_METHODS),
  musicUrl: nullableString,
  musicFileUrl: nullableString,
  videoUrl: nullableString,
  videoFileUrl: nullableString,
  artworkUrl: nullableString,
  releaseStatus: z.enum(RELEASE_STATUSES),
  releaseDate: nullableString,
  releaseDateOption: z.enum(RELEASE_DATE_OPTIONS).nullable(),
  artistName: z.string(),
  songTitle: z.string(),
  hasLyrics: z.boolean(),
  lyricsLanguage: nullableString,
  lyrics: nullableString,
  description: nullableString,
  aiUsage: z.boolean(),
  videoStyle: z.enum(VIDEO_STYLES),
  styleReferenceUrls: z.array(z.string()),
  characterImageUrls: z.array(z.string()),
  creativeDirection: nullableString,
  pricingTier: z.enum(PRICING_TIERS),
  publishOnYoutube: z.boolean(),
  termsAccepted: z.boolean(),
  status: z.enum(SUBMISSION_STATUSES),
  adminReview: nullableString,
  adminReviewedAt: nullableString,
  adminReviewedBy: nullableString,
  stripePaymentIntentId: nullableString,
  paymentStatus: z.enum(PAYMENT_STATUSES).nullable(),
  amount: nullableString,
  genre: nullableString,
  mood: nullableString,
  /** Where the wizard was when a draft was last saved (null once submitted). */
  draftStep: z.number().int().nullable(),
  /** The label changed the status or the review since the artist last opened it. */
  hasUnseenUpdate: z.boolean(),
  /** After approval (CONTRACT §13): the delivery deadline (paid tiers), the first delivery, a refund. */
  dueAt: nullableString,
  deliveredAt: nullableString,
  refundReason: z.enum(REFUND_REASONS).nullable(),
  refundRequestedAt: nullableString,
  stripeRefundId: nullableString,
  /** The licence record: SHA-256 of the Terms text accepted, and when. */
  termsHash: nullableString,
  termsAcceptedAt: nullableString,
  /** The cut the artist approved and when (CONTRACT §17); cleared by a later delivery. */
  approvedDeliveryId: nullableString,
  cutApprovedAt: nullableString,
  /** CONTRACT §22: the split sheet (the artist alone at 100% unless set), Content ID and the allowlist. */
  owners: z.array(z.object({ name: z.string(), email: nullableString, role: z.enum(OWNER_ROLES), share: z.number() })),
  contentId: z.enum(CONTENT_ID_ANSWERS),
  distributor: nullableString,
  isrc: nullableString,
  allowlistDoneAt: nullableString,
  /** CONTRACT §27: which version of the music (or video) the submission holds; the original is 1. */
  round: z.number().int(),
  /** CONTRACT §26: the answer promised by this date (null before the clock starts: a draft, an unpaid plan). */
  decisionDueAt: nullableString,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Submission = z.infer<typeof submissionSchema>;

/**
 * GET /api/submissions: a submission with what its dashboard row shows beside it, so a row reads
 * nothing of its own (issue 50, decision 196's amendment): the place in the team's queue while it
 * waits for a decision (CONTRACT §26), and whether its licence agreement waits for the artist's
 * hand (CONTRACT §22).
 */
export const submissionListItemSchema = submissionSchema.extend({
  /** 1 = next in the team's queue; null when it does not wait for a decision. */
  queuePosition: z.number().int().nullable(),
  /** Approved on, the agreement waits for the artist's signature or one on behalf of an owner without an email. */
  agreementAwaitsArtist: z.boolean(),
});
export type SubmissionListItem = z.infer<typeof submissionListItemSchema>;

/** GET /api/submissions/{id} for its owner: with the uploads it refers to, for a draft's wizard. */
export interface OwnSubmission extends Submission {
  files: AttachedFile[];
  /** CONTRACT §26: the place in the team's queue (1 = next; null once decided) and the decision date. */
  queue: QueuePlace;
}

/** An admin's view: the internal notes and the submitting user. */
export interface AdminSubmission extends Submission {
  adminNotes: string | null;
  user: PublicProfile | null;
  /** The review desk's working state: assignee, tags, rating, listening (CONTRACT §14). */
  desk: DeskState;
  /** Where publishing on the label's channel stands (CONTRACT §16, §23), for the desk list; null when never asked. */
  publishing: DeskPublishing | null;
  /** What publishing waits for (CONTRACT §22), from approval on; null before (issue 43 item 9). */
  rights: DeskRightsState | null;
  /** The viral screen of its 14-day hit (CONTRACT §25): `suspect` waits for the team; null without a screened hit. */
  viralScreen: ScreenStatus | null;
}

/** A publication's state as the desk list shows it: retrying, failed (and why), … */
export interface DeskPublishing {
  state: YouTubeUploadState;
  attempts: number;
  /** YouTube's reason for the last refusal (`quotaExceeded`, …), when it gave one. */
  errorReason: string | null;
  /** What the team can do, in words (publicationAdvice), for the badge's tooltip. */
  advice: string | null;
}

/** GET /api/submissions?before={id}&limit=: the page of the caller's submissions older than `before`. */
export const submissionsQuerySchema = z.object({
  before: z.string().trim().max(64).optional().transform((v) => v || undefined),
  limit: z.coerce.number().int().min(1).max(SUBMISSIONS_PAGE_MAX).default(SUBMISSIONS_PAGE_SIZE),
});

export const artistStatsSchema = z.object({
  total: z.number().int(),
  approved: z.number().int(),
  underReview: z.number().int(),
  completed: z.number().int(),
});
export type ArtistStats = z.infer<typeof artistStatsSchema>;

/**
 * The admin's four cards (CONTRACT §8). `pending` is what the team must act on: submissions in
 * status pending, i.e. free ones and paid ones whose payment arrived (the payment moves
 * payment_pending to pending). Submissions waiting for the artist's payment are the artist's move,
 * so they are counted apart, in `awaitingPayment` (payment_pending and payment_failed), shown under
 * the Pending card (docs/decisions/114-pending-card.md).
 */
export interface AdminStats {
  total: number;
  pending: number;
  underReview: number;
  approved: number;
  awaitingPayment: number;
}

/** POST /api/url-metadata */
export const urlMetadataSchema = z.object({ url: httpUrl });
export interface UrlMetadata {
  title: string;
  thumbnail: string | null;
}

/** Upload normalisation bodies (SPEC §7). */
export const musicFileSchema = z.object({
  musicFileURL: z.string().min(1, 'musicFileURL is required').max(4096),
  fileName: z.string().max(500).optional(),
  fileSize: z.number().nonnegative().optional(),
});
export const videoFileSchema = z.object({
  videoFileURL: z.string().min(1, 'videoFileURL is required').max(4096),
  fileName: z.string().max(500).optional(),
  fileSize: z.number().nonnegative().optional(),
});
/** PUT /api/admin/deliverable-files: a file the team delivers (CONTRACT §13). */
export const deliverableFileSchema = z.object({
  deliverableFileURL: z.string().min(1, 'deliverableFileURL is required').max(4096),
  fileName: z.string().max(500).optional(),
});
export const artworkFileSchema = z.object({
  artworkFileURL: z.string().min(1, 'artworkFileURL is required').max(4096),
  fileName: z.string().max(500).optional(),
});
export const referenceFilesSchema = z.object({
  referenceFileURLs: z
    .array(z.string().min(1).max(4096))
    .min(1, 'referenceFileURLs needs at least one file')
    .max(FILE_LIMITS.maxStyleImages, SUBMISSION_MESSAGES.tooManyStyleImages),
  /** The files' names as chosen, in the same order, so a resumed draft lists them by name. */
  fileNames: z.array(z.string().max(500)).max(FILE_LIMITS.maxStyleImages).optional(),
});
export const characterFilesSchema = z.object({
  characterFileURLs: z
    .array(z.string().min(1).max(4096))
    .min(1, 'characterFileURLs needs at least one file')
    .max(FILE_LIMITS.maxCharacterImages, SUBMISSION_MESSAGES.tooManyCharacterImages),
  /** The files' names as chosen, in the same order. */
  fileNames: z.array(z.string().max(500)).max(FILE_LIMITS.maxCharacterImages).optional(),
});
