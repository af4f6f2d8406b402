import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { audioPeaks, uploads } from '../db/schema';
import { objectKey, type ObjectStorage } from '../storage/object-storage';
import { computePeaks } from './peaks';

/**
 * After a music upload is checked: computes its waveform once and keeps it with the upload, so
 * the admin's player draws it at once whatever the file's size. A format it cannot decode, or a
 * failure, leaves no waveform and never fails the upload (the player falls back to a plain bar).
 */
export async function recordAudioPeaks(db: Db, storage: ObjectStorage, uploadId: string, log: FastifyBaseLogger): Promise<void> {
  try {
    const [done] = await db.select({ id: audioPeaks.uploadId }).from(audioPeaks).where(eq(audioPeaks.uploadId, uploadId)).limit(1);
    if (done) return;
    const [upload] = await db.select({ contentType: uploads.contentType }).from(uploads).where(eq(uploads.id, uploadId)).limit(1);
    if (!upload?.contentType) return;
    const started = performance.now();
    const waveform = await computePeaks(await storage.read(objectKey('uploads', uploadId)), upload.contentType);
    if (!waveform) {
      log.info({ uploadId, contentType: upload.contentType }, 'no waveform for this audio format');
      return;
    }
    await db.insert(audioPeaks).values({ uploadId, ...waveform }).onConflictDoNothing();
    log.info({ uploadId, ms: Math.round(performance.now() - started), seconds: waveform.durationSeconds }, 'waveform computed');
  } catch (error) {
    log.warn({ err: error, uploadId }, 'could not compute the waveform of an upload');
  }
}
