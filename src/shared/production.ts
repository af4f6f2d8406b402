import type { EarningShare } from './payees';
import { z } from 'zod';
import type { PayoutAccountStatus } from './payouts';
import { errorText } from './errors';
import { MEDIA_TYPES, OBJECT_ID_PATTERN, OBJECT_PATH_PATTERN, URL_MAX_LENGTH, type RefundReason } from './submissions';

/**
 * After approval (CONTRACT §13): deliveries, revisions, refunds, the publication on the label's
 * channel, the 14-day viral check and the bonus ledger: the wire shapes and their rules. What the
 * artist's screens say and allow on their own is in production-texts.ts (decision 144).
 */

/** SPEC §1: a hit reaches half the subscribers locked at publishing within this many days. */
const VIRAL_CHECK_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `2 × views ≥ subscribers`, in whole numbers: 31,000 subscribers → 15,500 views is a hit, 15,499 is not. */
export function isViralHit(views: number, subscriberCount: number): boolean {
  return 2 * views >= subscriberCount;
}

/** The fewest views that make a hit. */
export function viewsNeeded(subscriberCount: number): number {
  return Math.ceil(subscriberCount / 2);
}

/**
 * The 14 days the check counts, as the Analytics API's dates (UTC): the publish date and the 13
 * after it, whenever the check runs (CONTRACT §16).
 */
export function viewWindow(publishedAt: Date): { startDate: string; endDate: string } {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return { startDate: day(publishedAt), endDate: day(new Date(publishedAt.getTime() + (VIRAL_CHECK_DAYS - 1) * DAY_MS)) };
}

/**
 * YouTube Analytics reports a day two to three days after it ends, so at day 14 the window's last
 * days are often missing. With the channel connected, the check waits for the window's last day
 * to be reported, trying again every ANALYTICS_RETRY_HOURS, for at most ANALYTICS_WAIT_DAYS after
 * `checkAt`; then it records what was reported (a day without a row had no views reported).
 */
const ANALYTICS_RETRY_HOURS = 6;
const ANALYTICS_WAIT_DAYS = 4;

/** The check's next try while Analytics lags, or null once it has waited long enough. */
export function analyticsRetryAt(checkAt: Date, now: Date): Date | null {
  const waitEnds = checkAt.getTime() + ANALYTICS_WAIT_DAYS * DAY_MS;
  if (now.getTime() >= waitEnds) return null;
  return new Date(Math.min(now.getTime() + (ANALYTICS_RETRY_HOURS * DAY_MS) / 24, waitEnds));
}

/** When the 14-day check reads the views. */
export function viralCheckAt(publishedAt: Date): Date {
  return new Date(publishedAt.getTime() + VIRAL_CHECK_DAYS * DAY_MS);
}

export const DELIVERY_NOTE_MAX = 2000;
/** A comment on a delivery (CONTRACT §17): 1–2000 characters. */
export const DELIVERY_COMMENT_TEXT_MAX = 2000;
/** The latest moment a comment can point at: longer than any cut the label makes. */
export const DELIVERY_COMMENT_AT_MAX_S = 24 * 60 * 60;
export const REVISION_NOTE_MAX = 2000;
/** Files in one delivery: an image pack may come as single images. */
const DELIVERY_FILES_MAX = 100;
/**
 * What the team may deliver (CONTRACT §13), judged from the bytes: images, a ZIP, audio, video.
 * File extension as file-type detects it → the Content-Type stored and served.
 */
export const DELIVERABLE_TYPES: Record<string, string> = { ...MEDIA_TYPES.image, zip: 'application/zip', ...MEDIA_TYPES.audio, ...MEDIA_TYPES.video };
export const isDeliverableType = (contentType: string | null): boolean =>
  contentType !== null && Object.values(DELIVERABLE_TYPES).includes(contentType);

/** Where a subscriber or view count came from: the YouTube Data API, or the team's entry. */
export const COUNT_SOURCES = ['youtube', 'admin'] as const;
export type CountSource = (typeof COUNT_SOURCES)[number];

/** A bonus earning in the ledger: owed to the artist until the team marks it paid. */
export const EARNING_STATUSES = ['owed', 'paid', 'void'] as const;
export type EarningStatus = (typeof EARNING_STATUSES)[number];
/** What the team may set by hand (PATCH …/earnings/{id}): `void` is written only when a hit is withdrawn (CONTRACT §25). */
export const MARKABLE_EARNING_STATUSES = ['owed', 'paid'] as const;

