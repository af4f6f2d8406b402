/** Submission statuses, tiers and limits (SPEC §4, §5, §9): the one source for both sides. */
export { LICENSED_SUBMISSION_MESSAGE, VIDEO_PLAN_TEXT } from './submission-texts';

export const SUBMISSION_STATUSES = [
  'draft',
  'pending',
  'under_review',
  /** The team asked for a new version of the music (or video) (CONTRACT §27); the artist answers with one. */
  'changes_requested',
  'approved',
  'in_creation',
  'completed',
  /** The video is on the label's channel (CONTRACT §13); set by recording the publication. */
  'published',
  'rejected',
  'archived',
  'payment_pending',
  'payment_failed',
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const STATUS_LABELS: Record<SubmissionStatus, string> = {
  draft: 'Draft',
  pending: 'Pending',
  under_review: 'Under Review',
  changes_requested: 'Changes Requested',
  approved: 'Approved',
  in_creation: 'In Creation',
  completed: 'Completed',
  published: 'Published',
  rejected: 'Rejected',
  archived: 'Archived',
  payment_pending: 'Payment Pending',
  payment_failed: 'Payment Failed',
};

/** 'Draft' is also shown for any unknown or missing status (SPEC §4). */
export function statusLabel(status: string | null | undefined): string {
  return (STATUS_LABELS as Record<string, string>)[status ?? ''] ?? STATUS_LABELS.draft;
}

/** Statuses an admin may set by hand (CONTRACT §8). */
export const ADMIN_SETTABLE_STATUSES = [
  'pending',
  'under_review',
  'changes_requested',
  'approved',
  'in_creation',
  'completed',
  'rejected',
  'archived',
] as const satisfies readonly SubmissionStatus[];
export type AdminSettableStatus = (typeof ADMIN_SETTABLE_STATUSES)[number];

/** Why a payment was refunded (CONTRACT §13, §19, §21): by the team, automatically for a late delivery, because the label turned the paid submission down, or because the artist withdrew it, or because no decision came by the promised date (§26). */
export const REFUND_REASONS = ['admin', 'late_delivery', 'rejected', 'withdrawn', 'late_decision'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/**
 * A paid submission's payment as Stripe last reported it (CONTRACT §6, §13): `pending` until the
 * PaymentIntent succeeds or fails, `refunded` once Stripe confirms a refund. Null on a free one.
 */
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PRICING_TIERS = ['free', 'basic', 'premium', 'professional'] as const;
export type PricingTier = (typeof PRICING_TIERS)[number];
const PAID_TIERS = ['basic', 'premium', 'professional'] as const satisfies readonly PricingTier[];

export function isPaidTier(tier: string | null | undefined): boolean {
  return (PAID_TIERS as readonly string[]).includes(tier ?? '');
}

interface TierInfo {
  name: string;
  /** Price in whole US dollars. */
  priceUsd: number;
  promises: string[];
}

/**
 * What each tier promises after payment (SPEC §9, CONTRACT §13): days from the moment the
 * payment succeeded to the delivery deadline (null: no timeline guarantee), and how many
 * revisions the artist may ask for after a delivery. The tiers' promise texts are made from it.
 */
export const TIER_DELIVERY: Record<PricingTier, { days: number | null; revisions: number }> = {
  free: { days: null, revisions: 0 },
  basic: { days: 5, revisions: 0 },
  premium: { days: 7, revisions: 0 },
  professional: { days: 7, revisions: 3 },
};

/** "5-day delivery", or "No timeline guarantee" for a tier without a deadline. */
const deliveryPromise = (tier: PricingTier) => {
  const { days } = TIER_DELIVERY[tier];
  return days === null ? 'No timeline guarantee' : `${days}-day delivery`;
};

export const TIERS: Record<PricingTier, TierInfo> = {
  free: { name: 'Free', priceUsd: 0, promises: [deliveryPromise('free')] },
  basic: { name: 'Basic', priceUsd: 49, promises: ['AI Image Pack: 80 AI images', deliveryPromise('basic')] },
  premium: { name: 'Premium', priceUsd: 99, promises: ['DIY Edit Plan: 80 clips', deliveryPromise('premium')] },
  professional: {
    name: 'Professional',
    priceUsd: 199,
    promises: [deliveryPromise('professional'), `${TIER_DELIVERY.professional.revisions} revisions`],
  },
};

export const PROCESSING_FEE_USD = 0;

const DAY_MS = 24 * 60 * 60 * 1000;

/** `dueAt` of a submission whose payment succeeded at `paidAt`; null for a tier without a deadline. */
export function deliveryDueAt(tier: PricingTier, paidAt: Date): Date | null {
  const days = TIER_DELIVERY[tier].days;
  return days === null ? null : new Date(paidAt.getTime() + days * DAY_MS);
}

/** The amount stored on a submission: a decimal string with 2 places, as PostgreSQL numeric(10,2) returns it. */
export function tierAmount(tier: PricingTier): string {
  return TIERS[tier].priceUsd.toFixed(2);
}

export function formatUsd(amount: number | string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));
}

