import type { PublicUser } from '@shared/auth';

/**
 * The wire shapes of CONTRACT §7, as the server's messages feature answers them. The limit mirrors
 * the server's `MESSAGE_MAX_LENGTH`; both belong in src/shared once messages get a shared module.
 */
export const MESSAGE_MAX_LENGTH = 5000;

export interface Message {
  id: string;
  fromUserId: string;
  toUserId: string;
  submissionId: string | null;
  content: string;
  isRead: boolean;
  createdAt: string;
  fromUser: PublicUser;
  toUser: PublicUser;
}

/** GET /api/messages/{userId}: the other party and a page of the thread, oldest first. */
export interface ThreadPage {
  user: PublicUser;
  messages: Message[];
  hasMore: boolean;
}

/** What the server pushes on /ws. */
export type LiveEvent =
  | { type: 'ready'; userId: string }
  | { type: 'new_message'; message: Message }
  | { type: 'messages_read'; userId: string }
  | { type: 'resync' };

/** SPEC §2: the 'New Message' notice names the sender by artist name, else first name, else Unknown. */
export function senderName(user: Pick<PublicUser, 'artistName' | 'firstName'> | null | undefined): string {
  return user?.artistName?.trim() || user?.firstName?.trim() || 'Unknown';
}
