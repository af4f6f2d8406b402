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
} as const;
