import { useQuery } from '@tanstack/react-query';
import type { UnseenActivity } from '@shared/artist-activity';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';

/**
 * The team hears the artist (issue 33 part 4): what the artists did that this admin has not seen
 * yet. A live-backed read (entities/live/live-reads.ts, group 'activity'): an artist_activity
 * event and every reconnect read it again.
 */
const ACTIVITY_KEY = ['/api/admin/activity'] as const;

const NOTHING_NEW: UnseenActivity = { total: 0, submissions: [] };

/** For the team's screens only (artists are refused the route). */
export function useUnseenActivity(enabled = true): UnseenActivity {
  const { data } = useQuery<UnseenActivity>({ queryKey: ACTIVITY_KEY, enabled });
  return data ?? NOTHING_NEW;
}

/**
 * The admin has now seen these submissions' activity: their badges go at once, the server
 * remembers (and says so to this admin's other tabs at their next read).
 */
export async function markActivitySeen(submissionIds: string[]): Promise<void> {
  if (submissionIds.length === 0) return;
  const ids = new Set(submissionIds);
  queryClient.setQueryData<UnseenActivity>(ACTIVITY_KEY, (current) => {
    if (!current) return current;
    const left = current.submissions.filter((s) => !ids.has(s.submissionId));
    return { total: left.reduce((sum, s) => sum + s.count, 0), submissions: left };
  });
  try {
    await apiRequest('POST', '/api/admin/activity/seen', { submissionIds: [...ids] });
  } finally {
    await queryClient.invalidateQueries({ queryKey: ACTIVITY_KEY });
  }
}