/** Subscriber and view counts a channel can plausibly have. */
const COUNT_MAX = 100_000_000_000;

const objectPath = z.string().regex(OBJECT_PATH_PATTERN, errorText('not_an_upload'));

/** POST /api/admin/submissions/{id}/deliverables */
export const deliverablesSchema = z.object({
  objectPaths: z
    .array(objectPath, { message: 'objectPaths must be a list of uploaded files' })
    .min(1, 'Add at least one file')
    .max(DELIVERY_FILES_MAX, `At most ${DELIVERY_FILES_MAX} files per delivery`),
  note: z
    .string({ message: 'note must be text' })
    .trim()
    .max(DELIVERY_NOTE_MAX, `The note must be at most ${DELIVERY_NOTE_MAX} characters`)
    .nullish()
    .transform((v) => v || null),
});

/** A moment of a cut as people write it: 0:34, 12:05, 1:02:03. */
export function formatMoment(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** POST /api/submissions/{id}/deliveries/{deliveryId}/comments (CONTRACT §17) */
export const deliveryCommentSchema = z.object({
  text: z
    .string({ message: 'Write a comment' })
    .trim()
    .min(1, 'Write a comment')
    .max(DELIVERY_COMMENT_TEXT_MAX, `A comment must be at most ${DELIVERY_COMMENT_TEXT_MAX} characters`),
  atSeconds: z
    .number({ message: 'atSeconds must be a number of seconds' })
    .min(0, 'atSeconds cannot be negative')
    .max(DELIVERY_COMMENT_AT_MAX_S, 'atSeconds is past the end of any cut')
    .nullish()
    .transform((v) => v ?? null),
  fileId: z
    .string({ message: 'fileId must be a file of this delivery' })
    .regex(OBJECT_ID_PATTERN, 'fileId must be a file of this delivery')
    .nullish()
    .transform((v) => v ?? null),
  replyTo: z
    .string({ message: 'replyTo must be a comment of this delivery' })
    .regex(OBJECT_ID_PATTERN, 'replyTo must be a comment of this delivery')
    .nullish()
    .transform((v) => v ?? null),
});
export type DeliveryCommentInput = z.input<typeof deliveryCommentSchema>;

/** PATCH /api/submissions/{id}/deliveries/{deliveryId}/comments/{commentId} */
export const deliveryCommentPatchSchema = z.object({
  resolved: z.boolean({ message: 'resolved must be true or false' }),
});

/** POST /api/submissions/{id}/revisions */
export const revisionSchema = z.object({
  note: z
    .string({ message: 'Tell the team what to change' })
    .trim()
    .min(1, 'Tell the team what to change')
    .max(REVISION_NOTE_MAX, `The note must be at most ${REVISION_NOTE_MAX} characters`),
});

const count = (name: string) =>
  z
    .number({ message: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} cannot be negative`)
    .max(COUNT_MAX, `${name} is too large`);

/** PUT /api/admin/submissions/{id}/publication. `subscriberCount` is ignored when YouTube is configured. */
export const publicationSchema = z.object({
  videoUrl: z
    .url({ protocol: /^https?$/, message: 'videoUrl must be an http(s) link' })
    .max(URL_MAX_LENGTH, 'videoUrl is too long'),
  publishedAt: z.iso.datetime({ offset: true, message: 'publishedAt must be an ISO date and time' }),
  subscriberCount: count('subscriberCount').optional(),
});
export type PublicationInput = z.input<typeof publicationSchema>;

/** PUT /api/admin/submissions/{id}/views */
export const viewsSchema = z.object({ viewsAt14Days: count('viewsAt14Days') });

/** PATCH /api/admin/bonus/earnings/{submissionId} */
export const earningStatusSchema = z.object({
  status: z.enum(MARKABLE_EARNING_STATUSES, { message: 'status must be owed or paid' }),
});

export interface DeliverableFile {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  /** Where the owner (or an admin) streams or downloads it. */
  url: string;
}

export interface Delivery {
  id: string;
  /** 1, 2, … in delivery order (CONTRACT §17). */
  version: number;
  note: string | null;
  createdAt: string;
  files: DeliverableFile[];
}

export interface RevisionRequest {
  id: string;
  note: string;
  createdAt: string;
}

interface ViewReading {
  views: number;
  source: CountSource;
  recordedAt: string;
  /** Who corrected it; null for the scheduled check. */
  recordedBy: string | null;
}

export interface Publication {
  videoUrl: string;
  publishedAt: string;
  subscriberCount: number;
  /** Read from the YouTube Data API at publishing (locked), or entered by the team. */
  subscriberSource: CountSource;
  viewsNeeded: number;
  checkAt: string;
  /** When the scheduled check ran, and how late it was (a server that was down). */
  checkedAt: string | null;
  checkLateSeconds: number | null;
  /** Set while the check waits for YouTube Analytics to report the window's last day: its next try. */
  checkRetryAt: string | null;
  viewsAt14Days: number | null;
  viralHit: boolean | null;
  /** The screen at the 14-day check, with its evidence (CONTRACT §25). */
  screen: (ViralScreen & { days: DailyViews[] }) | null;
  /** The screen's reads while YouTube refuses them (its quota); null once read. */
  screenRead: ScreenReadState | null;
  /** The second look at 28 days: when, and the views it found for the same 14 days. */
  secondLook: { at: string; lookedAt: string | null; views: number | null } | null;
  withdrawn: WithdrawnHit | null;
  /** Every reading and correction, oldest first. */
  readings: ViewReading[];
}

/** GET /api/submissions/{id}/production: the after-approval state, for the owner and admins. */
export interface ProductionState {
  submissionId: string;
  dueAt: string | null;
  deliveredAt: string | null;
  overdue: boolean;
  deliveries: Delivery[];
  revisions: { allowed: number; used: number; requests: RevisionRequest[] };
  refund: { status: 'requested' | 'refunded'; reason: RefundReason; requestedAt: string } | null;
  publication: Publication | null;
  licence: { version: string; hash: string; acceptedAt: string; text: string } | null;
  /** The cut the artist approved (CONTRACT §17); a later delivery clears it. */
  approvedDeliveryId: string | null;
  cutApprovedAt: string | null;
}

/** A comment on a delivery, or a reply to one (CONTRACT §17). */
export interface DeliveryComment {
  id: string;
  deliveryId: string;
  fileId: string | null;
  atSeconds: number | null;
  text: string;
  replyTo: string | null;
  author: { id: string | null; name: string; role: 'user' | 'admin' };
  createdAt: string;
  resolved: boolean;
}

/**
 * Views that are real (CONTRACT §25): the screen at the 14-day check. `clear` and `confirmed` hits
 * count; a `suspect` one waits for a person; a `rejected` one never counts.
 */
export const SCREEN_STATUSES = ['clear', 'suspect', 'confirmed', 'rejected'] as const;
export type ScreenStatus = (typeof SCREEN_STATUSES)[number];
export const VIRAL_REVIEW_DECISIONS = ['confirm', 'reject'] as const;
export type ViralReviewDecision = (typeof VIRAL_REVIEW_DECISIONS)[number];
export const VIRAL_REVIEW_REASON_MAX = 1000;

/** YouTube Analytics' traffic sources that are links from outside YouTube: where bought views arrive. */
export const EXTERNAL_TRAFFIC_SOURCES = ['EXT_URL', 'NO_LINK_OTHER'] as const;

/** The three rules' thresholds (VIRAL_SCREEN_* settings; decision 195). */
export interface ScreenThresholds {
  /** Views from EXT_URL and NO_LINK_OTHER together above this percentage of the views: suspect. */
  externalPercentMax: number;
  /** `averageViewPercentage` below this: suspect. */
  averageViewPercentMin: number;
  /** One day holding more than this percentage of the 14 days' views: suspect. */
  oneDayPercentMax: number;
}
export const DEFAULT_SCREEN_THRESHOLDS: ScreenThresholds = { externalPercentMax: 50, averageViewPercentMin: 15, oneDayPercentMax: 60 };

export interface TrafficSource {
  type: string;
  views: number;
}

/** What the screen read: views by source, by day, and the average percentage of the video watched. */
export interface ScreenEvidence {
  sources: TrafficSource[];
  days: DailyViews[];
  /** Null when YouTube reported none (no views at all). */
  averageViewPercentage: number | null;
}

const percent = (part: number, whole: number) => Math.round((1000 * part) / whole) / 10;

/**
 * The three rules (CONTRACT §25), each alone enough: the reasons, in words the desk shows, empty
 * for a clear hit. Percentages compare strictly ("more than 50%", "below 15").
 */
export function screenReasons(evidence: ScreenEvidence, t: ScreenThresholds): string[] {
  const reasons: string[] = [];
  const total = evidence.days.reduce((sum, d) => sum + d.views, 0);
  const sourceTotal = evidence.sources.reduce((sum, s) => sum + s.views, 0);
  const external = evidence.sources.filter((s) => (EXTERNAL_TRAFFIC_SOURCES as readonly string[]).includes(s.type)).reduce((sum, s) => sum + s.views, 0);
  if (sourceTotal > 0 && external * 100 > t.externalPercentMax * sourceTotal) {
    reasons.push(`${percent(external, sourceTotal)}% of the views came from outside links or no link (EXT_URL, NO_LINK_OTHER), more than ${t.externalPercentMax}%`);
  }
  if (evidence.averageViewPercentage !== null && evidence.averageViewPercentage < t.averageViewPercentMin) {
    reasons.push(`Viewers watched ${evidence.averageViewPercentage.toFixed(1)}% of the video on average, below ${t.averageViewPercentMin}%`);
  }
  const peak = evidence.days.reduce<DailyViews | null>((top, d) => (!top || d.views > top.views ? d : top), null);
  if (peak && total > 0 && peak.views * 100 > t.oneDayPercentMax * total) {
    reasons.push(`${peak.date} held ${percent(peak.views, total)}% of the 14 days' views, more than ${t.oneDayPercentMax}%`);
  }
  return reasons;
}

