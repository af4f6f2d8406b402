// Notifications: the email outbox and the artist's activity feed. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from './columns';
import { users } from './accounts';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { ARTIST_ACTIVITY_KINDS } from '../../../../shared/artist-activity';
import { OUTBOX_STATUSES } from '../../../../shared/notifications';

/**
 * One email to one person (docs/decisions/081-outbox.md). Written in the transaction of the change
 * that causes it, sent by the `email.send` job. `templateData` is what the template needs, frozen
 * at the change; subject and bodies are kept as they were sent (secret links masked) so the
 * Outbox page shows exactly what went out. `dedupeKey` makes several causes (three unread
 * messages) share one pending email.
 */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    templateData: jsonb('template_data').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    dedupeKey: text('dedupe_key'),
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('outbox_emails_created_idx').on(t.createdAt),
    index('outbox_emails_user_kind_idx').on(t.userId, t.kind, t.createdAt),
    uniqueIndex('outbox_emails_pending_dedupe_key').on(t.dedupeKey).where(sql`${t.status} = 'pending'`),
    oneOf('outbox_emails_status_check', t.status, OUTBOX_STATUSES),
  ],
);

export type OutboxEmailRow = typeof outboxEmails.$inferSelect;

/**
 * What an artist did that the team should hear (issue 33 part 4, decision 174), written by one
 * domain verb (domain/submission/artist-activity.ts) and pushed live to the team.
 */
export const artistActivity = pgTable(
  'artist_activity',
  {
    id: text('id').primaryKey(),
    /** Not a foreign key: a withdrawal deletes the submission, and its activity is still heard. */
    submissionId: text('submission_id').notNull(),
    songTitle: text('song_title').notNull(),
    kind: text('kind', { enum: ARTIST_ACTIVITY_KINDS }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('artist_activity_submission_idx').on(t.submissionId, t.createdAt),
    index('artist_activity_created_idx').on(t.createdAt),
    oneOf('artist_activity_kind_check', t.kind, ARTIST_ACTIVITY_KINDS),
  ],
);

/** When each admin last looked at a submission's artist activity: newer activity is "new" to them. */
export const artistActivitySeen = pgTable(
  'artist_activity_seen',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'artist_activity_seen_pk', columns: [t.userId, t.submissionId] })],
);
