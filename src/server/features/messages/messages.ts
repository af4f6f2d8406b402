import { and, asc, count, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PublicProfile } from '@shared/auth';
import { displayName } from '@shared/users';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client';
import { conversations, messages, submissions, users, type MessageRow, type UserRow } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { decodeCursor, encodeCursor } from '../../platform/page-cursor';
import { toPublicProfile } from '../../platform/public-user';
import {
  type ConversationsPage,
  type Message as MessageView,
  type SendMessageInput,
  type ThreadPage,
} from '@shared/messages';

/** The label's team: artists may write to these only (CONTRACT §7). */
const isTeam = (user: Pick<UserRow, 'role'>) => user.role === 'admin';
/** A team member shown to artists as someone to write to; bounded, a label's team is small. */
const MAX_CONTACTS = 100;

const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');

function toView(message: MessageRow, from: UserRow, to: UserRow): MessageView {
  return {
    id: message.id,
    fromUserId: message.fromUserId,
    toUserId: message.toUserId,
    submissionId: message.submissionId,
    content: message.content,
    isRead: message.isRead,
    createdAt: message.createdAt.toISOString(),
    fromUser: toPublicProfile(from),
    toUser: toPublicProfile(to),
  };
}

function selectViews(db: Db) {
  return db
    .select({ message: messages, from: fromUser, to: toUser })
    .from(messages)
    .innerJoin(fromUser, eq(fromUser.id, messages.fromUserId))
    .innerJoin(toUser, eq(toUser.id, messages.toUserId));
}

const between = (a: string, b: string): SQL =>
  or(
    and(eq(messages.fromUserId, a), eq(messages.toUserId, b)),
    and(eq(messages.fromUserId, b), eq(messages.toUserId, a)),
  )!;

/** Every message the user sent or received, oldest first (CONTRACT §7). */
export async function listMessages(db: Db, userId: string): Promise<MessageView[]> {
  const rows = await selectViews(db)
    .where(or(eq(messages.fromUserId, userId), eq(messages.toUserId, userId)))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return rows.map((r) => toView(r.message, r.from, r.to));
}

/** One message with its users, for pushing it to sockets. */
export async function loadMessageView(db: Db, messageId: string): Promise<MessageView | null> {
  const [row] = await selectViews(db).where(eq(messages.id, messageId)).limit(1);
  return row ? toView(row.message, row.from, row.to) : null;
}

/**
 * The conversation between the caller and another user, newest page first but returned oldest
 * first. The other user must be someone the caller may see: anyone for the team, team members or
 * people they have exchanged messages with for artists; anyone else is "not found".
 */
export async function loadThread(
  db: Db,
  caller: UserRow,
  otherUserId: string,
  page: { before?: string | undefined; limit: number },
): Promise<ThreadPage> {
  const [other] = await db.select().from(users).where(eq(users.id, otherUserId)).limit(1);
  if (!other) throw apiError('user_not_found');

  const conversation = between(caller.id, other.id);
  // The cursor is looked up inside the conversation, so another conversation's id yields nothing;
  // comparing with the stored timestamp keeps its microseconds, which a JavaScript Date would drop.
  const beforeCursor = page.before
    ? sql`(${messages.createdAt}, ${messages.id}) < (select m.created_at, m.id from ${messages} m where m.id = ${page.before} and (
        (m.from_user_id = ${caller.id} and m.to_user_id = ${other.id}) or (m.from_user_id = ${other.id} and m.to_user_id = ${caller.id})))`
    : undefined;
  const rows = await selectViews(db)
    .where(beforeCursor ? and(conversation, beforeCursor) : conversation)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(page.limit + 1);

  if (rows.length === 0 && !page.before && !isTeam(caller) && !isTeam(other)) {
    throw apiError('user_not_found');
  }
  const hasMore = rows.length > page.limit;
  const views = rows
    .slice(0, page.limit)
    .reverse()
    .map((r) => toView(r.message, r.from, r.to));
  return { user: toPublicProfile(other), messages: views, hasMore };
}

/**
 * Stores a message (CONTRACT §7). Artists write to team members only; the team writes to anyone.
 * A linked submission must be the artist's in this conversation: the sender's own when an artist
 * writes, the recipient's when the team does.
 */
