import type { PublicProfile } from './auth';
import type { Message } from './messages';

/**
 * What the live socket carries (CONTRACT §7). Kept apart from messages.ts, which builds zod
 * schemas when loaded: the client's entry imports this module, and zod is not part of a first load
 * that doesn't need it (issue 16's page budgets).
 */

/** What the server pushes on /ws. */
export type LiveEvent =
  | { type: 'ready'; userId: string }
  | { type: 'new_message'; message: Message }
  | { type: 'messages_read'; userId: string }
  | { type: 'resync' };

/** SPEC §2: the 'New Message' notice names the sender by artist name, else first name, else Unknown. */
export function senderName(user: Pick<PublicProfile, 'artistName' | 'firstName'> | null | undefined): string {
  return user?.artistName?.trim() || user?.firstName?.trim() || 'Unknown';
}

/** The live socket's close code when the session behind it has ended (logout elsewhere, expiry). */
export const CLOSE_SESSION_ENDED = 4401;
/** The live socket's close code when its session already has as many sockets as it may (like HTTP 429). */
export const CLOSE_TOO_MANY_SOCKETS = 4429;
