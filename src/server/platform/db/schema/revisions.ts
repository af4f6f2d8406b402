// Revisions: the revision requests and the versions a revised submission keeps. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { submissions } from './submissions';
import { uploads } from './uploads';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { MAX_ROUND } from '../../../../shared/submissions';

/** A revision the artist asked for after a delivery (the professional tier includes 3). */
export const revisionRequests = pgTable(
  'revision_requests',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** 1, 2, 3 …: unique per submission, so two requests at the same moment cannot both be the last one. */
    number: integer('number').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('revision_requests_submission_number_key').on(t.submissionId, t.number)],
);

/**
 * Every version of a submission's music (or video), one per round (CONTRACT §27, decision 197):
 * round 1 is what the artist first sent (written when the submission goes to the label), rounds
 * 2 to 4 the new versions. The submission row holds the current version's fields; an earlier
 * version's upload stays attached to the submission (so it is backed up, exported and listed with
 * the submission's files) and is never overwritten or removed while the submission lasts.
 */
export const submissionVersions = pgTable(
  'submission_versions',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    round: integer('round').notNull(),
    /** The artist's word on what changed; null for round 1. */
    note: text('note'),
    fileName: text('file_name'),
    /** A link version's URL; null for an uploaded file. */
    url: text('url'),
    /** An uploaded version's `/objects/uploads/{id}`; null for a link. */
    objectPath: text('object_path'),
    uploadId: text('upload_id').references(() => uploads.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('submission_versions_submission_round_key').on(t.submissionId, t.round),
    check('submission_versions_round_check', sql`${t.round} between 1 and ${sql.raw(String(MAX_ROUND))}`),
  ],
);

export type SubmissionVersionRow = typeof submissionVersions.$inferSelect;
