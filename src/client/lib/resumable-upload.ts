import type { TusOpts } from '@uppy/tus';
import type { Meta } from '@uppy/core';
import { RESUMABLE_UPLOADS_PATH, UPLOAD_RETRY_DELAYS_MS } from '@shared/submissions';

/**
 * How every large file goes up (the artist's video, the team's deliverables): tus to the server's
 * resumable endpoint, one file at a time, continuing an interrupted upload from the last byte the
 * server has. Uppy itself is not imported here but loaded by `uploadResumable` at its first call,
 * so no screen fetches the uploader's code before something is uploaded.
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

/**
 * One file up to the resumable endpoint (at most `maxFileSize` bytes), reporting its progress;
 * answers the upload's URL, which the caller hands to the server's check of what the bytes are.
 */
export async function uploadResumable(file: File, maxFileSize: number, onProgress: (percent: number) => void): Promise<string> {
  const [{ default: Uppy }, { default: Tus }] = await Promise.all([import('@uppy/core'), import('@uppy/tus')]);
  const uppy = new Uppy({ autoProceed: false, restrictions: { maxFileSize } });
  uppy.use(Tus, RESUMABLE_UPLOAD_OPTIONS);
  uppy.on('upload-progress', (_file, progress) => {
    if (progress.bytesTotal) onProgress(percentUploaded(progress));
  });
  try {
    uppy.addFile({ name: file.name, type: file.type, data: file });
    const result = await uppy.upload();
    const uploaded = result?.successful?.[0];
    if (!uploaded?.uploadURL) throw new Error(result?.failed?.[0]?.error ?? `Upload of ${file.name} failed`);
    return uploaded.uploadURL;
  } finally {
    uppy.destroy();
  }
}
