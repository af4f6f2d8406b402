import type { FastifyBaseLogger } from 'fastify';
import { AUDIO_PEAKS_JOB, recordAudioPeaks } from '../../domain/audio/record-audio-peaks';
import type { Db } from '../../platform/db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { removeUnattachedUploads } from '../../platform/storage/upload-files';

/** The uploads feature's jobs, declared here like every job (decision 200). */
export function declareUploadJobs(jobs: JobQueue, { db, storage, log }: { db: Db; storage: ObjectStorage; log: FastifyBaseLogger }): void {
  // A checked music upload's waveform (docs/decisions/112, 113), queued by the upload route.
  jobs.define<{ uploadId: string }>(
    AUDIO_PEAKS_JOB,
    // Reading 100 MB on a loaded machine takes tens of seconds; a storage hiccup is retried twice.
    { retryLimit: 2, retryDelayS: 30, retryBackoff: true, expireInS: 10 * 60, pollingIntervalS: 1 },
    ({ uploadId }) => recordAudioPeaks(db, storage, uploadId, log),
  );
  // Clean-up: an idempotent DELETE, run by one instance every quarter of an hour.
  jobs.every('maintenance.remove-unattached-uploads', '*/15 * * * *', () => removeUnattachedUploads(db, storage));
}
