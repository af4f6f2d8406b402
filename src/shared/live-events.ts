import type { PublicProfile } from './auth';

/**
 * The live socket's texts and codes, without zod: the client's entry imports this module, and zod
 * is not part of a first load that doesn't need it (issue 16's page budgets). The events' schema
 * is live-event-schema.ts; its type is named here too, erased from the bundle.
 */
export type { LiveEvent } from './live-event-schema';

/** SPEC §2: the 'New Message' notice names the sender by artist name, else first name, else Unknown. */
export function senderName(user: Pick<PublicProfile, 'artistName' | 'firstName'> | null | undefined): string {
  return user?.artistName?.trim() || user?.firstName?.trim() || 'Unknown';
}

/** The live socket's close code when the session behind it has ended (logout elsewhere, expiry). */
export const CLOSE_SESSION_ENDED = 4401;
/** The live socket's close code when its session already has as many sockets as it may (like HTTP 429). */
export const CLOSE_TOO_MANY_SOCKETS = 4429;
