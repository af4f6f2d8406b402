import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { PublicProfile } from '@shared/auth';
import { apiRequest } from '@client/lib/api';
import { queryClient } from '@client/lib/query-client';
import type { ConversationFilter, ConversationsPage, Message, ThreadPage } from '@shared/messages';

/**
 * Every messages query key starts with MESSAGES_KEY, so one invalidation of that prefix refreshes
 * the list, the open thread and the unread count together (what a live event needs).
 */
const MESSAGES_KEY = ['/api/messages'] as const;
const UNREAD_COUNT_KEY = ['/api/messages', 'unread-count'] as const;
const CONTACTS_KEY = ['/api/messages', 'contacts'] as const;
const threadKey = (userId: string) => ['/api/messages', userId, 'thread'] as const;

export const refreshMessages = () => queryClient.invalidateQueries({ queryKey: MESSAGES_KEY });

const CONVERSATIONS_KEY = ['/api/messages', 'conversations'] as const;

/**
 * GET /api/messages/conversations: grouped on the server, latest first, a page at a time;
 * `fetchNextPage` brings the next older page ("Load more").
 */
export function useConversations(filter: ConversationFilter = 'all') {
  return useInfiniteQuery({
    queryKey: [...CONVERSATIONS_KEY, filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams(filter === 'all' ? {} : { filter });
      if (pageParam) query.set('cursor', pageParam);
      const search = query.size > 0 ? `?${query.toString()}` : '';
      return apiRequest<ConversationsPage>('GET', `/api/messages/conversations${search}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** GET /api/messages/contacts: the label team members the current user may start a conversation with. */
export function useContacts() {
  return useQuery<PublicProfile[]>({ queryKey: CONTACTS_KEY });
}

/** GET /api/messages/{userId}, newest page first; `fetchNextPage` loads older messages. */
export function useThread(userId: string | null) {
  return useInfiniteQuery({
    queryKey: threadKey(userId ?? ''),
    enabled: userId !== null,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = pageParam ? `?before=${encodeURIComponent(pageParam)}` : '';
      return apiRequest<ThreadPage>('GET', `/api/messages/${encodeURIComponent(userId!)}${query}`, undefined, { signal });
    },
    // Pages run newest to oldest; the next page is older than the oldest message so far.
    getNextPageParam: (last) => (last.hasMore ? last.messages[0]?.id : undefined),
  });
}

interface SendMessageInput {
  /** A person, or TEAM_CONVERSATION_ID for an artist writing to the label team. */
  toUserId: string;
  content: string;
  submissionId?: string | null;
  /** Object paths from PUT /api/attachment-files. */
  attachments?: string[];
}

/**
 * A file for a message (CONTRACT §18): its bytes to a single-use upload URL, then checked by
 * PUT /api/attachment-files, which answers its object path.
 */
export async function uploadAttachment(file: File): Promise<string> {
  const { uploadURL } = await apiRequest<{ uploadURL: string }>('POST', '/api/objects/upload');
  const put = await fetch(uploadURL, { method: 'PUT', body: file, headers: { 'content-type': 'application/octet-stream' }, credentials: 'same-origin' });
  if (!put.ok) throw new Error(`Upload failed (${put.status})`);
  const { objectPath } = await apiRequest<{ objectPath: string }>('PUT', '/api/attachment-files', { fileURL: uploadURL, fileName: file.name, fileSize: file.size });
  return objectPath;
}

/** POST /api/messages; the lists refresh on success (and again when the live echo arrives). */
export function useSendMessage() {
  return useMutation({
    mutationFn: (input: SendMessageInput) => apiRequest<Message>('POST', '/api/messages', input),
    onSuccess: () => refreshMessages(),
  });
}

/** POST /api/messages/{userId}/read: that person's messages to the current user are read. */
export function useMarkThreadRead() {
  return useMutation({
    mutationFn: (userId: string) => apiRequest<{ updated: number }>('POST', `/api/messages/${encodeURIComponent(userId)}/read`),
    onSuccess: ({ updated }) => {
      if (updated > 0) void refreshMessages();
    },
  });
}

/**
 * Unread messages addressed to the signed-in user (GET /api/messages/unread-count), for the
 * dashboard's Messages badge. 0 while loading or on error. Live events keep it current: the
 * socket (entities/live/live-data.tsx) refreshes it whenever a message arrives or is read.
 */
export function useUnreadMessageCount(): number {
  const { data } = useQuery<{ count: number }>({ queryKey: UNREAD_COUNT_KEY });
  return data?.count ?? 0;
}
