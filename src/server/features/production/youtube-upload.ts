import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { YouTubeUploadStatus } from '@shared/production';
import { youtubePublishSchema } from '@shared/production';
import { objectPathOf, uploadIdFromObjectPath } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { deliveries, deliveryFiles, submissions, uploads, youtubeUploads } from '../../platform/db/schema';
import { apiError, HttpError } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import type { z } from 'zod';
import { lockDeskSubmission } from './access';
import type { LabelChannel } from './channel';
import { readWindowViews, recordPublication, type PublicationDeps } from './publication';
import { querySession, sendChunk, setThumbnail, startUploadSession, YouTubeApiError, type SessionState } from './youtube-api';

/**
 * Publishing on the label's channel (CONTRACT §16): POST …/youtube queues a job that uploads the
 * video with YouTube's resumable protocol, chunk by chunk from the object store (streamed: memory
 * stays flat whatever the size), with the session URI and the bytes YouTube confirmed kept in
 * `youtube_uploads`. After a dropped connection or a restart the job asks the session how much
 * arrived (`Content-Range: bytes *\/N` → 308 `Range`) and continues there, so one request makes
 * one video. Then the artwork becomes the thumbnail and the publication is recorded by §13's own
 * path (`recordPublication`: subscriber count locked, status `published`, the artist emailed).
 */
export const YOUTUBE_UPLOAD_JOB = 'production.youtube-upload';
export const YOUTUBE_UPLOAD_BACKSTOP_JOB = 'production.youtube-upload-backstop';
export interface YouTubeUploadJob {
  submissionId: string;
}

/** Statuses from which a video may be published by the product (CONTRACT §16). */
const PUBLISHABLE_BY_UPLOAD = ['approved', 'in_creation', 'completed'];
const LIVE_STATES = ['queued', 'uploading', 'processing'] as const;
/** A worker holds an upload this long, renewed while it runs; a lapsed lease is taken over (a crashed instance). */
const LEASE_MS = 60_000;
/** Tries within one run on 429/5xx or a dropped connection, before the queue's own retry takes over. */
const ATTEMPTS = 6;
const BACKOFF_MAX_MS = 30_000;
/** YouTube wants chunks in multiples of 256 KiB. */
export const DEFAULT_CHUNK_BYTES = 32 * 256 * 1024;
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png'];

export interface UploadDeps {
  db: Db;
  storage: ObjectStorage;
  channel: LabelChannel;
  publication: PublicationDeps;
  jobs: Pick<JobQueue, 'enqueue'>;
  log: FastifyBaseLogger;
  now: () => Date;
  chunkBytes?: number;
}

const jobKey = (submissionId: string) => `youtube-upload:${submissionId}`;

/** POST /api/admin/submissions/{id}/youtube */
export async function requestYouTubePublish(
  deps: UploadDeps,
  adminId: string,
  submissionId: string,
  input: z.output<typeof youtubePublishSchema>,
): Promise<YouTubeUploadStatus> {
  const uploadId = uploadIdFromObjectPath(input.objectPath);
  if (!uploadId) throw apiError('video_not_publishable');
  if (!(await deps.channel.isConnected())) throw apiError('channel_not_connected');
  const now = deps.now();
  const publishAt = input.publishAt ? new Date(input.publishAt) : null;
  await deps.db.transaction(async (tx) => {
    const submission = await lockDeskSubmission(tx, submissionId);
    if (!PUBLISHABLE_BY_UPLOAD.includes(submission.status)) {
      throw apiError('not_ready_to_publish', 'Only an approved, in-creation or completed submission can be published');
    }
    const [upload] = await tx.select().from(uploads).where(and(eq(uploads.id, uploadId), eq(uploads.status, 'stored')));
    const [delivered] = await tx
      .select({ id: deliveryFiles.uploadId })
      .from(deliveryFiles)
      .innerJoin(deliveries, eq(deliveries.id, deliveryFiles.deliveryId))
      .where(and(eq(deliveryFiles.uploadId, uploadId), eq(deliveries.submissionId, submissionId)));
    const ownVideo = submission.videoFileUrl === objectPathOf(uploadId);
    if (!upload || upload.size === null || !(ownVideo || (delivered && upload.contentType?.startsWith('video/')))) {
      throw apiError('video_not_publishable');
    }
    const [existing] = await tx.select().from(youtubeUploads).where(eq(youtubeUploads.submissionId, submissionId)).for('update');
    if (existing && existing.state !== 'failed') throw apiError('already_publishing');
    const values = {
      uploadId,
      state: 'queued' as const,
      title: input.title,
      description: input.description,
      tags: input.tags,
      privacyStatus: input.privacyStatus,
      publishAt: publishAt && publishAt > now ? publishAt : null,
      sessionUri: null,
      bytesSent: 0,
      bytesTotal: upload.size,
      videoId: null,
      error: null,
      leaseUntil: null,
      requestedBy: adminId,
      updatedAt: now,
    };
    await tx.insert(youtubeUploads).values({ submissionId, ...values, createdAt: now }).onConflictDoUpdate({ target: youtubeUploads.submissionId, set: values });
    await deps.jobs.enqueue(YOUTUBE_UPLOAD_JOB, { submissionId } satisfies YouTubeUploadJob, { singletonKey: jobKey(submissionId), tx });
  });
  return youtubeUploadStatus(deps.db, submissionId);
}

