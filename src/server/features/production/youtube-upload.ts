import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { YouTubeUploadStatus } from '@shared/production';
import { YOUTUBE_CANCELLABLE_STATES, YOUTUBE_RESTARTABLE_STATES, youtubePublishSchema } from '@shared/production';
import { YOUTUBE_ATTEMPTS_MAX, publicationAdvice } from '@shared/production-texts';
import { objectPathOf, uploadIdFromObjectPath } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { deliveries, deliveryFiles, submissions, uploads, youtubeUploads } from '../../platform/db/schema';
import { apiError, HttpError } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import type { z } from 'zod';
import { recordHistory, type HistoryEntry } from '../../domain/submission/history';
import { lockDeskSubmission } from './access';
import type { LabelChannel } from './channel';
import { readWindowViews, recordPublication, type PublicationDeps } from './publication';
import { querySession, RETRY_DELAY_CAP, retryDelayMs, sendChunk, setThumbnail, startUploadSession, YouTubeApiError, YouTubeCallAborted, type SessionState } from './youtube-api';

/**
 * Publishing on the label's channel (CONTRACT §16): POST …/youtube queues a job that uploads the
 * video with YouTube's resumable protocol, chunk by chunk from the object store (streamed: memory
 * stays flat whatever the size), with the session URI and the bytes YouTube confirmed kept in
 * `youtube_uploads`. After a dropped connection or a restart the job asks the session how much
 * arrived (`Content-Range: bytes *\/N` → 308 `Range`) and continues there, so one request makes
 * one video. Then the artwork becomes the thumbnail and the publication is recorded by §13's own
 * path (`recordPublication`: subscriber count locked, status `published`, the artist emailed).
 *
 * It never hangs (CONTRACT §23, decision 175): every request gives up after the configured
 * timeout; a try that fails in a way worth retrying ends its run, counts as an attempt and queues
 * the next one after a doubling wait, so a waiting publication holds no worker; the eighth failed
 * try ends in `failed`. A queued or uploading publication can be cancelled, and a failed or
 * cancelled one started again. Uploads run side by side up to `YOUTUBE_UPLOADS_AT_ONCE`.
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
/** How often a running upload renews its lease, and so how soon it hears of a cancel made on another instance. */
const RENEW_MS = 10_000;
/** How far the queue's clock (the database's) may run ahead of this instance's when a try's job starts. */
const CLOCK_SKEW_MS = 5_000;
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
  /** The wait after the first failed try; later ones double it (CONTRACT §23: 8 tries in about 30 minutes). */
  retryDelayMs: number;
  /** The uploads this instance runs now, so a cancel made here stops its request at once. */
  running?: Map<string, AbortController>;
}

const jobKey = (submissionId: string) => `youtube-upload:${submissionId}`;

export { retryDelayMs };

/** POST /api/admin/submissions/{id}/youtube: a first publication, or one started again after it failed or was cancelled. */
export async function requestYouTubePublish(
  deps: UploadDeps,
  adminId: string,
  submissionId: string,
  input: z.output<typeof youtubePublishSchema>,
  /** The admin's override of the rights gate (`requireRights`), recorded as the publishing is queued. */
  rightsOverride: HistoryEntry | null = null,
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
    if (existing && !YOUTUBE_RESTARTABLE_STATES.includes(existing.state)) throw apiError('already_publishing');
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
      errorReason: null,
      attempts: 0,
      retryAt: null,
      leaseUntil: null,
      requestedBy: adminId,
      updatedAt: now,
    };
    // createdAt is when this publication was asked: starting a failed one again starts its clock
    // anew, so the advice after an outage says how long these tries went on (issue 43 item 11).
    await tx
      .insert(youtubeUploads)
      .values({ submissionId, ...values, createdAt: now })
      .onConflictDoUpdate({ target: youtubeUploads.submissionId, set: { ...values, createdAt: now } });
    if (rightsOverride) await recordHistory(tx, submissionId, rightsOverride);
    await deps.jobs.enqueue(YOUTUBE_UPLOAD_JOB, { submissionId } satisfies YouTubeUploadJob, { singletonKey: jobKey(submissionId), tx });
  });
  return youtubeUploadStatus(deps.db, submissionId);
}