/** The screen as the artist and the team see it (`screen` on GET /api/bonus tracks and the admin's views). */
export interface ViralScreen {
  status: ScreenStatus;
  reasons: string[];
  sources: TrafficSource[];
  averageViewPercentage: number | null;
  /** Who decided a suspect hit, when, and why (the team's views; null on the artist's but for a rejection's reason). */
  review: { decision: ViralReviewDecision; reason: string; at: string; by: string | null } | null;
}

/** Where the screen's read stands while YouTube refuses (its quota): shown on the desk (CONTRACT §25 part 4). */
export interface ScreenReadState {
  attempts: number;
  error: string | null;
  retryAt: string | null;
}

/** POST /api/admin/submissions/{id}/viral-review */
export const viralReviewSchema = z.object({
  decision: z.enum(VIRAL_REVIEW_DECISIONS, { message: 'decision must be confirm or reject' }),
  reason: z
    .string({ message: 'reason is required' })
    .trim()
    .min(1, 'reason is required')
    .max(VIRAL_REVIEW_REASON_MAX, `reason must be at most ${VIRAL_REVIEW_REASON_MAX} characters`),
});
export type ViralReviewInput = z.input<typeof viralReviewSchema>;

/** A hit the second look at 28 days withdrew: YouTube counted fewer views for the same 14 days. */
export interface WithdrawnHit {
  at: string;
  reason: string;
  views: number;
}

