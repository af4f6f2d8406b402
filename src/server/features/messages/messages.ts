import { and, asc, count, desc, eq, inArray, isNotNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PublicProfile } from '@shared/auth';
import { displayName } from '@shared/users';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../platform/db/client';
import {
  conversations,
  messageAttachments,
  messages,
  submissionDesk,
  submissions,
  teamConversations,
  uploads,
  users,
  type MessageRow,
  type UserRow,
} from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import {
  betweenTeamMembers,
  inTeamConversation,
  isTeam,
  unreadInTeamConversation,
  waitingFor,
} from '../../domain/message/team-inbox';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { decodeCursor, encodeCursor } from '../../platform/page-cursor';
import { toPublicProfile } from '../../platform/public-user';
import { FILE_LIMITS, objectPathOf, uploadIdFromObjectPath } from '@shared/submissions';
import {
  ATTACHMENT_CONTENT_TYPES,
  MESSAGE_TEXTS,
  TEAM_CONVERSATION_ID,
  TEAM_PROFILE,
  type ConversationFilter,
  type ConversationsPage,
  type Message as MessageView,
  type MessageAttachment,
  type SendMessageInput,
  type ThreadPage,
} from '@shared/messages';

/** A team member shown to artists as someone to write to; bounded, a label's team is small. */
const MAX_CONTACTS = 100;
/** Every team member's socket gets a team conversation's messages; a label's team is small. */
const MAX_TEAM = 1000;

const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');

/**
 * Which conversation a caller and the id of "the other side" name (CONTRACT §18): for the team,
 * an artist's id is that artist's team conversation and another team member's id their
 * conversation together; for an artist, any team member's id (or `team`) is their own team
 * conversation. Anything else is "not found", so artists learn nothing about other accounts.
 */
type ConversationRef =
  | { kind: 'team'; artistId: string; other: PublicProfile }
  | { kind: 'pair'; other: UserRow };

async function resolveConversation(db: Db, caller: UserRow, otherId: string): Promise<ConversationRef> {
  if (!isTeam(caller) && otherId === TEAM_CONVERSATION_ID) return { kind: 'team', artistId: caller.id, other: TEAM_PROFILE };
  const [other] = otherId === TEAM_CONVERSATION_ID ? [] : await db.select().from(users).where(eq(users.id, otherId)).limit(1);
  if (!other) throw apiError('user_not_found');
  if (isTeam(caller)) {
    return isTeam(other) ? { kind: 'pair', other } : { kind: 'team', artistId: other.id, other: toPublicProfile(other) };
  }
  if (!isTeam(other)) throw apiError('user_not_found');
  return { kind: 'team', artistId: caller.id, other: TEAM_PROFILE };
}

const conversationWhere = (caller: UserRow, ref: ConversationRef): SQL =>
  ref.kind === 'team' ? inTeamConversation(ref.artistId) : betweenTeamMembers(caller.id, ref.other.id);

function selectViews(db: Db) {
  return db
    .select({
      message: messages,
      from: fromUser,
      to: toUser,
      submission: { id: submissions.id, songTitle: submissions.songTitle, status: submissions.status },
    })
    .from(messages)
    .innerJoin(fromUser, eq(fromUser.id, messages.fromUserId))
    .leftJoin(toUser, eq(toUser.id, messages.toUserId))
    .leftJoin(submissions, eq(submissions.id, messages.submissionId));
}

