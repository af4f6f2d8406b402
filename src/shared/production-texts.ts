import { FILE_LIMITS } from './submissions';

/**
 * What the artist's screens say and allow after approval (CONTRACT §13), without zod: the
 * dashboard shows these on its first load, and the wire schemas stay in production.ts (decision
 * 144).
 */

/** SPEC §1: a hit reaches half the subscribers locked at publishing; three unlock the bonus. */
export const VIRAL_HITS_NEEDED = 3;

/** The largest deliverable: a finished video (uploaded resumably, like an artist's). */
export const DELIVERABLE_MAX_BYTES = FILE_LIMITS.videoBytes;

export const PRODUCTION_TEXTS = {
  /** CONTRACT §17: asked of the team before publishing a cut the artist has not approved. */
  unapprovedCutConfirm: 'The artist has not approved the final cut. The Terms allow publishing without it. Publish anyway?',
  revisionsExhausted: (allowed: number) =>
    allowed === 0
      ? "This plan doesn't include revisions. Message the label team if something needs to change."
      : `All ${allowed} revisions included in your plan have been used. Message the label team if something still needs to change.`,
  revisionBeforeDelivery: 'You can ask for a revision once the label has delivered your files.',
  deliveryBy: (date: string) => `Delivery by ${date}`,
  /** The 14-day count before it is recorded: before day 14, then while YouTube Analytics catches up (CONTRACT §16). */
  countWaiting: 'Waiting for day 14',
  countPending: 'Being counted: YouTube reports views a few days late',
  viralHits: (hits: number) => `Viral hits: ${Math.min(hits, VIRAL_HITS_NEEDED)} of ${VIRAL_HITS_NEEDED}`,
  /** What the card's three dots count toward, beside them (issue 43: three bare grey dots said nothing). */
  hitsToGo: (hits: number) => {
    const left = VIRAL_HITS_NEEDED - Math.min(hits, VIRAL_HITS_NEEDED);
    return left === 0 ? 'Bonus unlocked' : `${left} more ${left === 1 ? 'hit unlocks' : 'hits unlock'} the bonus`;
  },
  /** Issue 36: with the channel connected, recording a link by hand is the secondary action, for videos published elsewhere. */
  recordByHand: 'Published outside the product? Record its link instead',
  recordByHandHint: 'For a video the team put on the channel by hand. Use Publish on YouTube above for anything else.',
} as const;

/** CONTRACT §23: tries of one publication before it is `failed`, spread over about 30 minutes (decision 175). */
export const YOUTUBE_ATTEMPTS_MAX = 8;

/**
 * What the team can do when YouTube refuses or keeps failing a publication (CONTRACT §23, issue
 * 36), by Google's reason for the refusal; YouTube's own sentence is shown beside it.
 */
const QUOTA_ADVICE =
  "The label's YouTube quota for today is used up. It resets at midnight Pacific time: publish again after that, or ask Google for a higher quota in the Google Cloud console.";
export const YOUTUBE_REFUSAL_ADVICE: Record<string, string> = {
  quotaExceeded: QUOTA_ADVICE,
  dailyLimitExceeded: QUOTA_ADVICE,
  uploadLimitExceeded: 'The channel has reached the number of uploads YouTube allows in a day. Publish again tomorrow.',
  rateLimitExceeded: 'YouTube asked for fewer requests at once. Publishing again in a few minutes usually works.',
  insufficientPermissions: 'The channel was connected without the right to upload. Connect the channel again and allow uploads.',
  forbidden: 'YouTube refused this upload for the connected channel. Check the channel at YouTube Studio, or connect the channel again.',
};

/** What the desk says of a publication while it retries (CONTRACT §23). */
export const PUBLISHING_TEXTS = {
  retrying: (attempts: number, next: string | null) =>
    `${attempts} of ${YOUTUBE_ATTEMPTS_MAX} tries failed${next ? `; the next at ${next}` : ''}. Last error:`,
} as const;

/** After every try of the budget failed on an outage (no refusal of its own). */
export const YOUTUBE_OUTAGE_ADVICE = 'YouTube kept failing for about half an hour. Try again later: publishing again starts the upload anew.';

/** The advice for a publication's last error, or null when there is nothing to add to YouTube's sentence. */
export function youtubeAdvice(reason: string | null, exhausted: boolean): string | null {
  if (reason && Object.hasOwn(YOUTUBE_REFUSAL_ADVICE, reason)) return YOUTUBE_REFUSAL_ADVICE[reason]!;
  return exhausted ? YOUTUBE_OUTAGE_ADVICE : null;
}

/**
 * The desk list's word on a publication that needs the team's eye (issue 36): one being
 * published or retried, one that failed (a used-up quota named as such); none once published,
 * cancelled or never asked.
 */
export function deskPublishingLabel(publishing: { state: string; attempts: number; errorReason: string | null }): { text: string; failed: boolean } | null {
  const { state, attempts, errorReason } = publishing;
  if (state === 'failed') {
    const quota = errorReason !== null && YOUTUBE_REFUSAL_ADVICE[errorReason] === QUOTA_ADVICE;
    return { text: quota ? 'Not published: YouTube quota used up' : 'Not published: YouTube failed', failed: true };
  }
  if (state === 'queued' || state === 'uploading' || state === 'processing') {
    return { text: attempts > 0 ? `Publishing: retrying (${attempts} failed)` : 'Publishing on YouTube', failed: false };
  }
  return null;
}