/** GET /api/admin/submissions/{id}/youtube */
export async function youtubeUploadStatus(db: Db, submissionId: string): Promise<YouTubeUploadStatus> {
  const [row] = await db.select().from(youtubeUploads).where(eq(youtubeUploads.submissionId, submissionId));
  if (!row) return { state: null, bytesSent: 0, bytesTotal: 0, videoId: null, error: null };
  return { state: row.state, bytesSent: row.bytesSent, bytesTotal: row.bytesTotal, videoId: row.videoId, error: row.error };
}

type Row = typeof youtubeUploads.$inferSelect;

/** The job: one worker at a time per upload (the lease), resuming from what YouTube says it has. */
export async function runYouTubeUpload(deps: UploadDeps, job: YouTubeUploadJob): Promise<'done' | 'failed' | 'busy'> {
  const { db } = deps;
  const leaseUntil = () => new Date(Date.now() + LEASE_MS);
  const [row] = await db
    .update(youtubeUploads)
    .set({ leaseUntil: leaseUntil() })
    .where(
      and(
        eq(youtubeUploads.submissionId, job.submissionId),
        inArray(youtubeUploads.state, [...LIVE_STATES]),
        or(isNull(youtubeUploads.leaseUntil), lt(youtubeUploads.leaseUntil, new Date())),
      ),
    )
    .returning();
  if (!row) return 'busy';
  const renew = setInterval(() => {
    void db
      .update(youtubeUploads)
      .set({ leaseUntil: leaseUntil() })
      .where(eq(youtubeUploads.submissionId, job.submissionId))
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not renew the upload lease'));
  }, LEASE_MS / 3);
  try {
    return await carryOut(deps, row);
  } finally {
    clearInterval(renew);
    await db.update(youtubeUploads).set({ leaseUntil: null }).where(eq(youtubeUploads.submissionId, job.submissionId));
  }
}

async function update(deps: UploadDeps, submissionId: string, values: Partial<typeof youtubeUploads.$inferInsert>) {
  await deps.db.update(youtubeUploads).set({ ...values, updatedAt: deps.now() }).where(eq(youtubeUploads.submissionId, submissionId));
}

async function fail(deps: UploadDeps, row: Row, message: string): Promise<'failed'> {
  deps.log.warn({ submissionId: row.submissionId, reason: message }, 'publishing on YouTube failed');
  await update(deps, row.submissionId, { state: 'failed', error: message.slice(0, 1000) });
  return 'failed';
}

async function carryOut(deps: UploadDeps, row: Row): Promise<'done' | 'failed'> {
  let videoId = row.videoId;
  let publishedAt: Date | null = null;
  if (!videoId) {
    let video: { id: string; publishedAt: string | null };
    try {
      video = await upload(deps, row);
    } catch (error) {
      if (error instanceof YouTubeApiError && !error.retryable) return fail(deps, row, error.message);
      throw error; // 429/5xx beyond this run's tries: the queue tries again later, from the session
    }
    videoId = video.id;
    publishedAt = video.publishedAt ? new Date(video.publishedAt) : null;
    await update(deps, row.submissionId, { state: 'processing', videoId, bytesSent: row.bytesTotal, error: null });
  }

  await setArtworkThumbnail(deps, row.submissionId, videoId);

  if (!row.requestedBy) return fail(deps, row, 'The admin who asked for this publication no longer exists');
  try {
    await recordPublication(
      deps.publication,
      row.requestedBy,
      row.submissionId,
      { videoUrl: `https://www.youtube.com/watch?v=${videoId}`, publishedAt: (row.publishAt ?? publishedAt ?? deps.now()).toISOString() },
      deps.now(),
    );
  } catch (error) {
    if (error instanceof HttpError && error.statusCode < 500) return fail(deps, row, `Uploaded as ${videoId}, but not recorded: ${error.message}`);
    throw error;
  }
  await update(deps, row.submissionId, { state: 'published' });
  // The first day's figures at once, so the artist's chart starts now rather than at the daily refresh.
  try {
    await readWindowViews(deps.channel, deps.db, { submissionId: row.submissionId, publishedAt: row.publishAt ?? publishedAt ?? deps.now() }, videoId, deps.now());
  } catch (error) {
    deps.log.warn({ err: error, submissionId: row.submissionId }, 'first daily views not read');
  }
  deps.log.info({ submissionId: row.submissionId, videoId }, 'published on YouTube');
  return 'done';
}