/** The files of these messages, by message, in the order they were sent. */
async function attachmentsOf(db: Db, messageIds: string[]): Promise<Map<string, MessageAttachment[]>> {
  const byMessage = new Map<string, MessageAttachment[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .select({ messageId: messageAttachments.messageId, upload: uploads })
    .from(messageAttachments)
    .innerJoin(uploads, eq(uploads.id, messageAttachments.uploadId))
    .where(inArray(messageAttachments.messageId, messageIds))
    .orderBy(asc(messageAttachments.messageId), asc(messageAttachments.position));
  for (const { messageId, upload } of rows) {
    const list = byMessage.get(messageId) ?? [];
    list.push({ objectPath: objectPathOf(upload.id), fileName: upload.fileName, contentType: upload.contentType ?? 'application/octet-stream', size: upload.size });
    byMessage.set(messageId, list);
  }
  return byMessage;
}

type ViewRow = Awaited<ReturnType<typeof selectViews>>[number];

/** A message as the API shows it, without its people, files or submission: one shape for the thread and the list. */
const messageFields = (message: MessageRow) => ({
  id: message.id,
  fromUserId: message.fromUserId,
  toUserId: message.toUserId,
  artistId: message.artistId,
  submissionId: message.submissionId,
  content: message.content,
  isRead: message.isRead,
  createdAt: message.createdAt.toISOString(),
});

async function toViews(db: Db, rows: ViewRow[]): Promise<MessageView[]> {
  const files = await attachmentsOf(
    db,
    rows.map((r) => r.message.id),
  );
  return rows.map(({ message, from, to, submission }) => ({
    ...messageFields(message),
    fromUser: toPublicProfile(from),
    toUser: to ? toPublicProfile(to) : null,
    attachments: files.get(message.id) ?? [],
    submission: submission?.id ? submission : null,
  }));
}

/** Every message the user sent, received, or (the team) that is in an artist's conversation, oldest first. */
export async function listMessages(db: Db, caller: UserRow): Promise<MessageView[]> {
  const mine = or(eq(messages.fromUserId, caller.id), eq(messages.toUserId, caller.id), eq(messages.artistId, caller.id));
  const rows = await selectViews(db)
    .where(isTeam(caller) ? or(mine, isNotNull(messages.artistId)) : mine)
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return toViews(db, rows);
}

/** One message with its users, for pushing it to sockets. */
export async function loadMessageView(db: Db, messageId: string): Promise<MessageView | null> {
  const rows = await selectViews(db).where(eq(messages.id, messageId)).limit(1);
  return (await toViews(db, rows))[0] ?? null;
}

/**
 * A conversation of the caller (see resolveConversation), newest page first but returned oldest
 * first. The cursor is looked up inside the conversation, so another conversation's id yields
 * nothing; it is compared as stored text, keeping the microseconds a JavaScript Date would drop.
 */
export async function loadThread(
  db: Db,
  caller: UserRow,
  otherUserId: string,
  page: { before?: string | undefined; limit: number },
): Promise<ThreadPage> {
  const ref = await resolveConversation(db, caller, otherUserId);
  const conversation = conversationWhere(caller, ref);
  let before: SQL | undefined;
  if (page.before) {
    const [cursor] = await db
      .select({ at: sql<string>`${messages.createdAt}::text`, id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, page.before), conversation))
      .limit(1);
    if (!cursor) return { user: ref.kind === 'team' ? ref.other : toPublicProfile(ref.other), messages: [], hasMore: false };
    before = sql`(${messages.createdAt}, ${messages.id}) < (${cursor.at}::timestamptz, ${cursor.id})`;
  }
  const rows = await selectViews(db)
    .where(and(conversation, before))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(page.limit + 1);
  const views = await toViews(db, rows.slice(0, page.limit).reverse());
  return { user: ref.kind === 'team' ? ref.other : toPublicProfile(ref.other), messages: views, hasMore: rows.length > page.limit };
}

/** The ids of the team, to push a team conversation's messages to every member's sockets. */
export async function teamMemberIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.id)).limit(MAX_TEAM);
  return rows.map((r) => r.id);
}

/** A stored message and who should see it arrive. */
export interface SentMessage {
  message: MessageView;
  /** Every open socket of these users gets the push. */
  audience: string[];
  /** The team's read state changed (a team member answered): the team's other tabs refresh. */
  teamRead: boolean;
}

/**
 * Stores a message (CONTRACT §7, §18). An artist's message goes to the team (a `toUserId`, if
 * given, must be a team member's or `team`); the team writes to anyone: to an artist, into that
 * artist's team conversation, which answering marks read for the team. A linked submission must
 * be the conversation's artist's; attachments the sender's own checked files.
 */
