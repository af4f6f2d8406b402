// Messages: the artist's and the team's conversations, messages and attachments. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { submissions } from './submissions';
import { uploads } from './uploads';

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    fromUserId: text('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null: an artist's message to the label team (CONTRACT §18). */
    toUserId: text('to_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The artist whose team conversation this is; null between two team members (decision 159). */
    artistId: text('artist_id').references(() => users.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_from_created_idx').on(t.fromUserId, t.createdAt),
    index('messages_to_created_idx').on(t.toUserId, t.createdAt),
    index('messages_unread_idx').on(t.toUserId, t.fromUserId).where(sql`${t.isRead} = false`),
    index('messages_artist_created_idx').on(t.artistId, t.createdAt),
    index('messages_team_unread_idx').on(t.artistId, t.fromUserId).where(sql`${t.isRead} = false AND ${t.artistId} IS NOT NULL`),
  ],
);

/**
 * One row per artist: their conversation with the whole label team, pointing at its latest
 * message (CONTRACT §18, decision 159). Every admin's conversation list pages these; the
 * per-person `conversations` rows remain for messages between two team members.
 */
export const teamConversations = pgTable(
  'team_conversations',
  {
    artistId: text('artist_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageId: text('last_message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('team_conversations_latest_idx').on(t.lastMessageAt.desc(), t.artistId.desc())],
);

/** The files a message carries (CONTRACT §18), in the order they were sent. */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    uploadId: text('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'message_attachments_pk', columns: [t.messageId, t.position] }), index('message_attachments_upload_idx').on(t.uploadId)],
);

/**
 * One row per person per conversation (each message makes or moves two: the sender's and the
 * recipient's), pointing at its latest message. GET /api/messages/conversations pages these by
 * (user, latest first) on one index instead of grouping a user's whole history on each read;
 * unread counts are still counted from messages, on messages_unread_idx
 * (docs/decisions/141-conversations-on-the-server.md).
 */
export const conversations = pgTable(
  'conversations',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    otherUserId: text('other_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageId: text('last_message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.otherUserId] }),
    index('conversations_user_latest_idx').on(t.userId, t.lastMessageAt.desc(), t.otherUserId.desc()),
  ],
);

export type MessageRow = typeof messages.$inferSelect;
