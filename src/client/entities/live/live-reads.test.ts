import { afterEach, describe, expect, it } from 'vitest';
import type { QueryKey } from '@tanstack/react-query';
import { queryClient } from '@client/lib/query-client';
import { ALL_LIVE_READS, LIVE_EVENT_READS, LIVE_READS, invalidateLiveReads, isReadOf, type LiveRead } from './live-reads';

afterEach(() => queryClient.clear());

/** The app's live-backed reads as their hooks key them (entities/*-queries.ts, features' queries). */
const LIVE_KEYS: Record<LiveRead, QueryKey[]> = {
  submissions: [['/api/submissions'], ['/api/stats'], ['/api/submissions/s1'], ['/api/submissions', 's1', 'history']],
  desk: [['/api/admin/submissions', { page: 1, status: 'all' }], ['/api/admin/submissions', 's1'], ['/api/admin/submissions', 's1', 'history']],
  production: [
    ['/api/submissions', 's1', 'production'],
    ['/api/submissions', 's1', 'deliveries', 'd1', 'comments'],
    ['/api/admin/submissions', 's1', 'youtube'],
    ['/api/admin/submissions', 's1', 'publication-draft'],
  ],
  bonus: [['/api/bonus'], ['/api/admin/bonus']],
  messages: [['/api/messages'], ['/api/messages', 'unread-count'], ['/api/messages', 'conversations', 'all'], ['/api/messages', 'u1', 'thread']],
  billing: [['/api/billing'], ['/api/payments'], ['/api/payouts/account']],
  activity: [['/api/admin/activity']],
};
/** Reads no one else changes, or that nothing pushes: a reconnect leaves them alone. */
const OTHER_KEYS: QueryKey[] = [['/api/config'], ['/api/auth/user'], ['/api/admin/team'], ['/api/url-metadata', 'https://x.example']];

describe('the live-query map', () => {
  it('puts every live-backed read in exactly one group, and no other read in any', () => {
    for (const read of ALL_LIVE_READS) {
      for (const key of LIVE_KEYS[read]) {
        const groups = ALL_LIVE_READS.filter((group) => LIVE_READS[group](key));
        expect({ key, groups }).toEqual({ key, groups: [read] });
      }
    }
    for (const key of OTHER_KEYS) expect({ key, live: isReadOf(ALL_LIVE_READS, key) }).toEqual({ key, live: false });
  });

  it('names what each event changes: a status change is not a message, a message is not a submission', () => {
    expect(LIVE_EVENT_READS.submission_changed).toEqual(expect.arrayContaining(['submissions', 'desk', 'production']));
    expect(LIVE_EVENT_READS.submission_changed).not.toContain('messages');
    expect(LIVE_EVENT_READS.new_message).toEqual(['messages']);
    expect(LIVE_EVENT_READS.artist_activity).toEqual(expect.arrayContaining(['activity', 'desk']));
    expect([...LIVE_EVENT_READS.resync].sort()).toEqual([...ALL_LIVE_READS].sort());
  });

  it('a reconnect makes every live-backed read stale and leaves the others', async () => {
    const all = [...Object.values(LIVE_KEYS).flat(), ...OTHER_KEYS];
    for (const key of all) queryClient.setQueryData(key, { cached: true });
    await invalidateLiveReads(ALL_LIVE_READS);
    for (const key of Object.values(LIVE_KEYS).flat()) expect({ key, stale: queryClient.getQueryState(key)?.isInvalidated }).toEqual({ key, stale: true });
    for (const key of OTHER_KEYS) expect({ key, stale: queryClient.getQueryState(key)?.isInvalidated }).toEqual({ key, stale: false });
  });

  it('one event makes only its own reads stale', async () => {
    const all = Object.values(LIVE_KEYS).flat();
    for (const key of all) queryClient.setQueryData(key, { cached: true });
    await invalidateLiveReads(LIVE_EVENT_READS.new_message);
    for (const read of ALL_LIVE_READS) {
      for (const key of LIVE_KEYS[read]) expect({ key, stale: queryClient.getQueryState(key)?.isInvalidated }).toEqual({ key, stale: read === 'messages' });
    }
  });
});
