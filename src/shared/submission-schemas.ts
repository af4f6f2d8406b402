import { z } from 'zod';
import {
  FILE_LIMITS,
  OBJECT_PATH_PATTERN,
  PRICING_TIERS,
  RELEASE_DATE_OPTIONS,
  RELEASE_STATUSES,
  SUBMISSION_METHODS,
  VIDEO_STYLES,
  type PricingTier,
  type SubmissionStatus,
} from './submissions';
import type { PublicUser } from './auth';

/** SPEC §5's messages, letter for letter, plus the ones SPEC leaves to us. */
export const SUBMISSION_MESSAGES = {
  artistName: 'Artist name is required',
  songTitle: 'Song title is required',
  termsAccepted: 'You must accept the Terms of Service and Privacy Policy to continue',
  musicUrl: 'Please enter a valid link (http or https) to your music',
  musicFile: 'Please upload your music file',
  objectPath: 'Must be a file uploaded to this site',
  tooManyStyleImages: `At most ${FILE_LIMITS.maxStyleImages} style reference images`,
  tooManyCharacterImages: `At most ${FILE_LIMITS.maxCharacterImages} character images`,
} as const;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);

const httpUrl = z
  .string()
  .trim()
  .max(2048, 'Links must be at most 2048 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, SUBMISSION_MESSAGES.musicUrl);

/** Absent, null and '' all mean "none" and become null. */
function blankable<T extends z.ZodType<string>>(schema: T) {
  return z
    .union([schema, z.literal('')])
    .nullish()
    .transform((v) => (v ? (v as z.output<T>) : null));
}

const optionalHttpUrl = blankable(httpUrl);

const objectPath = z.string().regex(OBJECT_PATH_PATTERN, SUBMISSION_MESSAGES.objectPath);
const optionalObjectPath = blankable(objectPath);

/** POST /api/submissions (SPEC §5, CONTRACT §4). Server-set fields are not part of it. */
export const createSubmissionSchema = z
  .object({
    submissionMethod: z.enum(SUBMISSION_METHODS, { message: 'Choose link or upload' }),
    musicUrl: optionalHttpUrl,
    musicFileUrl: optionalObjectPath,
    videoUrl: optionalHttpUrl,
    videoFileUrl: optionalObjectPath,
    artworkUrl: optionalObjectPath,
    releaseStatus: z.enum(RELEASE_STATUSES, { message: 'Choose released or unreleased' }),
    releaseDate: blankable(z.iso.date({ message: 'Release date must be a date (YYYY-MM-DD)' })),
    releaseDateOption: blankable(z.enum(RELEASE_DATE_OPTIONS)),
    artistName: z.string({ message: SUBMISSION_MESSAGES.artistName }).trim().min(1, SUBMISSION_MESSAGES.artistName).max(200, 'Artist name must be at most 200 characters'),
    songTitle: z.string({ message: SUBMISSION_MESSAGES.songTitle }).trim().min(1, SUBMISSION_MESSAGES.songTitle).max(200, 'Song title must be at most 200 characters'),
    hasLyrics: z.boolean().default(false),
    lyricsLanguage: text(100),
    lyrics: text(20_000),
    description: text(5_000),
    aiUsage: z.boolean().default(false),
    videoStyle: z.enum(VIDEO_STYLES, { message: 'Choose custom or non-custom' }),
    styleReferenceUrls: z.array(objectPath).max(FILE_LIMITS.maxStyleImages, SUBMISSION_MESSAGES.tooManyStyleImages).default([]),
    characterImageUrls: z
      .array(objectPath)
      .max(FILE_LIMITS.maxCharacterImages, SUBMISSION_MESSAGES.tooManyCharacterImages)
      .default([]),
    creativeDirection: text(5_000),
    pricingTier: z.enum(PRICING_TIERS, { message: 'Choose a plan: free, basic, premium or professional' }),
    publishOnYoutube: z.boolean().default(true),
    termsAccepted: z.literal(true, { message: SUBMISSION_MESSAGES.termsAccepted }),
    genre: text(100),
    mood: text(100),
  })
  .superRefine((v, ctx) => {
    if (v.submissionMethod === 'link' && !v.musicUrl) {
      ctx.addIssue({ code: 'custom', path: ['musicUrl'], message: SUBMISSION_MESSAGES.musicUrl });
    }
    if (v.submissionMethod === 'upload' && !v.musicFileUrl) {
      ctx.addIssue({ code: 'custom', path: ['musicFileUrl'], message: SUBMISSION_MESSAGES.musicFile });
    }
  });
export type CreateSubmissionInput = z.input<typeof createSubmissionSchema>;

/** A submission as its artist sees it (no internal admin notes). Dates are ISO strings. */
export interface Submission {
  id: string;
  userId: string;
  submissionMethod: 'link' | 'upload';
  musicUrl: string | null;
  musicFileUrl: string | null;
  videoUrl: string | null;
  videoFileUrl: string | null;
  artworkUrl: string | null;
  releaseStatus: 'released' | 'unreleased';
  releaseDate: string | null;
  releaseDateOption: 'specific' | 'undecided' | 'asap' | null;
  artistName: string;
  songTitle: string;
  hasLyrics: boolean;
  lyricsLanguage: string | null;
  lyrics: string | null;
  description: string | null;
  aiUsage: boolean;
  videoStyle: 'custom' | 'non-custom';
  styleReferenceUrls: string[];
  characterImageUrls: string[];
  creativeDirection: string | null;
  pricingTier: PricingTier;
  publishOnYoutube: boolean;
  termsAccepted: boolean;
  status: SubmissionStatus;
  adminReview: string | null;
  adminReviewedAt: string | null;
  adminReviewedBy: string | null;
  stripePaymentIntentId: string | null;
  paymentStatus: string | null;
  amount: string | null;
  genre: string | null;
  mood: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An admin's view: the internal notes and the submitting user. */
export interface AdminSubmission extends Submission {
  adminNotes: string | null;
  user: PublicUser | null;
}

export interface ArtistStats {
  total: number;
  approved: number;
  underReview: number;
  completed: number;
}

export interface AdminStats {
  total: number;
  pending: number;
  underReview: number;
  approved: number;
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
export const artworkFileSchema = z.object({
  artworkFileURL: z.string().min(1, 'artworkFileURL is required').max(4096),
  fileName: z.string().max(500).optional(),
});
export const referenceFilesSchema = z.object({
  referenceFileURLs: z
    .array(z.string().min(1).max(4096))
    .min(1, 'referenceFileURLs needs at least one file')
    .max(FILE_LIMITS.maxStyleImages, SUBMISSION_MESSAGES.tooManyStyleImages),
});
export const characterFilesSchema = z.object({
  characterFileURLs: z
    .array(z.string().min(1).max(4096))
    .min(1, 'characterFileURLs needs at least one file')
    .max(FILE_LIMITS.maxCharacterImages, SUBMISSION_MESSAGES.tooManyCharacterImages),
});
