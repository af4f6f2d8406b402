import { PRICING_TIERS, TIERS, TIER_DELIVERY, type PricingTier, type SubmissionType } from './submissions';

// Defined beside the tiers: the error table every page loads names it, and this module is the plan screens' own.
export { VIDEO_PLAN_TEXT } from './submissions';

/**
 * What the plans buy (issue 23, docs/decisions/154-what-the-plans-buy.md), written once for the
 * plan step, How it Works and the checkout. SPEC §9's promise texts (TIERS[tier].promises) stay
 * letter for letter; each gets a sentence around it saying what it means. The label's offer
 * (SPEC §1): the video is made free for every approved track; a paid plan adds material for the
 * artist's own promotion and a delivery deadline. It does not buy approval.
 */

/** The one paragraph every plan list starts from. */
export const PLANS_INTRO =
  'The label makes the video for free for every track it approves: the Free plan is all you need for that. A paid plan adds material for your own promotion and a delivery deadline. It does not buy approval: the team judges every track on the music alone.';

/** One line per plan: what it is for. */
export const PLAN_SUMMARIES: Record<PricingTier, string> = {
  free: 'Your music video, made by the label at no cost once your track is approved.',
  basic: 'The free video, plus a pack of images for your covers and social posts, delivered by a deadline.',
  premium: 'The free video, plus raw clips to cut your own edits for Reels, Shorts and TikTok, delivered by a deadline.',
  professional: 'The free video with the most say in it: a delivery deadline and rounds of changes after delivery.',
};

const deadline = (tier: PricingTier) =>
  `Delivered within ${TIER_DELIVERY[tier].days} days of your payment; the deadline shows on your dashboard.`;

/** A sentence after each of SPEC's promise texts, keyed by that exact text. */
const PROMISE_EXPLANATIONS: Record<string, string> = {
  'No timeline guarantee': 'The team makes the video as soon as it can, with no fixed date.',
  'AI Image Pack: 80 AI images': '80 images made for your track, yours to use on covers, posts and stories.',
  'DIY Edit Plan: 80 clips': '80 video clips made for your track, to edit into your own short videos.',
  [`${TIER_DELIVERY.professional.revisions} revisions`]: `After delivery you may ask for changes up to ${TIER_DELIVERY.professional.revisions} times.`,
};

export interface PlanPromise {
  /** SPEC §9's text, as it is. */
  text: string;
  /** What it means for the artist. */
  explanation: string;
}

/** A plan's promises, each with its explanation. */
export function planPromises(tier: PricingTier): PlanPromise[] {
  return TIERS[tier].promises.map((text) => ({
    text,
    explanation: PROMISE_EXPLANATIONS[text] ?? (TIER_DELIVERY[tier].days === null ? '' : deadline(tier)),
  }));
}

/**
 * The plans a submission may take. A finished video is published as it is: the paid plans buy work
 * on a video the label makes (images and clips from its production, a deadline for it, revisions of
 * it), none of which a finished video has, so it takes the Free plan only (decision 154).
 */
export const PLANS_FOR: Record<SubmissionType, readonly PricingTier[]> = {
  track: PRICING_TIERS,
  video: ['free'],
};

export const plansFor = (type: SubmissionType): readonly PricingTier[] => PLANS_FOR[type];

