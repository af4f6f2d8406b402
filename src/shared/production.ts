import { z } from 'zod';
import { errorText } from './errors';
import { OBJECT_ID_PATTERN, OBJECT_PATH_PATTERN, URL_MAX_LENGTH, type RefundReason } from './submissions';

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
export const DELIVERABLE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  zip: 'application/zip',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
};
export const isDeliverableType = (contentType: string | null): boolean =>
  contentType !== null && Object.values(DELIVERABLE_TYPES).includes(contentType);

/** Where a subscriber or view count came from: the YouTube Data API, or the team's entry. */
export const COUNT_SOURCES = ['youtube', 'admin'] as const;
export type CountSource = (typeof COUNT_SOURCES)[number];

/** A bonus earning in the ledger: owed to the artist until the team marks it paid. */
export const EARNING_STATUSES = ['owed', 'paid'] as const;
export type EarningStatus = (typeof EARNING_STATUSES)[number];

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
  status: z.enum(EARNING_STATUSES, { message: 'status must be owed or paid' }),
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
  viewsAt14Days: number | null;
  viralHit: boolean | null;
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
}

/** GET /api/bonus */
export interface BonusState {
  viralHits: number;
  hitsNeeded: number;
  unlocked: boolean;
  tracks: BonusTrack[];
  earnings: BonusEarning[];
}

/** GET /api/admin/bonus: every artist's ledger. */
export interface ArtistLedger {
  userId: string;
  artistName: string;
  email: string | null;
  viralHits: number;
  unlocked: boolean;
  owed: string;
  paid: string;
  earnings: BonusEarning[];
}

/** The admin list's deadline filter (CONTRACT §13). */
export const DUE_FILTERS = ['overdue', 'today', 'week'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];