interface BonusTrack {
  submissionId: string;
  songTitle: string;
  videoUrl: string;
  publishedAt: string;
  subscriberCount: number;
  viewsNeeded: number;
  checkAt: string;
  viewsAt14Days: number | null;
  viralHit: boolean | null;
  /** The window's daily views from the channel's analytics (CONTRACT §16), oldest first; empty without them. */
  dailyViews: DailyViews[];
  /** The screen at the 14-day check (CONTRACT §25); null before it, or without the channel's analytics. */
  screen: ViralScreen | null;
  /** Whether the hit counts toward the three: a hit that is clear or confirmed, and not withdrawn. */
  countsAsHit: boolean;
  /** The second look at 28 days withdrew the hit. */
  withdrawn: WithdrawnHit | null;
}

export interface BonusEarning {
  submissionId: string;
  songTitle: string;
  /** US dollars with 2 decimals. */
  amount: string;
  status: EarningStatus;
  createdAt: string;
  paidAt: string | null;
  /** The Stripe transfer that paid it (CONTRACT §19); null when unpaid or marked paid by hand. */
  transferId: string | null;
  /** Why it is void (CONTRACT §25: the hit it depended on was withdrawn); null otherwise. */
  voidReason: string | null;
  /** Each owner's part of it (CONTRACT §24), owner 0 the artist; their amounts add up to `amount`. */
  shares: EarningShare[];
}