/** The longest link the product accepts (a browser's practical limit): music, video and reference links. */
export const URL_MAX_LENGTH = 2048;

/** A link the product accepts for music or a video (CONTRACT §4, §12): it parses, and it is http(s). */
export function isHttpLink(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A link as people paste it, made whole: "soundcloud.com/nyx/thing" (a host with a dot, no
 * spaces, no scheme) gets https:// in front; anything else is left as typed, to be judged as it is.
 */
export function withLinkScheme(text: string): string {
  const typed = text.trim();
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(typed)) return typed;
  return /^[^\s/:]+\.[a-z]{2,}(?::\d+)?(?:[/?#]\S*)?$/i.test(typed) ? `https://${typed}` : typed;
}

export const SUBMISSION_METHODS = ['link', 'upload'] as const;
export type SubmissionMethod = (typeof SUBMISSION_METHODS)[number];

/**
 * What the artist sends (CONTRACT §12): a track for the label to make a video of, or a finished
 * video to publish as it is.
 */
export const SUBMISSION_TYPES = ['track', 'video'] as const;
export type SubmissionType = (typeof SUBMISSION_TYPES)[number];
export const SUBMISSION_TYPE_LABELS: Record<SubmissionType, string> = {
  track: 'A track for a music video',
  video: 'A finished video to publish',
};
export const RELEASE_STATUSES = ['released', 'unreleased'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];
export const RELEASE_DATE_OPTIONS = ['specific', 'undecided', 'asap'] as const;
export type ReleaseDateOption = (typeof RELEASE_DATE_OPTIONS)[number];
export const RELEASE_DATE_OPTION_LABELS: Record<ReleaseDateOption, string> = {
  specific: 'Specific date',
  undecided: 'Undecided',
  asap: 'As soon as possible',
};
/**
 * A released track came out on a day that has passed: the artist may give it, but "Undecided" and
 * "As soon as possible" are for tracks still to come (issue 23: the review read "Released · Undecided").
 */
export function releaseDateOptionsFor(status: ReleaseStatus): readonly ReleaseDateOption[] {
  return status === 'released' ? ['specific'] : RELEASE_DATE_OPTIONS;
}
export const VIDEO_STYLES = ['custom', 'non-custom'] as const;
export type VideoStyle = (typeof VIDEO_STYLES)[number];

const MB = 1024 * 1024;
export const FILE_LIMITS = {
  musicBytes: 100 * MB,
  /** A finished video for direct publishing (CONTRACT §12), uploaded resumably. */
  videoBytes: 2 * 1024 * MB,
  imageBytes: 10 * MB,
  /** A file attached to a message (CONTRACT §18): image, audio, video or PDF. */
  attachmentBytes: 100 * MB,
  /** Files one message may carry. */
  maxAttachments: 5,
  maxStyleImages: 12,
  maxCharacterImages: 12,
  maxCharacters: 6,
} as const;

/**
 * A byte count in words, for limits and file sizes on both sides: "100 MB", "2 GB", "3.4 MB",
 * "12 KB" (binary units, at most one decimal).
 */
export function formatBytes(bytes: number): string {
  const oneDecimal = (n: number) => Number(n.toFixed(1));
  if (bytes < MB) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 * MB) return `${oneDecimal(bytes / MB)} MB`;
  return `${oneDecimal(bytes / (1024 * MB))} GB`;
}

/**
 * The formats recognised from a file's bytes, by family: the extension file-type detects → the
 * Content-Type stored and served. Each upload kind (music, images, videos, deliverables, message
 * attachments) accepts the families it needs from here.
 */
export const MEDIA_TYPES = {
  image: { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' },
  audio: { mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/ogg', m4a: 'audio/mp4' },
  video: { mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm' },
} as const;

/** The formats each kind of upload accepts, in words (SPEC §5, CONTRACT §12). */
export const FILE_FORMATS = {
  music: 'MP3, WAV, OGG or MP4',
  image: 'JPG, PNG or WEBP',
  video: 'MP4, MOV or WebM',
} as const;

/** Where resumable (tus) uploads of finished videos are created (CONTRACT §12). */
export const RESUMABLE_UPLOADS_PATH = '/api/video-uploads';

/** SPEC §9: a failed upload is tried again after 0, 1000, 3000 and 5000 ms (every uploader). */
export const UPLOAD_RETRY_DELAYS_MS = [0, 1000, 3000, 5000] as const;

/** Dashboard filter cards (SPEC §4: all, approved, under_review, completed); the list's status filter offers every status besides. */
export type DashboardFilter = 'all' | SubmissionStatus;

/**
 * The statuses a dashboard filter stands for, the one rule of the stat cards, their counts
 * (GET /api/stats) and the list they filter: a published video is a completed one that went on
 * to the label's channel, so "Completed" counts and shows it too. Drafts have not gone to the
 * label and are in no count (CONTRACT §12).
 */
export const DASHBOARD_FILTER_STATUSES: Partial<Record<DashboardFilter, readonly SubmissionStatus[]>> = {
  completed: ['completed', 'published'],
};
export function matchesDashboardFilter(status: SubmissionStatus, filter: DashboardFilter): boolean {
  if (filter === 'all') return status !== 'draft';
  return (DASHBOARD_FILTER_STATUSES[filter] ?? [filter]).includes(status);
}

/** Statuses in which a payment is due: the artist's "Unpaid" marker and the tier change (CONTRACT §12). */
export const PAYMENT_DUE_STATUSES = ['payment_pending', 'payment_failed'] as const satisfies readonly SubmissionStatus[];
export const isPaymentDue = (status: string): boolean => (PAYMENT_DUE_STATUSES as readonly string[]).includes(status);

/** A publication may be recorded once the team approved the track, and again to correct it (CONTRACT §13). */
export const PUBLISHABLE_STATUSES = ['approved', 'in_creation', 'completed', 'published'] as const satisfies readonly SubmissionStatus[];
export const isPublishable = (status: string): boolean => (PUBLISHABLE_STATUSES as readonly string[]).includes(status);

/**
 * Withdrawal by the licence (CONTRACT §12): the artist may delete a submission in these statuses;
 * from approval on the label holds an irrevocable licence (SPEC §1, Terms of Service).
 */
export const ARTIST_DELETABLE_STATUSES = [
  'draft',
  'pending',
  'under_review',
  'changes_requested',
  'payment_pending',
  'payment_failed',
  'rejected',
  'archived',
] as const satisfies readonly SubmissionStatus[];
export const isArtistDeletable = (status: string): boolean => (ARTIST_DELETABLE_STATUSES as readonly string[]).includes(status);
/**
 * The rest: from approval on, the work is licensed to the label. It stays when the artist deletes
 * their account (CONTRACT §11), and the deletion screen and Privacy Policy name these statuses.
 */
export const LICENSED_STATUSES: readonly SubmissionStatus[] = SUBMISSION_STATUSES.filter((status) => !isArtistDeletable(status));

/**
 * Revise and resubmit (CONTRACT §27, decision 197). The team may ask for changes only while it is
 * still deciding; the artist answers with a new version, at most MAX_NEW_VERSIONS times: the
 * original is round 1, so a submission's round is 1 to MAX_ROUND.
 */
export const CHANGES_REQUESTABLE_STATUSES = ['pending', 'under_review'] as const satisfies readonly SubmissionStatus[];
export const MAX_NEW_VERSIONS = 3;
export const MAX_ROUND = 1 + MAX_NEW_VERSIONS;

/** Mood is free text (CONTRACT §12). */
export const MOOD_MAX = 100;

/** The longest each of the wizard's free texts may be: its input stops there and the server refuses more. */
export const SUBMISSION_TEXT_MAX = {
  songTitle: 200,
  lyricsLanguage: 100,
  lyrics: 20_000,
  description: 5_000,
  creativeDirection: 5_000,
} as const;

/**
 * The shape of every id that may appear in a URL (uploads, submissions): application-made UUIDs
 * match it; anything else is "not found" before it reaches a query or the object store.
 */
const ID_SOURCE = '[A-Za-z0-9-]{1,64}';
export const OBJECT_ID_PATTERN = new RegExp(`^${ID_SOURCE}$`);

/** Where uploaded files live once normalised (CONTRACT §5): `/objects/uploads/{id}`. */
const OBJECT_PATH_PREFIX = '/objects/uploads/';
export const OBJECT_PATH_PATTERN = new RegExp(`^${OBJECT_PATH_PREFIX}(${ID_SOURCE})$`);
export const objectPathOf = (uploadId: string): string => `${OBJECT_PATH_PREFIX}${uploadId}`;

/** The upload id of an `/objects/uploads/{id}` path, or null for anything else (a bare file name, a link). */
export function uploadIdFromObjectPath(objectPath: string): string | null {
  return OBJECT_PATH_PATTERN.exec(objectPath)?.[1] ?? null;
}

/** Default and largest page of GET /api/submissions (newest first). */
export const SUBMISSIONS_PAGE_SIZE = 50;
export const SUBMISSIONS_PAGE_MAX = 100;

export type PaymentState = 'free' | 'paid' | 'unpaid' | 'failed' | 'refunded';

/** A submission's payment as the desk shows it; "paid" is the same rule as the list's `?paid=true`. */
export function paymentStateOf(tier: string, paymentStatus: string | null): PaymentState {
  if (tier === 'free') return 'free';
  if (paymentStatus === 'succeeded') return 'paid';
  if (paymentStatus === 'failed') return 'failed';
  if (paymentStatus === 'refunded') return 'refunded';
  return 'unpaid';
}

export const PAYMENT_STATE_LABELS: Record<PaymentState, string> = {
  free: 'No payment',
  paid: 'Paid',
  unpaid: 'Unpaid',
  failed: 'Payment failed',
  refunded: 'Refunded',
};


