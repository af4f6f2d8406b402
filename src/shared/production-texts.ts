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
  /** Views that are real (CONTRACT §25): what the artist reads, in plain words, never an accusation. */
  underReview: "Under review: we are checking this video's views",
  notCounted: 'Not counted as a viral hit',
  notCountedBecause: (reason: string) => `Not counted as a viral hit. The team's note: ${reason}`,
  withdrawn: 'No longer counts: YouTube later removed some of its views',
  earningVoid: 'Not paid: the hit it depended on no longer counts',
  clawbackLine: (amount: string) => `${amount} to be deducted from your next bonus payouts`,
} as const;

/** CONTRACT §23: tries of one publication before it is `failed`, spread over about 30 minutes (decision 175). */
export const YOUTUBE_ATTEMPTS_MAX = 8;

/**
 * What the team can do when YouTube refuses or keeps failing a publication (CONTRACT §23, issues
 * 36 and 43), by Google's reason for the refusal. The desk leads with these words; YouTube's own
 * sentence stays one click away, for the team to quote to Google.
 */
const QUOTA_ADVICE =
  "The label's YouTube quota for today is used up. It resets at midnight Pacific time: publish again after that, or ask Google for a higher quota in the Google Cloud console.";
const RECONNECT_ADVICE =
  "The channel's sign-in no longer works (it was revoked, expired or the password changed). Connect the channel again on the Channel page, then publish again.";
const PERMISSION_ADVICE =
  'The channel was connected without the right to upload, or by an account that cannot manage it. Connect the channel again with the channel’s owner or manager, allow uploads, then publish again.';
export const YOUTUBE_REFUSAL_ADVICE: Record<string, string> = {
  quotaExceeded: QUOTA_ADVICE,
  dailyLimitExceeded: QUOTA_ADVICE,
  uploadLimitExceeded: 'The channel has reached the number of uploads YouTube allows in a day. Publish again tomorrow.',
  rateLimitExceeded: 'YouTube asked for fewer requests at once. Publishing again in a few minutes usually works.',
  insufficientPermissions: PERMISSION_ADVICE,
  forbidden: PERMISSION_ADVICE,
  /** A 401 YouTube answered with, or a refresh token the provider refused (channel.ts). */
  authError: RECONNECT_ADVICE,
  invalidCredentials: RECONNECT_ADVICE,
  invalid_grant: RECONNECT_ADVICE,
  youtubeSignupRequired: 'The connected Google account has no YouTube channel. Connect the channel again with the account that owns the label’s channel.',
};

/** A refusal YouTube gave no known reason for: its own words (in the details) name what to change. */
export const YOUTUBE_OTHER_REFUSAL_ADVICE =
  'YouTube refused this upload. Its own words, below, say why: change what they name (title, description, tags or video) and publish again, or contact the team member who manages the channel.';

/** What the desk says of a publication while it retries (CONTRACT §23). */
export const PUBLISHING_TEXTS = {
  retrying: (attempts: number, next: string | null) => `${attempts} of ${YOUTUBE_ATTEMPTS_MAX} tries failed${next ? `; the next at ${next}` : ''}.`,
  /** The summary that opens YouTube's own words (kept for the team, and to quote to Google). */
  rawError: 'YouTube’s own words',
} as const;

/** "12 minutes", "1 hour 5 minutes", "less than a minute": how long the tries went on. */
export function durationWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes < 60) return plural(minutes, 'minute');
  const rest = minutes % 60;
  return rest ? `${plural(Math.floor(minutes / 60), 'hour')} ${plural(rest, 'minute')}` : plural(minutes / 60, 'hour');
}

/**
 * After every try of the budget failed on an outage (429, 5xx, dropped connections; no refusal of
 * its own): how long it really went on, from the first try to the last.
 */
export const youtubeOutageAdvice = (triedForMs: number, tries: number) =>
  `YouTube kept failing for ${durationWords(triedForMs)} (${tries} tries): an outage or overload on YouTube's side. Publish again later; publishing again starts the upload anew.`;

/**
 * The advice for a failed publication: by YouTube's reason; after the whole budget of tries, the
 * outage's real length; else the words for a refusal of its own. `triedForMs`: from the first try
 * to the failure.
 */
export function youtubeAdvice(failure: { reason: string | null; attempts: number; triedForMs: number }): string {
  const { reason, attempts, triedForMs } = failure;
  if (reason && Object.hasOwn(YOUTUBE_REFUSAL_ADVICE, reason)) return YOUTUBE_REFUSAL_ADVICE[reason]!;
  return attempts >= YOUTUBE_ATTEMPTS_MAX ? youtubeOutageAdvice(triedForMs, attempts) : YOUTUBE_OTHER_REFUSAL_ADVICE;
}

/**
 * What the team can do about a publication, in words (GET …/youtube and the desk list): once
 * failed, by YouTube's reason or the outage's real length; while it retries, only for a reason
 * with advice of its own (a rate limit). `triedForMs`: from when it was asked to its last change.
 */
export function publicationAdvice(p: { state: string; error: string | null; errorReason: string | null; attempts: number; triedForMs: number }): string | null {
  if (!p.error) return null;
  if (p.state === 'failed') return youtubeAdvice({ reason: p.errorReason, attempts: p.attempts, triedForMs: p.triedForMs });
  return p.errorReason && Object.hasOwn(YOUTUBE_REFUSAL_ADVICE, p.errorReason) ? YOUTUBE_REFUSAL_ADVICE[p.errorReason]! : null;
}

/**
 * The desk list's word on a publication that needs the team's eye (issue 36): one being
 * published or retried, one that failed (a used-up quota named as such); none once published,
 * cancelled or never asked.
 */
export function deskPublishingLabel(publishing: { state: string; attempts: number; errorReason: string | null }): { text: string; failed: boolean } | null {
  const { state, attempts, errorReason } = publishing;
  if (state === 'failed') {
    const advice = errorReason !== null && Object.hasOwn(YOUTUBE_REFUSAL_ADVICE, errorReason) ? YOUTUBE_REFUSAL_ADVICE[errorReason] : null;
    const text = advice === QUOTA_ADVICE ? 'Not published: YouTube quota used up' : advice === RECONNECT_ADVICE ? 'Not published: connect the channel again' : 'Not published: YouTube failed';
    return { text, failed: true };
  }
  if (state === 'queued' || state === 'uploading' || state === 'processing') {
    return { text: attempts > 0 ? `Publishing: retrying (${attempts} failed)` : 'Publishing on YouTube', failed: false };
  }
  return null;
}