/** A paid earning taken back (CONTRACT §25), deducted from the payee's next payouts; never charged to a card. */
export interface BonusClawback {
  id: string;
  submissionId: string;
  songTitle: string;
  /** US dollars with 2 decimals. */
  amount: string;
  reason: string;
  createdAt: string;
  deductedAt: string | null;
  /** The earning whose payout deducted it. */
  deductedFrom: string | null;
}

/** GET /api/bonus */
export interface BonusState {
  viralHits: number;
  hitsNeeded: number;
  unlocked: boolean;
  /** BONUS_PER_TRACK_USD: what each track published after the third hit earns, US dollars with 2 decimals ("0.00" when unset). */
  bonusPerTrack: string;
  tracks: BonusTrack[];
  earnings: BonusEarning[];
  /** Paid earnings taken back (CONTRACT §25); outstanding ones are deducted from the next payouts. */
  clawbacks: BonusClawback[];
}

/** GET /api/admin/bonus: every artist's ledger. */
export interface ArtistLedger {
  userId: string;
  /** The account's name, or once it is deleted the name its work keeps. */
  artistName: string;
  email: string | null;
  /** The artist deleted their account: the ledger stays, under the name kept on the work. */
  accountDeleted: boolean;
  viralHits: number;
  unlocked: boolean;
  owed: string;
  paid: string;
  earnings: BonusEarning[];
  /** Paid earnings taken back (CONTRACT §25), and what of them is still to deduct. */
  clawbacks: BonusClawback[];
  outstandingClawback: string;
  /** The artist's Stripe payout account (CONTRACT §19): a "Pay with Stripe" only reaches an active one. */
  payoutAccount: PayoutAccountStatus;
}

/**
 * What ends a delivery deadline before a delivery does: the work turned down, its payment refunded
 * (or a refund asked of Stripe), or the video published without one. Then nobody owes a delivery,
 * so neither the artist's "Delivery by" nor the desk's "Due" stands, and the desk's deadline
 * filters and sort leave it out (issue 43 item 10). A delivered one keeps its date: "Delivered
 * … (due …)" is the record of a promise kept.
 */
export const DEADLINE_ENDING_STATUSES = ['rejected', 'published'] as const;

export function standingDueAt<T>(s: {
  dueAt: T | null;
  deliveredAt: unknown;
  status: string;
  paymentStatus: string | null;
  refundRequestedAt: unknown;
}): T | null {
  if (s.dueAt === null || s.deliveredAt) return s.dueAt;
  const ended =
    (DEADLINE_ENDING_STATUSES as readonly string[]).includes(s.status) || s.paymentStatus === 'refunded' || Boolean(s.refundRequestedAt);
  return ended ? null : s.dueAt;
}

/**
 * What ended a submission's to-dos (issue 43 item 10), if anything: turned down, refunded (or a
 * refund asked of Stripe), or published. Then the desk offers no delivery deadline, no allowlist
 * to mark and no refund to make: each is done with or moot.
 */
export type WorkEnd = 'rejected' | 'refunded' | 'published';
export function workEndOf(s: { status: string; paymentStatus: string | null; refundRequestedAt: unknown }): WorkEnd | null {
  if (s.status === 'rejected') return 'rejected';
  if (s.paymentStatus === 'refunded' || s.refundRequestedAt) return 'refunded';
  if (s.status === 'published') return 'published';
  return null;
}
export const WORK_END_LABELS: Record<WorkEnd, string> = {
  rejected: 'turned down',
  refunded: 'refunded',
  published: 'published',
};

/** The admin list's deadline filter (CONTRACT §13). */
export const DUE_FILTERS = ['overdue', 'today', 'week'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];

/** A publication on the label's channel by the product (CONTRACT §16): where its upload job stands. */
export const YOUTUBE_UPLOAD_STATES = ['queued', 'uploading', 'processing', 'published', 'failed', 'cancelled'] as const;
export type YouTubeUploadState = (typeof YOUTUBE_UPLOAD_STATES)[number];
export const PRIVACY_STATUSES = ['public', 'unlisted', 'private'] as const;
export type PrivacyStatus = (typeof PRIVACY_STATUSES)[number];

/** YouTube's own limits on a video's metadata (CONTRACT §16). */
export const YOUTUBE_TITLE_MAX = 100;
export const YOUTUBE_DESCRIPTION_MAX_BYTES = 5000;
export const YOUTUBE_TAGS_MAX = 500;