/**
 * DELETE /api/admin/submissions/{id}/youtube: a queued or uploading publication stops. The row
 * says `cancelled` at once; a worker on this instance is stopped mid-request, one on another
 * instance at its next chunk or lease renewal. Nothing else is cancellable (409).
 */
export async function cancelYouTubePublish(deps: UploadDeps, adminId: string, submissionId: string): Promise<void> {
  const [row] = await deps.db
    .update(youtubeUploads)
    .set({ state: 'cancelled', retryAt: null, updatedAt: deps.now() })
    .where(and(eq(youtubeUploads.submissionId, submissionId), inArray(youtubeUploads.state, [...YOUTUBE_CANCELLABLE_STATES])))
    .returning({ submissionId: youtubeUploads.submissionId });
  if (!row) throw apiError('not_publishing');
  deps.running?.get(submissionId)?.abort();
  deps.log.info({ submissionId, adminId }, 'publishing on YouTube cancelled');
}

/** GET /api/admin/submissions/{id}/youtube */
export async function youtubeUploadStatus(db: Db, submissionId: string): Promise<YouTubeUploadStatus> {
  const [row] = await db.select().from(youtubeUploads).where(eq(youtubeUploads.submissionId, submissionId));
  return toStatus(row);
}

type Row = typeof youtubeUploads.$inferSelect;

export function toStatus(row: Row | undefined): YouTubeUploadStatus {
  if (!row) return { state: null, bytesSent: 0, bytesTotal: 0, videoId: null, error: null, attempts: 0, nextAttemptAt: null, advice: null };
  const waiting = (LIVE_STATES as readonly string[]).includes(row.state) && row.retryAt !== null;
  return {
    state: row.state,
    bytesSent: row.bytesSent,
    bytesTotal: row.bytesTotal,
    videoId: row.videoId,
    error: row.error,
    attempts: row.attempts,
    nextAttemptAt: waiting ? row.retryAt!.toISOString() : null,
    advice: publicationAdvice({ ...row, triedForMs: row.updatedAt.getTime() - row.createdAt.getTime() }),
  };
}


type RunOutcome = 'done' | 'failed' | 'busy' | 'retrying' | 'cancelled';

/** The job: one worker at a time per upload (the lease), resuming from what YouTube says it has. */
export async function runYouTubeUpload(deps: UploadDeps, job: YouTubeUploadJob): Promise<RunOutcome> {
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
        // A try waiting for its time is not taken early by a stray job (the backstop's, a restart's);
        // its own job, started by the database's clock, is taken even if ours runs a little behind.
        or(isNull(youtubeUploads.retryAt), lte(youtubeUploads.retryAt, new Date(Date.now() + CLOCK_SKEW_MS))),
      ),
    )
    .returning();
  if (!row) return 'busy';
  const stop = new AbortController();
  deps.running?.set(job.submissionId, stop);
  // The renewal also hears of a cancel made on another instance: the row left the live states.
  const renew = setInterval(() => {
    void db
      .update(youtubeUploads)
      .set({ leaseUntil: leaseUntil() })
      .where(and(eq(youtubeUploads.submissionId, job.submissionId), inArray(youtubeUploads.state, [...LIVE_STATES])))
      .returning({ state: youtubeUploads.state })
      .then((live) => {
        if (live.length === 0) stop.abort();
      })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not renew the upload lease'));
  }, RENEW_MS);
  try {
    return await carryOut(deps, row, stop.signal);
  } catch (error) {
    if (error instanceof YouTubeCallAborted || stop.signal.aborted) return 'cancelled';
    try {
      return await tryAgainLater(deps, row, error);
    } catch (cancelled) {
      if (cancelled instanceof YouTubeCallAborted) return 'cancelled';
      throw cancelled;
    }
  } finally {
    clearInterval(renew);
    deps.running?.delete(job.submissionId);
    await db.update(youtubeUploads).set({ leaseUntil: null }).where(eq(youtubeUploads.submissionId, job.submissionId));
  }
}

/**
 * Changes a publication that is still live; none left (cancelled meanwhile) stops the run. The
 * one writer of a running publication's row, so a cancel is never overwritten.
 */