export async function sendMessage(
  db: Db,
  outbox: EmailQueue,
  sender: UserRow,
  input: SendMessageInput,
  emailDelayS: number,
): Promise<SentMessage> {
  let recipient: UserRow | null = null;
  let artistId: string | null;
  if (!isTeam(sender)) {
    if (input.toUserId && input.toUserId !== TEAM_CONVERSATION_ID) {
      const [named] = await db.select().from(users).where(eq(users.id, input.toUserId)).limit(1);
      // The same answer whether the named person is an artist or nobody.
      if (!named || !isTeam(named)) throw apiError('artists_message_team_only');
    }
    artistId = sender.id;
  } else {
    if (!input.toUserId) throw apiError('validation_failed', MESSAGE_TEXTS.recipientRequired, [{ path: 'toUserId', message: MESSAGE_TEXTS.recipientRequired }]);
    [recipient = null] = await db.select().from(users).where(eq(users.id, input.toUserId)).limit(1);
    if (!recipient) throw apiError('recipient_not_found');
    if (recipient.id === sender.id) throw apiError('cannot_message_self');
    artistId = isTeam(recipient) ? null : recipient.id;
  }

  if (input.submissionId) {
    const [owned] = await db
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.id, input.submissionId), eq(submissions.userId, artistId ?? recipient!.id)))
      .limit(1);
    if (!owned) throw apiError('submission_not_found');
  }

  const uploadIds = [...new Set(input.attachments.map((path) => uploadIdFromObjectPath(path)!))];
  if (uploadIds.length > 0) {
    const [found] = await db
      .select({ n: count() })
      .from(uploads)
      .where(
        and(
          inArray(uploads.id, uploadIds),
          eq(uploads.userId, sender.id),
          inArray(uploads.contentType, ATTACHMENT_CONTENT_TYPES),
          // A finished video (up to 2 GB) is checked as a video, not as a message's file.
          lte(uploads.size, FILE_LIMITS.attachmentBytes),
        ),
      );
    if ((found?.n ?? 0) !== uploadIds.length) throw apiError('attachment_not_found');
  }

  const team = artistId !== null ? await teamMemberIds(db) : [];
  const { row, teamRead } = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({ id: newId(), fromUserId: sender.id, toUserId: recipient?.id ?? null, artistId, submissionId: input.submissionId, content: input.content })
      .returning();
    if (uploadIds.length > 0) {
      await tx.insert(messageAttachments).values(uploadIds.map((uploadId, position) => ({ messageId: row!.id, position, uploadId })));
    }
    let teamRead = false;
    if (artistId !== null) {
      await recordInTeamConversation(tx, row!.id);
      // Answering is reading (CONTRACT §18): the artist's messages are no longer unread for the team.
      if (isTeam(sender)) {
        const read = await tx.update(messages).set({ isRead: true }).where(unreadInTeamConversation(artistId, 'team')).returning({ id: messages.id });
        teamRead = read.length > 0;
      }
    } else {
      await recordInConversations(tx, row!.id);
    }
    // Emailed only if still unread after the delay; while one such email waits, later messages
    // join it (unread-messages-email.ts decides what it says when it goes). An artist's message
    // waits for every team member: each has one such email pending, and reading it in the app
    // (by any of them) leaves nothing to send.
    const notified = artistId !== null && !isTeam(sender) ? team.filter((id) => id !== sender.id) : [recipient!.id];
    for (const userId of notified) {
      await outbox.queue(tx, {
        kind: 'unread_messages',
        userId,
        dedupeKey: `unread_messages:${userId}`,
        sendAfter: new Date(row!.createdAt.getTime() + emailDelayS * 1000),
        data: {
          conversations: [{ fromUserId: sender.id, fromName: displayName(sender), count: 1, latest: row!.content }],
          total: 1,
        },
      });
    }
    return { row: row!, teamRead };
  });
  const message = (await loadMessageView(db, row.id))!;
  const audience = artistId !== null ? [...team, artistId] : [sender.id, recipient!.id];
  return { message, audience: [...new Set(audience)], teamRead };
}

/**
 * Makes the message the latest of its conversation for both people, unless a later one already
 * is. Rows are written in key order, so two messages crossing between the same two people lock
 * them in the same order and cannot deadlock. The stored time is the message's own, to the
 * microsecond.
 */