export async function sendMessage(
  db: Db,
  outbox: EmailQueue,
  sender: UserRow,
  input: SendMessageInput,
  emailDelayS: number,
): Promise<MessageView> {
  const [recipient] = await db.select().from(users).where(eq(users.id, input.toUserId)).limit(1);
  if (!isTeam(sender)) {
    // The same answer whether the recipient is an artist or nobody: artists learn nothing about other accounts.
    if (!recipient || !isTeam(recipient)) throw apiError('artists_message_team_only');
  } else if (!recipient) {
    throw apiError('recipient_not_found');
  }
  if (recipient.id === sender.id) throw apiError('cannot_message_self');

  if (input.submissionId) {
    const artistId = isTeam(sender) ? recipient.id : sender.id;
    const [owned] = await db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.id, input.submissionId), eq(submissions.userId, artistId)))
      .limit(1);
    if (!owned) throw apiError('submission_not_found');
  }

  const message = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({
        id: newId(),
        fromUserId: sender.id,
        toUserId: recipient.id,
        submissionId: input.submissionId,
        content: input.content,
      })
      .returning();
    await recordInConversations(tx, row!.id);
    // Emailed only if still unread after the delay; while one such email waits, later
    // messages join it (unread-messages-email.ts decides what it says when it goes).
    await outbox.queue(tx, {
      kind: 'unread_messages',
      userId: recipient.id,
      dedupeKey: `unread_messages:${recipient.id}`,
      sendAfter: new Date(row!.createdAt.getTime() + emailDelayS * 1000),
      data: {
        conversations: [{ fromUserId: sender.id, fromName: displayName(sender), count: 1, latest: row!.content }],
        total: 1,
      },
    });
    return row!;
  });
  return toView(message, sender, recipient);
}

/**
 * Makes the message the latest of its conversation for both people, unless a later one already
 * is. Rows are written in key order, so two messages crossing between the same two people lock
 * them in the same order and cannot deadlock. The stored time is the message's own, to the
 * microsecond.
 */
async function recordInConversations(tx: Pick<Db, 'execute'>, messageId: string): Promise<void> {
  await tx.execute(sql`
    insert into ${conversations} (user_id, other_user_id, last_message_id, last_message_at)
    select p.user_id, p.other_user_id, m.id, m.created_at
    from ${messages} m
    cross join lateral (values (m.from_user_id, m.to_user_id), (m.to_user_id, m.from_user_id)) as p(user_id, other_user_id)
    where m.id = ${messageId}
    order by p.user_id
    on conflict (user_id, other_user_id) do update
      set last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
      where ${conversations}.last_message_at <= excluded.last_message_at`);
}

/**
 * GET /api/messages/conversations: the caller's conversations, latest message first, a page at a
 * time on conversations_user_latest_idx. The latest message comes by its id; the unread count
 * and the newest unread message are counted on messages_unread_idx for the page's rows only.
 */
export async function listConversations(
  db: Db,
  callerId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<ConversationsPage> {
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  // The page is cut on the index first and joined after: joined first, the planner would join
  // every conversation of the user and sort them all.
  const pageRows = db
    .select({
      userId: conversations.userId,
      otherUserId: conversations.otherUserId,
      lastMessageId: conversations.lastMessageId,
      lastMessageAt: conversations.lastMessageAt,
      at: sql<string>`${conversations.lastMessageAt}::text`.as('at'),
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.userId, callerId),
        after ? sql`(${conversations.lastMessageAt}, ${conversations.otherUserId}) < (${after.at}::timestamptz, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.otherUserId))
    .limit(page.limit + 1)
    .as('page');
  const unreadFrom = sql`from ${messages} u where u.to_user_id = ${pageRows.userId} and u.from_user_id = ${pageRows.otherUserId} and u.is_read = false`;
  const rows = await db
    .select({
      at: pageRows.at,
      otherUserId: pageRows.otherUserId,
      message: messages,
      other: users,
      unreadCount: sql<number>`(select count(*)::int ${unreadFrom})`,
      latestUnreadId: sql<string | null>`(select u.id ${unreadFrom} order by u.created_at desc, u.id desc limit 1)`,
    })
    .from(pageRows)
    .innerJoin(messages, eq(messages.id, pageRows.lastMessageId))
    .innerJoin(users, eq(users.id, pageRows.otherUserId))
    .orderBy(desc(pageRows.lastMessageAt), desc(pageRows.otherUserId));
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    conversations: shown.map((r) => ({
      user: toPublicProfile(r.other),
      lastMessage: {
        id: r.message.id,
        fromUserId: r.message.fromUserId,
        toUserId: r.message.toUserId,
        submissionId: r.message.submissionId,
        content: r.message.content,
        isRead: r.message.isRead,
        createdAt: r.message.createdAt.toISOString(),
      },
      unreadCount: r.unreadCount,
      latestUnreadId: r.latestUnreadId,
    })),
    nextCursor: rows.length > page.limit && last ? encodeCursor({ at: last.at, id: last.otherUserId }) : null,
  };
}

/** Marks every unread message from `otherUserId` to the caller as read; answers how many changed. */
export async function markThreadRead(db: Db, callerId: string, otherUserId: string): Promise<number> {
  const updated = await db
    .update(messages)
    .set({ isRead: true })
    .where(and(eq(messages.toUserId, callerId), eq(messages.fromUserId, otherUserId), eq(messages.isRead, false)))
    .returning({ id: messages.id });
  return updated.length;
}

/** Unread messages addressed to the user: one count on the partial index messages_unread_idx. */
export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(messages)
    .where(and(eq(messages.toUserId, userId), eq(messages.isRead, false)));
  return row?.count ?? 0;
}

/** The team members the caller may start a conversation with, longest-standing first. */
export async function listContacts(db: Db, callerId: string): Promise<PublicProfile[]> {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.role, 'admin'), ne(users.id, callerId)))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(MAX_CONTACTS);
  return rows.map(toPublicProfile);
}
