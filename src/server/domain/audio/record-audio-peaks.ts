import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client';
import { audioPeaks, uploads } from '../../platform/db/schema';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { computePeaks } from '../../platform/audio/peaks';

/**
 * The job that computes a checked music upload's waveform (docs/decisions/112, 113). The upload
 * route only queues it, so checking a 100 MB WAV answers at once; the player draws a plain
 * progress bar until the peaks exist. Declared by features/uploads/upload-jobs.ts (decision 200).
 */
export const AUDIO_PEAKS_JOB = 'audio.peaks';

/** Queues the waveform of a checked music upload; once per upload while one waits. */
export async function queueAudioPeaks(jobs: JobQueue, uploadId: string): Promise<void> {
  await jobs.enqueue(AUDIO_PEAKS_JOB, { uploadId }, { singletonKey: `${AUDIO_PEAKS_JOB}:${uploadId}` });
}

/**
 * Computes a music upload's waveform once and keeps it with the upload, so the admin's player
 * draws it at once whatever the file's size. A format it cannot decode leaves no waveform (the
 * player keeps its plain bar); a failure to read the bytes throws, so the job is retried.
 */
export async function recordAudioPeaks(db: Db, storage: ObjectStorage, uploadId: string, log: FastifyBaseLogger): Promise<void> {
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
}