async function recordInConversations(tx: Pick<Tx, 'execute'>, messageId: string): Promise<void> {
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

/** The same for an artist's team conversation: its one row moves forward in time only. */
async function recordInTeamConversation(tx: Pick<Tx, 'execute'>, messageId: string): Promise<void> {
  await tx.execute(sql`
    insert into ${teamConversations} (artist_id, last_message_id, last_message_at)
    select m.artist_id, m.id, m.created_at from ${messages} m where m.id = ${messageId}
    on conflict (artist_id) do update
      set last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
      where ${teamConversations}.last_message_at <= excluded.last_message_at`);
}

interface PageRow extends Record<string, unknown> {
  other_id: string;
  last_message_id: string;
  at: string;
  team: boolean;
  assignee_id: string | null;
  unread_count: number;
  latest_unread_id: string | null;
}

/**
 * GET /api/messages/conversations, latest message first, a page at a time (keyset on the latest
 * message's time and the other side's id). An artist has one: the team. The team sees every
 * artist's team conversation (with the assignee of the artist's latest submission, and the
 * filters mine / unassigned / all) and its members' conversations with each other (all only).
 */
export async function listConversations(
  db: Db,
  caller: UserRow,
  page: { cursor?: string | undefined; limit: number; filter: ConversationFilter },
): Promise<ConversationsPage> {
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  const afterSql = (at: SQL, id: SQL) => (after ? sql`and (${at}, ${id}) < (${after.at}::timestamptz, ${after.id})` : sql``);
  const latestAssignee = (artist: SQL) =>
    sql`(select d.assignee_id from ${submissions} s left join ${submissionDesk} d on d.submission_id = s.id
         where s.user_id = ${artist} order by s.created_at desc, s.id desc limit 1)`;
  // The page is cut first (on the two indexes, latest first) and the assignee read for its rows
  // only; the filters read it in the team's branch, for the rows they need to judge.
  let source: SQL;
  if (isTeam(caller)) {
    const filter =
      page.filter === 'mine' ? sql`and ${latestAssignee(sql`tc.artist_id`)} = ${caller.id}` : page.filter === 'unassigned' ? sql`and ${latestAssignee(sql`tc.artist_id`)} is null` : sql``;
    source = sql`select tc.artist_id as other_id, tc.last_message_id, tc.last_message_at, true as team
        from ${teamConversations} tc where true ${afterSql(sql`tc.last_message_at`, sql`tc.artist_id`)} ${filter}
        ${page.filter === 'all' ? sql`union all
        select c.other_user_id, c.last_message_id, c.last_message_at, false
        from ${conversations} c where c.user_id = ${caller.id} ${afterSql(sql`c.last_message_at`, sql`c.other_user_id`)}` : sql``}`;
  } else {
    source = sql`select tc.artist_id as other_id, tc.last_message_id, tc.last_message_at, true as team
      from ${teamConversations} tc where tc.artist_id = ${caller.id} ${after ? sql`and false` : sql``}`;
  }
  const unreadOf = isTeam(caller)
    ? sql`u.is_read = false and ((page.team and u.artist_id = page.other_id and u.from_user_id = page.other_id)
        or (not page.team and u.artist_id is null and u.to_user_id = ${caller.id} and u.from_user_id = page.other_id))`
    : sql`u.is_read = false and u.artist_id = ${caller.id} and u.from_user_id <> ${caller.id}`;
  const result = await db.execute(sql`
    with page as (${source} order by last_message_at desc, other_id desc limit ${page.limit + 1})
    select page.other_id, page.last_message_id, page.last_message_at::text as at, page.team,
      ${isTeam(caller) ? sql`case when page.team then ${latestAssignee(sql`page.other_id`)} end` : sql`null::text`} as assignee_id,
      (select count(*)::int from ${messages} u where ${unreadOf}) as unread_count,
      (select u.id from ${messages} u where ${unreadOf} order by u.created_at desc, u.id desc limit 1) as latest_unread_id
    from page order by page.last_message_at desc, page.other_id desc`);
  const rows = (result as unknown as { rows: PageRow[] }).rows;
  const shown = rows.slice(0, page.limit);

  const people = new Map<string, UserRow>();
  const personIds = [...new Set(shown.flatMap((r) => [r.other_id, r.assignee_id]).filter((id): id is string => id !== null && id !== caller.id))];
  if (personIds.length > 0) for (const u of await db.select().from(users).where(inArray(users.id, personIds))) people.set(u.id, u);
  const latest = new Map<string, MessageRow>();
  const messageIds = shown.map((r) => r.last_message_id);
  if (messageIds.length > 0) for (const m of await db.select().from(messages).where(inArray(messages.id, messageIds))) latest.set(m.id, m);

  const last = shown.at(-1);
  return {
    conversations: shown.flatMap((r) => {
      const message = latest.get(r.last_message_id);
      const other = isTeam(caller) ? people.get(r.other_id) : undefined;
      if (!message || (isTeam(caller) && !other)) return [];
      const assignee = r.assignee_id === null ? null : r.assignee_id === caller.id ? caller : people.get(r.assignee_id);
      return [
        {
          user: other ? toPublicProfile(other) : TEAM_PROFILE,
          lastMessage: messageFields(message),
          assignee: assignee ? { id: assignee.id, name: displayName(assignee) || assignee.email || 'Team member' } : null,
          unreadCount: r.unread_count,
          latestUnreadId: r.latest_unread_id,
        },
      ];
    }),
    nextCursor: rows.length > page.limit && last ? encodeCursor({ at: last.at, id: last.other_id }) : null,
  };
}

/**
 * Marks the conversation read for the caller (CONTRACT §18): for the team, an artist's messages
 * are read once any team member has opened them. Answers how many changed and whether the team's
 * read state changed (its other members' tabs refresh).
 */
export async function markThreadRead(db: Db, caller: UserRow, otherUserId: string): Promise<{ updated: number; team: boolean }> {
  const ref = await resolveConversation(db, caller, otherUserId);
  const where =
    ref.kind === 'team'
      ? unreadInTeamConversation(ref.artistId, isTeam(caller) ? 'team' : 'artist')
      : and(betweenTeamMembers(caller.id, ref.other.id), eq(messages.toUserId, caller.id), eq(messages.isRead, false));
  const updated = await db.update(messages).set({ isRead: true }).where(where).returning({ id: messages.id });
  return { updated: updated.length, team: ref.kind === 'team' && isTeam(caller) };
}

/** Messages waiting for the caller to read them (team-inbox.ts's waitingFor). */
export async function countUnread(db: Db, caller: UserRow): Promise<number> {
  const [row] = await db.select({ count: count() }).from(messages).where(waitingFor(caller));
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
