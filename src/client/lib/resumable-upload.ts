import type { TusOpts } from '@uppy/tus';
import type { Meta } from '@uppy/core';
import { RESUMABLE_UPLOADS_PATH, UPLOAD_RETRY_DELAYS_MS } from '@shared/submissions';

/**
 * How every large file goes up (the artist's video, the team's deliverables): tus to the server's
 * resumable endpoint, one file at a time, continuing an interrupted upload from the last byte the
 * server has. Only the options live here, not Uppy itself, so each caller still decides when the
 * uploader's code loads.
 */
export const RESUMABLE_UPLOAD_OPTIONS = {
  endpoint: RESUMABLE_UPLOADS_PATH,
  limit: 1,
  // tus retries by itself and resumes from the server's offset; a caller's own retries come after these.
  retryDelays: [...UPLOAD_RETRY_DELAYS_MS],
  // A reload (or a draft resumed later) that adds the same file continues the upload.
  storeFingerprintForResuming: true,
  removeFingerprintOnSuccess: true,
  allowedMetaFields: ['name', 'type'],
} satisfies TusOpts<Meta, Record<string, never>>;

/** Uppy's progress of one file as a whole percentage (0 until the size is known). */
export function percentUploaded(progress: { bytesUploaded: number | boolean; bytesTotal: number | null }): number {
  return progress.bytesTotal ? Math.round((Number(progress.bytesUploaded) / Number(progress.bytesTotal)) * 100) : 0;
}