/** The resumable upload, from wherever the session stands. */
async function upload(deps: UploadDeps, row: Row): Promise<{ id: string; publishedAt: string | null }> {
  const chunkBytes = deps.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const key = objectKey('uploads', row.uploadId);
  const size = row.bytesTotal;
  const [file] = await deps.db.select({ contentType: uploads.contentType }).from(uploads).where(eq(uploads.id, row.uploadId));
  const [song] = await deps.db.select({ aiUsage: submissions.aiUsage }).from(submissions).where(eq(submissions.id, row.submissionId));
  let sessionUri = row.sessionUri;
  let failures = 0;
  for (;;) {
    try {
      const token = await deps.channel.accessToken();
      if (!sessionUri) {
        sessionUri = await startUploadSession(
          deps.channel.urls,
          token,
          { title: row.title, description: row.description, tags: row.tags, privacyStatus: row.privacyStatus, publishAt: row.publishAt, containsSyntheticMedia: song?.aiUsage ?? false },
          size,
          file?.contentType ?? 'video/*',
        );
        await update(deps, row.submissionId, { state: 'uploading', sessionUri, bytesSent: 0 });
      }
      // Ask first: after a drop or a restart the session, not our record, says what arrived.
      let state: SessionState | 'gone' = await querySession(sessionUri, token, size);
      while (state !== 'gone' && !state.done) {
        const start = state.received;
        await update(deps, row.submissionId, { state: 'uploading', bytesSent: start });
        const end = Math.min(size, start + chunkBytes) - 1;
        const body = await deps.storage.read(key, { start, end });
        state = await sendChunk(sessionUri, token, { start, end, size, body });
        failures = 0;
      }
      if (state === 'gone') {
        // The session expired with nothing made: a new one, from the first byte.
        sessionUri = null;
        await update(deps, row.submissionId, { sessionUri: null, bytesSent: 0 });
        continue;
      }
      return state.video;
    } catch (error) {
      if (!(error instanceof YouTubeApiError)) throw error;
      const refused = error.status === 401;
      if (!error.retryable && !refused) throw error;
      failures++;
      if (failures >= ATTEMPTS) throw error;
      if (refused) {
        await deps.channel.accessToken(true);
        continue;
      }
      const wait = error.retryAfterMs ?? Math.min(BACKOFF_MAX_MS, 500 * 2 ** failures) * (0.5 + Math.random() / 2);
      deps.log.warn({ submissionId: row.submissionId, status: error.status, waitMs: Math.round(wait) }, 'YouTube upload interrupted; resuming');
      await sleep(wait);
    }
  }
}

/** The artwork as the thumbnail, when it is an image YouTube takes; a refusal leaves YouTube's own frame. */
async function setArtworkThumbnail(deps: UploadDeps, submissionId: string, videoId: string): Promise<void> {
  const [submission] = await deps.db.select({ artworkUrl: submissions.artworkUrl }).from(submissions).where(eq(submissions.id, submissionId));
  const artworkId = submission?.artworkUrl ? uploadIdFromObjectPath(submission.artworkUrl) : null;
  if (!artworkId) return;
  const [artwork] = await deps.db.select().from(uploads).where(eq(uploads.id, artworkId));
  if (!artwork?.contentType || !THUMBNAIL_TYPES.includes(artwork.contentType) || (artwork.size ?? Infinity) > THUMBNAIL_MAX_BYTES) return;
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.storage.read(objectKey('uploads', artworkId))) chunks.push(chunk as Buffer);
  try {
    await deps.channel.withToken((token) => setThumbnail(deps.channel.urls, token, videoId, Buffer.concat(chunks), artwork.contentType!));
  } catch (error) {
    if (error instanceof YouTubeApiError && error.retryable) throw error;
    deps.log.warn({ err: error, submissionId, videoId }, 'the artwork could not be set as the thumbnail');
  }
}

/**
 * Every minute: an upload whose worker died (its lease lapsed, the server restarted) gets a job
 * again; the lease keeps it to one worker however many jobs there are.
 */
export async function queueStalledUploads(deps: UploadDeps): Promise<number> {
  const stalled = await deps.db
    .select({ submissionId: youtubeUploads.submissionId })
    .from(youtubeUploads)
    .where(
      and(
        inArray(youtubeUploads.state, [...LIVE_STATES]),
        or(lt(youtubeUploads.leaseUntil, new Date()), and(isNull(youtubeUploads.leaseUntil), lt(youtubeUploads.updatedAt, sql`now() - interval '2 minutes'`))),
      ),
    );
  for (const { submissionId } of stalled) {
    await deps.jobs.enqueue(YOUTUBE_UPLOAD_JOB, { submissionId }, { singletonKey: `${jobKey(submissionId)}:resume` });
  }
  return stalled.length;
}