/** YouTube refuses `<` and `>` in a title or a description. */
export const withoutAngles = (text: string) => text.replace(/[<>]/g, '');
/**
 * A title is one line of plain text: line breaks, tabs and other control characters become
 * spaces (YouTube would show them as nothing, or refuse the title), runs of space one.
 */
// eslint-disable-next-line no-control-regex
export const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
/**
 * A description is plain text: lines stay (`\r\n`, `\r` and Unicode's separators become `\n`),
 * tabs become a space, other control characters go.
 */
export const plainText = (text: string) =>
  text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
/** Tags count with a comma between them, and a tag with a space counts its quotes too. */
export const tagsLength = (tags: readonly string[]) =>
  tags.reduce((n, tag) => n + tag.length + (tag.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);

/** GET /api/admin/submissions/{id}/publication-draft */
export interface PublicationDraft {
  title: string;
  description: string;
  tags: string[];
}

/** POST /api/admin/submissions/{id}/youtube */
export const youtubePublishSchema = z.object({
  // Any path that is not an upload is "not a video to publish" here, in the words of the choice the team makes.
  objectPath: z.string({ message: errorText('video_not_publishable') }).regex(OBJECT_PATH_PATTERN, errorText('video_not_publishable')),
  title: z
    .string({ message: 'title must be text' })
    .transform(oneLine)
    .pipe(
      z
        .string()
        .min(1, 'Give the video a title')
        .max(YOUTUBE_TITLE_MAX, `The title must be at most ${YOUTUBE_TITLE_MAX} characters`)
        .refine((v) => !/[<>]/.test(v), 'The title cannot contain < or >'),
    ),
  description: z
    .string({ message: 'description must be text' })
    .transform(plainText)
    .refine((v) => utf8Bytes(v) <= YOUTUBE_DESCRIPTION_MAX_BYTES, `The description must be at most ${YOUTUBE_DESCRIPTION_MAX_BYTES} bytes`)
    .refine((v) => !/[<>]/.test(v), 'The description cannot contain < or >'),
  tags: z
    .array(z.string({ message: 'each tag must be text' }).trim().min(1, 'A tag cannot be empty').max(YOUTUBE_TAGS_MAX), {
      message: 'tags must be a list of text',
    })
    .max(YOUTUBE_TAGS_MAX)
    .refine((v) => tagsLength(v) <= YOUTUBE_TAGS_MAX, `The tags must be at most ${YOUTUBE_TAGS_MAX} characters together`)
    .refine((v) => v.every((tag) => !/[<>,]/.test(tag)), 'A tag cannot contain <, > or a comma')
    .optional()
    .transform((v) => v ?? []),
  privacyStatus: z.enum(PRIVACY_STATUSES, { message: 'privacyStatus must be public, unlisted or private' }).default('public'),
  publishAt: z.iso.datetime({ offset: true, message: 'publishAt must be an ISO date and time' }).nullish(),
});
export type YouTubePublishInput = z.input<typeof youtubePublishSchema>;

/** GET /api/admin/submissions/{id}/youtube */
export interface YouTubeUploadStatus {
  state: YouTubeUploadState | null;
  bytesSent: number;
  bytesTotal: number;
  videoId: string | null;
  /** The last error: while it retries (with `attempts` so far and `nextAttemptAt`), and once failed. */
  error: string | null;
  /** Tries that failed and were worth retrying, of at most `YOUTUBE_ATTEMPTS_MAX` (production-texts; CONTRACT §23). */
  attempts: number;
  nextAttemptAt: string | null;
  /** What the team can do about YouTube's refusal, in words (a quota used up, …); null when nothing to add. */
  advice: string | null;
}

/** States a publication may be cancelled in (`DELETE …/youtube`), and states it may be started again from. */
export const YOUTUBE_CANCELLABLE_STATES: readonly YouTubeUploadState[] = ['queued', 'uploading'];
export const YOUTUBE_RESTARTABLE_STATES: readonly YouTubeUploadState[] = ['failed', 'cancelled'];

/** GET /api/admin/channel */
export interface ChannelStatus {
  connected: boolean;
  /** Whether an OAuth client is configured, so the channel can be connected at all. */
  configured: boolean;
  channelId: string | null;
  title: string | null;
  subscriberCount: number | null;
  connectedAt: string | null;
}

/** A day's views in the 14-day window (the Analytics API's `day` rows). */
export interface DailyViews {
  date: string;
  views: number;
}
