import { displayName, type PublicUser } from '@shared/auth';
import type { Message } from '@shared/messages';

/** One entry of the conversations list: everything exchanged with one other person (SPEC §2). */
export interface Conversation {
  user: PublicUser;
  lastMessage: Message;
  /** Messages from them to the current user not yet read. */
  unreadCount: number;
  /** The newest of those, or null. */
  latestUnreadId: string | null;
}

/**
 * Groups the current user's messages (oldest first, as GET /api/messages answers) by the other
 * party; the latest message is the preview. Most recent conversation first.
 */
export function groupConversations(messages: readonly Message[], currentUserId: string): Conversation[] {
  const byUser = new Map<string, Conversation>();
  for (const message of messages) {
    const mine = message.fromUserId === currentUserId;
    const other = mine ? message.toUser : message.fromUser;
    const unread = !mine && !message.isRead ? 1 : 0;
    const existing = byUser.get(other.id);
    const latestUnreadId = unread ? message.id : null;
    if (!existing) {
      byUser.set(other.id, { user: other, lastMessage: message, unreadCount: unread, latestUnreadId });
      continue;
    }
    existing.unreadCount += unread;
    if (latestUnreadId) existing.latestUnreadId = latestUnreadId;
    if (message.createdAt >= existing.lastMessage.createdAt) {
      existing.lastMessage = message;
      // The newest copy of the other person's profile wins (a renamed artist shows the new name).
      existing.user = other;
    }
  }
  return [...byUser.values()].sort((a, b) => (a.lastMessage.createdAt < b.lastMessage.createdAt ? 1 : -1));
}

/** The name shown for the other party: artist name, else first and last name, else email. */
export function partyName(user: Pick<PublicUser, 'artistName' | 'firstName' | 'lastName' | 'email'>): string {
  return displayName(user) || user.email || 'Unknown';
}

const DAY_MS = 24 * 60 * 60 * 1000;
const clockTime = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** SPEC §2, §9: clock time when under 24 hours old, otherwise the date. */
export function formatMessageTime(createdAt: string, now: number = Date.now()): string {
  const time = Date.parse(createdAt);
  if (Number.isNaN(time)) return '';
  return now - time < DAY_MS ? clockTime.format(time) : shortDate.format(time);
}
