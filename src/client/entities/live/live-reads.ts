import type { QueryKey } from '@tanstack/react-query';
import type { LiveEvent } from '@shared/live-events';
import { queryClient } from '@client/lib/query-client';

/**
 * Which of the app's reads the live socket keeps right (issue 33 part 3, decision 174): every
 * query whose data another person can change is "live-backed", and belongs to exactly one of
 * these groups. Queries are keyed by their API path (lib/api.ts's defaultQueryFn), a key's first
 * element, sometimes followed by ids and a sub-resource; a group is known by those.
 */
export type LiveRead = 'submissions' | 'desk' | 'production' | 'bonus' | 'messages' | 'billing' | 'activity';

const pathOf = (key: QueryKey): string => (typeof key[0] === 'string' ? key[0] : '');
/** The sub-resource after an id: ['/api/submissions', id, 'production'] → 'production'. */
const partOf = (key: QueryKey): unknown => key[2];
const startsWithAny = (path: string, prefixes: string[]) => prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`));

/** A submission's production as either side sees it: the panel, its deliveries and their comments, its publication. */
const PRODUCTION_PARTS = new Set<unknown>(['production', 'deliveries', 'youtube', 'publication-draft']);

export const LIVE_READS: Record<LiveRead, (key: QueryKey) => boolean> = {
  /** The artist's dashboard: the list, one submission, the stat cards. */
  submissions: (key) =>
    (startsWithAny(pathOf(key), ['/api/submissions']) && !PRODUCTION_PARTS.has(partOf(key))) || startsWithAny(pathOf(key), ['/api/stats']),
  /** The team's desk: its list, counts and one submission's details and history. */
  desk: (key) => startsWithAny(pathOf(key), ['/api/admin/submissions', '/api/admin/stats']) && !PRODUCTION_PARTS.has(partOf(key)),
  production: (key) => startsWithAny(pathOf(key), ['/api/submissions', '/api/admin/submissions']) && PRODUCTION_PARTS.has(partOf(key)),
  bonus: (key) => startsWithAny(pathOf(key), ['/api/bonus', '/api/admin/bonus']),
  messages: (key) => startsWithAny(pathOf(key), ['/api/messages']),
  billing: (key) => startsWithAny(pathOf(key), ['/api/billing', '/api/payments', '/api/payouts']),
  /** What the artist did that the team has not seen yet (the desk's and the header's badges). */
  activity: (key) => startsWithAny(pathOf(key), ['/api/admin/activity']),
};

export const ALL_LIVE_READS = Object.keys(LIVE_READS) as LiveRead[];

/**
 * What each live event changes. A status change can refund (billing), publish (bonus) or start a
 * production; a delivery comment changes that delivery's thread and, for the team, what is new;
 * the artist's activity is new for the team and moves its desk row. `ready` is the socket's own
 * greeting and `resync` asks for everything (the server could not deliver what it meant to).
 */
export const LIVE_EVENT_READS: Record<LiveEvent['type'], readonly LiveRead[]> = {
  ready: [],
  resync: ALL_LIVE_READS,
  new_message: ['messages'],
  messages_read: ['messages'],
  submission_changed: ['submissions', 'desk', 'production', 'bonus', 'billing'],
  delivery_comment: ['production'],
  artist_activity: ['activity', 'desk'],
};

/** True when a query with this key belongs to any of `reads`. */
export function isReadOf(reads: readonly LiveRead[], key: QueryKey): boolean {
  return reads.some((read) => LIVE_READS[read](key));
}

/**
 * Marks every query of `reads` stale; those on screen are read again at once (an answer already
 * on its way is cancelled and asked again, as it may predate the change).
 */
export function invalidateLiveReads(reads: readonly LiveRead[]): Promise<void> {
  if (reads.length === 0) return Promise.resolve();
  return queryClient.invalidateQueries({ predicate: ({ queryKey }) => isReadOf(reads, queryKey) });
}
