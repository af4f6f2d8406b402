import { useQuery } from '@tanstack/react-query';
import { UNREAD_COUNT_KEY } from './message-queries';

/**
 * Unread messages addressed to the signed-in user (GET /api/messages/unread-count), for the
 * dashboard's Messages badge. 0 while loading or on error. Live events keep it current: the
 * socket opened by `useLiveMessages()` refreshes it whenever a message arrives or is read.
 */
export function useUnreadMessageCount(): number {
  const { data } = useQuery<{ count: number }>({ queryKey: UNREAD_COUNT_KEY });
  return data?.count ?? 0;
}
