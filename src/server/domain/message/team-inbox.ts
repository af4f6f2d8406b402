import { and, eq, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { messages, type UserRow } from '../../platform/db/schema';

/** The label's team (CONTRACT §7, §18). */
export const isTeam = (user: Pick<UserRow, 'role'>) => user.role === 'admin';

/**
 * The messages waiting for this person to read them (CONTRACT §18, decision 159): for a team
 * member, every artist's message to the team (one read state for the whole team) and the messages
 * another team member addressed to them; for an artist, the team's messages in their conversation.
 * Shared by the unread count, the conversations list and the unread email, so they cannot disagree.
 */
export function waitingFor(user: Pick<UserRow, 'id' | 'role'>): SQL {
  if (isTeam(user)) {
    return sql`${messages.isRead} = false and (
      (${messages.artistId} is not null and ${messages.fromUserId} = ${messages.artistId})
      or (${messages.artistId} is null and ${messages.toUserId} = ${user.id}))`;
  }
  return and(eq(messages.isRead, false), eq(messages.artistId, user.id), ne(messages.fromUserId, user.id))!;
}

/** The messages of one artist's conversation with the team that the other side has not read yet. */
export function unreadInTeamConversation(artistId: string, readBy: 'team' | 'artist'): SQL {
  return and(
    eq(messages.isRead, false),
    eq(messages.artistId, artistId),
    readBy === 'team' ? eq(messages.fromUserId, artistId) : ne(messages.fromUserId, artistId),
  )!;
}

/** The messages of a conversation between two team members (no artist's). */
export function betweenTeamMembers(a: string, b: string): SQL {
  return and(
    isNull(messages.artistId),
    sql`((${messages.fromUserId} = ${a} and ${messages.toUserId} = ${b}) or (${messages.fromUserId} = ${b} and ${messages.toUserId} = ${a}))`,
  )!;
}

export const inTeamConversation = (artistId: string): SQL => and(isNotNull(messages.artistId), eq(messages.artistId, artistId))!;
