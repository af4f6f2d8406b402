import { z } from 'zod';

import type { PublicProfile } from './auth';

/** Messages on the wire (CONTRACT §7): the server validates with these, the client types from them. */
export const MESSAGE_MAX_LENGTH = 5000;
/** Default and largest page of a thread (GET /api/messages/{userId}). */
const THREAD_PAGE_SIZE = 200;

/** Validation texts of a message; the refusals (recipient not found, …) are error codes in ./errors. */
export const MESSAGE_TEXTS = {
  empty: 'Message cannot be empty',
  tooLong: `Message must be at most ${MESSAGE_MAX_LENGTH} characters`,
  recipientRequired: 'Recipient is required',
} as const;

const id = z.string().trim().max(100);

export const sendMessageSchema = z.object({
  toUserId: z.string({ error: MESSAGE_TEXTS.recipientRequired }).trim().min(1, MESSAGE_TEXTS.recipientRequired).max(100),
  content: z
    .string({ error: MESSAGE_TEXTS.empty })
    .trim()
    .min(1, MESSAGE_TEXTS.empty)
    .max(MESSAGE_MAX_LENGTH, MESSAGE_TEXTS.tooLong),
  submissionId: id.nullish().transform((v) => v || null),
});
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

export const threadQuerySchema = z.object({
  /** The id of the oldest message already shown: the page ends just before it. */
  before: id.optional().transform((v) => v || undefined),
  limit: z.coerce.number().int().min(1).max(THREAD_PAGE_SIZE).default(THREAD_PAGE_SIZE),
});
export interface Message {
  id: string;
  fromUserId: string;
  toUserId: string;
  submissionId: string | null;
  content: string;
  isRead: boolean;
  createdAt: string;
  fromUser: PublicProfile;
  toUser: PublicProfile;
}

/** GET /api/messages/{userId}: the other party and a page of the thread, oldest first. */
export interface ThreadPage {
  user: PublicProfile;
  messages: Message[];
  hasMore: boolean;
}

/** Default and largest page of GET /api/messages/conversations. */
const CONVERSATIONS_PAGE_SIZE = 50;
const CONVERSATIONS_PAGE_MAX = 100;

export const conversationsQuerySchema = z.object({
  /** `nextCursor` of the page before; absent for the first page. */
  cursor: z.string().trim().max(200).optional().transform((v) => v || undefined),
  limit: z.coerce.number().int().min(1).max(CONVERSATIONS_PAGE_MAX).default(CONVERSATIONS_PAGE_SIZE),
});

/** One entry of the conversations list: everything exchanged with one other person (SPEC §2). */
export interface Conversation {
  /** The other person. */
  user: PublicProfile;
  /** Without its users: the other is `user`, the caller is the caller. */
  lastMessage: Omit<Message, 'fromUser' | 'toUser'>;
  /** Messages from them to the current user not yet read. */
  unreadCount: number;
  /** The newest of those, or null. */
  latestUnreadId: string | null;
}

/** GET /api/messages/conversations: the caller's conversations, latest message first. */
export interface ConversationsPage {
  conversations: Conversation[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}
