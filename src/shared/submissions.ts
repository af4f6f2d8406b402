/** Submission statuses, tiers and limits (SPEC §4, §5, §9): the one source for both sides. */

export const SUBMISSION_STATUSES = [
  'draft',
  'pending',
  'under_review',
  'approved',
  'in_creation',
  'completed',
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
  approved: 'Approved',
  in_creation: 'In Creation',
  completed: 'Completed',
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
  'approved',
  'in_creation',
  'completed',
  'rejected',
  'archived',
] as const satisfies readonly SubmissionStatus[];
export type AdminSettableStatus = (typeof ADMIN_SETTABLE_STATUSES)[number];

export const PRICING_TIERS = ['free', 'basic', 'premium', 'professional'] as const;
export type PricingTier = (typeof PRICING_TIERS)[number];
export const PAID_TIERS = ['basic', 'premium', 'professional'] as const satisfies readonly PricingTier[];

export function isPaidTier(tier: string | null | undefined): boolean {
  return (PAID_TIERS as readonly string[]).includes(tier ?? '');
}

export interface TierInfo {
  name: string;
  /** Price in whole US dollars. */
  priceUsd: number;
  promises: string[];
}

export const TIERS: Record<PricingTier, TierInfo> = {
  free: { name: 'Free', priceUsd: 0, promises: ['No timeline guarantee'] },
  basic: { name: 'Basic', priceUsd: 49, promises: ['AI Image Pack: 80 AI images', '5-day delivery'] },
  premium: { name: 'Premium', priceUsd: 99, promises: ['DIY Edit Plan: 80 clips', '7-day delivery'] },
  professional: { name: 'Professional', priceUsd: 199, promises: ['7-day delivery', '3 revisions'] },
};

export const PROCESSING_FEE_USD = 0;

/** The amount stored on a submission: a decimal string with 2 places, as PostgreSQL numeric(10,2) returns it. */
export function tierAmount(tier: PricingTier): string {
  return TIERS[tier].priceUsd.toFixed(2);
}

export function formatUsd(amount: number | string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(amount));
}

export const SUBMISSION_METHODS = ['link', 'upload'] as const;
export const RELEASE_STATUSES = ['released', 'unreleased'] as const;
export const RELEASE_DATE_OPTIONS = ['specific', 'undecided', 'asap'] as const;
export const VIDEO_STYLES = ['custom', 'non-custom'] as const;

export const MB = 1024 * 1024;
export const FILE_LIMITS = {
  musicBytes: 100 * MB,
  imageBytes: 10 * MB,
  maxStyleImages: 12,
  maxCharacterImages: 12,
  maxCharacters: 6,
} as const;

/** Dashboard filter cards (SPEC §4). */
export const DASHBOARD_FILTERS = ['all', 'approved', 'under_review', 'completed'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];

/** Where uploaded files live once normalised (CONTRACT §5). */
export const OBJECT_PATH_PATTERN = /^\/objects\/uploads\/[A-Za-z0-9-]{1,64}$/;
