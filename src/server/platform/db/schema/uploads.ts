// Uploads: the stored files and their audio waveforms. One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { submissions } from './submissions';

/**
 * A file a user uploaded. The row is made when the upload URL is issued (status `pending`);
 * `receiving` while this server streams the bytes in (local storage, or a resumable upload
 * until its last byte), `checking` while a normalisation route checks them, `stored` once they
 * are in the store. `receiving` and `checking` are claims held until `leaseUntil`: a claim whose
 * holder crashed simply expires, and the upload can be tried again. `size` and `contentType` are
 * set by the normalisation routes once they have checked the bytes; only then may a submission
 * reference the upload. Rows never attached to a submission are removed after 24 hours (CONTRACT §5).
 */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'receiving', 'checking', 'stored'] }).notNull().default('pending'),
    size: bigint('size', { mode: 'number' }),
    contentType: text('content_type'),
    fileName: text('file_name'),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    /**
     * Hex digests of the stored bytes, kept the first time a handover needs them (CONTRACT §28,
     * decision 198): stored bytes never change, so a digest once computed stays true.
     */
    md5: text('md5'),
    sha256: text('sha256'),
    /** Until when a `receiving` or `checking` claim holds; null for a resumable upload (tus locks it). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Until when the upload URL may be used. */
    uploadExpiresAt: timestamp('upload_expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId),
    index('uploads_unattached_idx').on(t.createdAt).where(sql`${t.submissionId} is null`),
    index('uploads_submission_idx').on(t.submissionId),
  ],
);

/**
 * The waveform of an uploaded track, computed once when the upload is checked
 * (PUT /api/music-files), so a player draws it at once whatever the file's size.
 */
export const audioPeaks = pgTable('audio_peaks', {
  uploadId: text('upload_id')
    .primaryKey()
    .references(() => uploads.id, { onDelete: 'cascade' }),
  durationSeconds: real('duration_seconds').notNull(),
  /** Peak amplitude per equal slice of the track, 0..1 with three decimals. */
  peaks: jsonb('peaks').$type<number[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UploadRow = typeof uploads.$inferSelect;
