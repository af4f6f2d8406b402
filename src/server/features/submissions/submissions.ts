import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { SUBMISSION_MESSAGES, type createSubmissionSchema } from '@shared/submission-schemas';
import { isPaidTier, tierAmount } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { submissions, uploads, type SubmissionRow, type UserRow } from '../../platform/db/schema';
import { HttpError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { uploadIdFromObjectPath } from '../../platform/storage/upload-files';

export type CreateSubmission = z.output<typeof createSubmissionSchema>;
export type ArtistSubmissionRow = Omit<SubmissionRow, 'adminNotes'>;

export const SUBMISSION_NOT_FOUND = 'Submission not found';

/** Every column but the team's internal notes, which never leave the server for an artist. */
const { adminNotes: _adminNotes, ...artistColumns } = getTableColumns(submissions);

interface FileReference {
  field: string;
  id: string | null;
  kind: 'music' | 'image';
}

function fileReferences(input: CreateSubmission): FileReference[] {
  const one = (field: keyof CreateSubmission, kind: FileReference['kind'], path: string | null) =>
    path ? [{ field, id: uploadIdFromObjectPath(path), kind }] : [];
  return [
    ...one('musicFileUrl', 'music', input.musicFileUrl),
    ...one('videoFileUrl', 'music', input.videoFileUrl),
    ...one('artworkUrl', 'image', input.artworkUrl),
    ...input.styleReferenceUrls.map((p, i) => ({ field: `styleReferenceUrls.${i}`, id: uploadIdFromObjectPath(p), kind: 'image' as const })),
    ...input.characterImageUrls.map((p, i) => ({ field: `characterImageUrls.${i}`, id: uploadIdFromObjectPath(p), kind: 'image' as const })),
  ];
}

const isOfKind = (kind: FileReference['kind'], contentType: string | null) =>
  kind === 'image' ? !!contentType?.startsWith('image/') : /^(audio|video)\//.test(contentType ?? '');

/**
 * POST /api/submissions. The server sets the amount from the tier and the status (free →
 * pending; paid → payment_pending awaiting payment). Every file it references must be a
 * checked upload of the same user not attached elsewhere; they are attached in the same
 * transaction, so a refused file leaves nothing behind.
 */
export async function createSubmission(db: Db, userId: string, input: CreateSubmission): Promise<ArtistSubmissionRow> {
  const paid = isPaidTier(input.pricingTier);
  const references = fileReferences(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(submissions)
      .values({
        ...input,
        id: newId(),
        userId,
        amount: tierAmount(input.pricingTier),
        status: paid ? 'payment_pending' : 'pending',
        paymentStatus: paid ? 'pending' : null,
      })
      .returning(artistColumns);
    const ids = [...new Set(references.map((r) => r.id).filter((id): id is string => id !== null))];
    const attached = ids.length
      ? await tx
          .update(uploads)
          .set({ submissionId: row!.id })
          .where(
            and(
              inArray(uploads.id, ids),
              eq(uploads.userId, userId),
              isNull(uploads.submissionId),
              isNotNull(uploads.contentType),
            ),
          )
          .returning({ id: uploads.id, contentType: uploads.contentType })
      : [];
    const contentTypes = new Map(attached.map((u) => [u.id, u.contentType]));
    const refused = references.filter((r) => !r.id || !isOfKind(r.kind, contentTypes.get(r.id) ?? null));
    if (refused.length > 0) {
      throw new HttpError(
        400,
        SUBMISSION_MESSAGES.objectPath,
        refused.map((r) => ({ path: r.field, message: SUBMISSION_MESSAGES.objectPath })),
      );
    }
    return row!;
  });
}

/** GET /api/submissions: the caller's own, newest first. */
export function listSubmissions(db: Db, userId: string): Promise<ArtistSubmissionRow[]> {
  return db
    .select(artistColumns)
    .from(submissions)
    .where(eq(submissions.userId, userId))
    .orderBy(desc(submissions.createdAt), desc(submissions.id));
}

/** GET /api/submissions/{id}: for its owner or an admin; anyone else gets "not found". */
export async function findSubmission(db: Db, user: UserRow, id: string): Promise<ArtistSubmissionRow> {
  const ownerOrAdmin = user.role === 'admin' ? undefined : eq(submissions.userId, user.id);
  const [row] = await db
    .select(artistColumns)
    .from(submissions)
    .where(and(eq(submissions.id, id), ownerOrAdmin))
    .limit(1);
  if (!row) throw notFound(SUBMISSION_NOT_FOUND);
  return row;
}

/**
 * DELETE /api/submissions/{id} (owner only). Returns the ids of its uploads, whose rows are
 * gone with it; the caller removes their bytes after the commit.
 */
export async function deleteSubmission(db: Db, userId: string, id: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ id: submissions.id })
      .from(submissions)
      .where(and(eq(submissions.id, id), eq(submissions.userId, userId)))
      .for('update');
    if (!owned) throw notFound(SUBMISSION_NOT_FOUND);
    const files = await tx.delete(uploads).where(eq(uploads.submissionId, id)).returning({ id: uploads.id });
    await tx.delete(submissions).where(eq(submissions.id, id));
    return files.map((f) => f.id);
  });
}