async function update(deps: UploadDeps, submissionId: string, values: Partial<typeof youtubeUploads.$inferInsert>): Promise<void> {
  const changed = await deps.db
    .update(youtubeUploads)
    .set({ ...values, updatedAt: deps.now() })
    .where(and(eq(youtubeUploads.submissionId, submissionId), inArray(youtubeUploads.state, [...LIVE_STATES])))
    .returning({ submissionId: youtubeUploads.submissionId });
  if (changed.length === 0) throw new YouTubeCallAborted('the publication was cancelled');
}

async function fail(deps: UploadDeps, row: Row, message: string, extra: { attempts?: number; reason?: string | null } = {}): Promise<'failed'> {
  deps.log.warn({ submissionId: row.submissionId, reason: message }, 'publishing on YouTube failed');
  await update(deps, row.submissionId, {
    state: 'failed',
    error: message.slice(0, 1000),
    errorReason: extra.reason ?? null,
    retryAt: null,
    ...(extra.attempts !== undefined ? { attempts: extra.attempts } : {}),
  });
  return 'failed';
}

/**
 * A try that failed: one not worth retrying (YouTube refused: a quota, a bad title) fails at
 * once; anything else (429, 5xx, a dropped connection, a timeout, a storage or database hiccup)
 * counts as an attempt and, within the budget, queues the next try after a doubling wait (or
 * YouTube's Retry-After, if longer). The error and the count show while it waits.
 */
async function tryAgainLater(deps: UploadDeps, row: Row, error: unknown): Promise<'failed' | 'retrying'> {
  const api = error instanceof YouTubeApiError ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  const attempts = row.attempts + 1;
  if (api && !api.retryable) return fail(deps, row, message, { attempts: row.attempts, reason: api.reason });
  if (attempts >= YOUTUBE_ATTEMPTS_MAX) return fail(deps, row, message, { attempts, reason: api?.reason ?? null });
  const cap = deps.retryDelayMs * RETRY_DELAY_CAP;
  const wait = Math.min(cap, Math.max(retryDelayMs(attempts, deps.retryDelayMs), api?.retryAfterMs ?? 0));
  const retryAt = new Date(Date.now() + wait);
  deps.log.warn({ submissionId: row.submissionId, attempts, status: api?.status ?? null, waitMs: wait, err: api ? undefined : error }, 'publishing on YouTube interrupted; trying again');
  await update(deps, row.submissionId, { attempts, error: message.slice(0, 1000), errorReason: api?.reason ?? null, retryAt });
  await deps.jobs.enqueue(YOUTUBE_UPLOAD_JOB, { submissionId: row.submissionId } satisfies YouTubeUploadJob, {
    singletonKey: `${jobKey(row.submissionId)}:try-${attempts + 1}`,
    startAfter: retryAt,
  });
  return 'retrying';
}

async function carryOut(deps: UploadDeps, row: Row, signal: AbortSignal): Promise<'done' | 'failed'> {
  let videoId = row.videoId;
  let publishedAt: Date | null = null;
  if (!videoId) {
    const video = await upload(deps, row, signal);
    videoId = video.id;
    publishedAt = video.publishedAt ? new Date(video.publishedAt) : null;
    await update(deps, row.submissionId, { state: 'processing', videoId, bytesSent: row.bytesTotal });
  }

  await setArtworkThumbnail(deps, row.submissionId, videoId, signal);

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
  await update(deps, row.submissionId, { state: 'published', error: null, errorReason: null, retryAt: null });
  // The first day's figures at once, so the artist's chart starts now rather than at the daily refresh.
  try {
    await readWindowViews(deps.channel, deps.db, { submissionId: row.submissionId, publishedAt: row.publishAt ?? publishedAt ?? deps.now() }, videoId, deps.now());
  } catch (error) {
    deps.log.warn({ err: error, submissionId: row.submissionId }, 'first daily views not read');
  }
  deps.log.info({ submissionId: row.submissionId, videoId }, 'published on YouTube');
  return 'done';
}

/**
 * The resumable upload, from wherever the session stands. A 401 refreshes the token once and
 * goes on; any other failure ends this try (tryAgainLater decides what next).
 */
