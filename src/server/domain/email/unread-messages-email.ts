import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { displayName } from '@shared/users';
import { messages, outboxEmails, users } from '../../platform/db/schema';
import { isTeam, waitingFor } from '../message/team-inbox';
import { TEAM_CONVERSATION_ID, TEAM_NAME } from '@shared/messages';
import { PREPARED_AT, type EmailPreparer } from '../../platform/email/outbox';
import type { UnreadMessagesData } from './templates/unread-messages';

/** At most this many conversations are quoted in one email; the rest are counted. */
const MAX_CONVERSATIONS = 10;

/**
 * What an "unread messages" email says when it goes out (CONTRACT §10): the messages to its
 * recipient that are still unread and were in no earlier such email. None left → no email. If
 * the oldest is younger than the delay (an older one was read meanwhile), the email waits until
 * that one has been unread long enough.
 */
export const gatherUnreadMessages: EmailPreparer<UnreadMessagesData> = async (row, db, config) => {
  const delayS = config.mail.messageDelayS;
  // Emails already reported (sent) or settled and on their way (prepared, decision 082).
  const reported = and(
    eq(outboxEmails.userId, row.userId),
    eq(outboxEmails.kind, 'unread_messages'),
    or(inArray(outboxEmails.status, ['sent', 'logged']), and(eq(outboxEmails.status, 'pending'), sql`${outboxEmails.templateData} ? ${PREPARED_AT}`)),
  );
  // Emails written before they listed their messages' ids mark a time instead (text keeps
  // PostgreSQL's microseconds).
  const [mark] = await db
    .select({ coveredUntil: sql<string | null>`max((${outboxEmails.templateData}->>'coveredUntil')::timestamptz)::text` })
    .from(outboxEmails)
    .where(and(reported, sql`not (${outboxEmails.templateData} ? 'messageIds')`));
  // The recipient's role decides what waits for them: for the team, every artist's unread message.
  const [recipient] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, row.userId)).limit(1);
  if (!recipient) return { skip: 'The recipient no longer exists' };
  const unread = await db
    .select({
      id: messages.id,
      fromUserId: messages.fromUserId,
      content: messages.content,
      createdAt: messages.createdAt,
      sender: { firstName: users.firstName, lastName: users.lastName, artistName: users.artistName },
    })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.fromUserId))
    .where(
      and(
        waitingFor(recipient),
        mark?.coveredUntil ? sql`${messages.createdAt} > ${mark.coveredUntil}::timestamptz` : undefined,
        // By id, not by time: concurrent messages commit in another order than their timestamps,
        // so "after the last one reported" could skip one committed late.
        sql`not exists (select 1 from ${outboxEmails} where ${reported} and ${outboxEmails.templateData}->'messageIds' ? ${messages.id})`,
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
  if (unread.length === 0) return { skip: 'Every message was read in time' };

  const oldest = unread[0]!;
  const due = new Date(oldest.createdAt.getTime() + delayS * 1000);
  if (due.getTime() > Date.now()) return { notBefore: due };

  const bySender = new Map<string, UnreadMessagesData['conversations'][number]>();
  for (const message of unread) {
    // For the team, one conversation per artist. For an artist, the team's messages are one
    // conversation with the label team, whichever admin wrote (CONTRACT §18); the quoted one keeps
    // the signature of the admin who wrote it, as the thread shows it.
    const team = isTeam(recipient);
    const conversationId = team ? message.fromUserId : TEAM_CONVERSATION_ID;
    const signedBy = team ? undefined : displayName(message.sender);
    const entry = bySender.get(conversationId);
    if (entry) {
      entry.count += 1;
      entry.latest = message.content;
      entry.signedBy = signedBy;
    } else {
      bySender.set(conversationId, {
        fromUserId: conversationId,
        fromName: team ? displayName(message.sender) : TEAM_NAME,
        count: 1,
        latest: message.content,
        signedBy,
      });
    }
  }
  // The conversation with the newest message first.
  const conversations = [...bySender.values()].reverse().slice(0, MAX_CONVERSATIONS);
  const data: UnreadMessagesData & { messageIds: string[] } = {
    conversations,
    total: unread.length,
    messageIds: unread.map((m) => m.id),
  };
  return { send: { ...data } };
};
