import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uploads } from '../db/schema';
import { OBJECT_AREAS, objectKey, type ObjectStorage } from './object-storage';

/**
 * Upload rows and their bytes together: shared by the uploads feature (clean-up of abandoned
 * uploads) and the submissions feature (a deleted submission takes its files along).
 */

export const UNATTACHED_UPLOAD_TTL_HOURS = 24;

/** Every key an upload's bytes may be under (before and after normalisation). */
export const keysOfUpload = (id: string) => OBJECT_AREAS.map((area) => objectKey(area, id));

/** Removes the bytes of uploads whose rows are already gone. */
export async function removeUploadBytes(storage: ObjectStorage, ids: string[]): Promise<void> {
  if (ids.length > 0) await storage.delete(ids.flatMap(keysOfUpload));
}

/**
 * Removes uploads never attached to a submission once they are older than 24 hours
 * (CONTRACT §5). Rows go first, in one conditional DELETE, so an upload attached at that very
 * moment is never left pointing at deleted bytes; a crash in between leaves only orphan bytes.
 */
export async function removeUnattachedUploads(db: Db, storage: ObjectStorage, batchSize = 500): Promise<number> {
  let removed = 0;
  for (;;) {
    const stale = db
      .select({ id: uploads.id })
      .from(uploads)
      .where(
        and(
          isNull(uploads.submissionId),
          sql`${uploads.createdAt} < now() - make_interval(hours => ${UNATTACHED_UPLOAD_TTL_HOURS})`,
        ),
      )
      .limit(batchSize);
    const rows = await db
      .delete(uploads)
      .where(and(inArray(uploads.id, stale), isNull(uploads.submissionId)))
      .returning({ id: uploads.id });
    await removeUploadBytes(
      storage,
      rows.map((r) => r.id),
    );
    removed += rows.length;
    if (rows.length < batchSize) return removed;
  }
}