async function upload(deps: UploadDeps, row: Row, signal: AbortSignal): Promise<{ id: string; publishedAt: string | null }> {
  const chunkBytes = deps.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const limits = { timeoutMs: deps.channel.urls.timeoutMs, signal };
  const key = objectKey('uploads', row.uploadId);
  const size = row.bytesTotal;
  const [file] = await deps.db.select({ contentType: uploads.contentType }).from(uploads).where(eq(uploads.id, row.uploadId));
  const [submission] = await deps.db.select({ aiUsage: submissions.aiUsage }).from(submissions).where(eq(submissions.id, row.submissionId));
  let sessionUri = row.sessionUri;
  let refreshed = false;
  for (;;) {
    try {
      const token = await deps.channel.accessToken(refreshed);
      if (!sessionUri) {
        sessionUri = await startUploadSession(
          deps.channel.urls,
          token,
          {
            title: row.title,
            description: row.description,
            tags: row.tags,
            privacyStatus: row.privacyStatus,
            publishAt: row.publishAt,
            aiUsage: submission?.aiUsage ?? false,
          },
          size,
          file?.contentType ?? 'video/*',
          limits,
        );
        await update(deps, row.submissionId, { state: 'uploading', sessionUri, bytesSent: 0 });
      }
      // Ask first: after a drop or a restart the session, not our record, says what arrived.
      let state: SessionState | 'gone' = await querySession(sessionUri, token, size, limits);
      while (state !== 'gone' && !state.done) {
        const start = state.received;
        await update(deps, row.submissionId, { state: 'uploading', bytesSent: start });
        const end = Math.min(size, start + chunkBytes) - 1;
        const body = await deps.storage.read(key, { start, end });
        state = await sendChunk(sessionUri, token, { start, end, size, body }, limits);
      }
      if (state === 'gone') {
        // The session expired with nothing made: a new one, from the first byte.
        sessionUri = null;
        await update(deps, row.submissionId, { sessionUri: null, bytesSent: 0 });
        continue;
      }
      return state.video;
    } catch (error) {
      if (error instanceof YouTubeApiError && error.status === 401 && !refreshed) {
        refreshed = true;
        continue;
      }
      throw error;
    }
  }
}

/** The artwork as the thumbnail, when it is an image YouTube takes; a refusal leaves YouTube's own frame. */
async function setArtworkThumbnail(deps: UploadDeps, submissionId: string, videoId: string, signal: AbortSignal): Promise<void> {
  const [submission] = await deps.db.select({ artworkUrl: submissions.artworkUrl }).from(submissions).where(eq(submissions.id, submissionId));
  const artworkId = submission?.artworkUrl ? uploadIdFromObjectPath(submission.artworkUrl) : null;
  if (!artworkId) return;
  const [artwork] = await deps.db.select().from(uploads).where(eq(uploads.id, artworkId));
  if (!artwork?.contentType || !THUMBNAIL_TYPES.includes(artwork.contentType) || (artwork.size ?? Infinity) > THUMBNAIL_MAX_BYTES) return;
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.storage.read(objectKey('uploads', artworkId))) chunks.push(chunk as Buffer);
  try {
    await deps.channel.withToken((token) => setThumbnail(deps.channel.urls, token, videoId, Buffer.concat(chunks), artwork.contentType!, signal));
  } catch (error) {
    if (error instanceof YouTubeApiError && error.retryable) throw error;
    deps.log.warn({ err: error, submissionId, videoId }, 'the artwork could not be set as the thumbnail');
  }
}

/**
 * Every minute: an upload whose worker died (its lease lapsed, the server restarted), or whose
 * next try's job was lost, gets a job again; the lease keeps it to one worker however many jobs
 * there are, and a try waiting for its time is left to it.
 */
export async function queueStalledUploads(deps: UploadDeps): Promise<number> {
  const stalled = await deps.db
    .select({ submissionId: youtubeUploads.submissionId })
    .from(youtubeUploads)
    .where(
      and(
        inArray(youtubeUploads.state, [...LIVE_STATES]),
        or(
          lt(youtubeUploads.leaseUntil, new Date()),
          and(isNull(youtubeUploads.leaseUntil), lt(youtubeUploads.updatedAt, sql`now() - interval '2 minutes'`), or(isNull(youtubeUploads.retryAt), lt(youtubeUploads.retryAt, sql`now() - interval '2 minutes'`))),
        ),
      ),
    );
  for (const { submissionId } of stalled) {
    await deps.jobs.enqueue(YOUTUBE_UPLOAD_JOB, { submissionId }, { singletonKey: `${jobKey(submissionId)}:resume` });
  }
  return stalled.length;
}

