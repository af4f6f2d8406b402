import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messageAttachments, uploads } from '../db/schema';
import { OBJECT_AREAS, objectKey, type ObjectStorage } from './object-storage';

/**
 * Upload rows and their bytes together: shared by the uploads feature (clean-up of abandoned
 * uploads) and the submissions feature (a deleted submission takes its files along).
 */

const UNATTACHED_UPLOAD_TTL_HOURS = 24;

/** Every key an upload's bytes may be under (before and after normalisation). */
export const keysOfUpload = (id: string) => OBJECT_AREAS.map((area) => objectKey(area, id));

/** Removes the bytes of uploads whose rows are already gone. */
export async function removeUploadBytes(storage: ObjectStorage, ids: string[]): Promise<void> {
  if (ids.length > 0) await storage.delete(ids.flatMap(keysOfUpload));
}

/**
 * Removes uploads never attached to a submission or a message once they are older than 24 hours
 * (CONTRACT §5), a batch at a time. Bytes go first, then rows, inside one transaction that has
 * locked the rows: an upload being attached at that very moment waits for the lock and then finds
 * its row gone (so nothing is left pointing at deleted bytes), and a crash or a failing store
 * rolls the transaction back, leaving the rows to lead the next sweep to whatever bytes remain
 * (deleting bytes that are already gone is not an error). Rows locked by someone else are skipped
 * until the next sweep. Batches are small because the embedded database serves nothing else
 * while a transaction is open.
 */
export async function removeUnattachedUploads(db: Db, storage: ObjectStorage, batchSize = 100): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const stale = await tx
        .select({ id: uploads.id })
        .from(uploads)
        .where(
          and(
            isNull(uploads.submissionId),
            sql`${uploads.createdAt} < now() - make_interval(hours => ${UNATTACHED_UPLOAD_TTL_HOURS})`,
            // A message's file is attached too (CONTRACT §18): it stays as long as its message.
            sql`not exists (select 1 from ${messageAttachments} where ${messageAttachments.uploadId} = ${uploads.id})`,
          ),
        )
        .limit(batchSize)
        .for('update', { skipLocked: true });
      const ids = stale.map((r) => r.id);
      if (ids.length === 0) return 0;
      await removeUploadBytes(storage, ids);
      await tx.delete(uploads).where(inArray(uploads.id, ids));
      return ids.length;
    });
    removed += batch;
    if (batch < batchSize) return removed;
  }
}
