import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, deliveryFiles, outboxEmails, publications, submissions, youtubeUploads, type UserRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { createObjectStorage } from '../../platform/storage/create-storage';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { connectChannel, startChannelWorld, type ChannelWorld } from '../../test/channel-fixtures';
import { pngBytes } from '../../test/file-fixtures';
import { createAdmin, createArtist, createStoredUpload, createSubmissionRow, secondInstance } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { YOUTUBE_REFUSAL_ADVICE } from '@shared/production-texts';
import { clearRights } from '../../test/rights-fixtures';
import { YOUTUBE_UPLOAD_JOB, queueStalledUploads } from './youtube-upload';

/**
 * CONTRACT §16, publishing: the real resumable protocol against the YouTube stub, with the
 * channel connected through the OpenID test provider; the queue's workers run the jobs.
 */
let w: ChannelWorld;
let storage: ObjectStorage;
let admin: UserRow;
let adminCookie: string;
let artistCookie: string;
const VIDEO_BYTES = 20 * 1024 * 1024 + 12_345;
let video: Buffer;
let videoSha: string;

beforeAll(async () => {
  // A failed try is tried again 2 s later (15 s by default): long enough for the restart test to step in first.
  w = await startChannelWorld({ YOUTUBE_RETRY_DELAY_S: '2' });
  storage = createObjectStorage(w.t.config);
  admin = await createAdmin(w.t.db);
  adminCookie = await w.t.signIn(admin);
  artistCookie = await w.t.signIn(await createArtist(w.t.db));
  expect((await connectChannel(w.t, adminCookie)).headers.location).toBe('/admin/channel');
  video = randomBytes(VIDEO_BYTES);
  videoSha = createHash('sha256').update(video).digest('hex');
});
afterAll(() => w?.close());
beforeEach(() => {
  w.stub.failChunks = { count: 0, status: 503, message: 'Backend Error' };
  w.stub.dropAfterBytes = null;
  w.stub.refuseInsert = null;
  w.stub.uploadLog = [];
});

/** An approved submission with artwork and a delivered video in the store: its id and the video's object path. */
async function approvedWithVideo(status = 'approved', aiUsage = false) {
  const artist = await createArtist(w.t.db, { artistName: 'Nyx', instagramHandle: '@nyx' });
  const art = await createStoredUpload(w.t.db, admin, { contentType: 'image/png', size: pngBytes().length });
  await storage.receive(objectKey('uploads', art.id), Readable.from([pngBytes()]), 10_000_000);
  const submission = await createSubmissionRow(w.t.db, artist, { status: status as 'approved', artworkUrl: art.path, artistName: 'Nyx', songTitle: 'Night Drive', aiUsage });
  await clearRights(w.t.db, submission.id);
  const file = await createStoredUpload(w.t.db, admin, { contentType: 'video/mp4', size: VIDEO_BYTES, fileName: 'cut.mp4', submissionId: submission.id });
  await storage.receive(objectKey('uploads', file.id), Readable.from([video]), VIDEO_BYTES);
  const deliveryId = newId();
  await w.t.db.insert(deliveries).values({ id: deliveryId, submissionId: submission.id, version: 1, createdBy: admin.id });
  await w.t.db.insert(deliveryFiles).values({ uploadId: file.id, deliveryId, position: 0 });
  return { submission, artist, objectPath: file.path };
}

async function draftOf(submissionId: string) {
  const res = await w.t.call('GET', `/api/admin/submissions/${submissionId}/publication-draft`, adminCookie);
  expect(res.statusCode).toBe(200);
  return res.json() as { title: string; description: string; tags: string[] };
}

const waitForEnd = (submissionId: string, timeoutMs = 40_000) =>
  waitFor(
    async () => {
      const status = (await w.t.call('GET', `/api/admin/submissions/${submissionId}/youtube`, adminCookie)).json();
      return status.state === 'published' || status.state === 'failed' ? status : undefined;
    },
    { timeoutMs, intervalMs: 200, what: 'the publication to end' },
  );

const starts = () => w.stub.uploadLog.filter((e) => e.kind === 'start').length;

describe('publishing on the label’s channel', () => {
  it('drafts the title, description and tags, uploads the delivered video, sets the thumbnail and records the publication as §13 does', async () => {
    const { submission, artist, objectPath } = await approvedWithVideo();
    const draft = await draftOf(submission.id);
    expect(draft.title).toBe('Nyx - Night Drive');
    expect(draft.description).toContain('Instagram: https://www.instagram.com/nyx');
    const res = await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...draft, title: 'Nyx - Night Drive (Official Video)' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ state: 'queued', bytesSent: 0, bytesTotal: VIDEO_BYTES });
    const end = await waitForEnd(submission.id);
    expect(end).toMatchObject({ state: 'published', bytesSent: VIDEO_BYTES, bytesTotal: VIDEO_BYTES, error: null });
    const made = w.stub.videos.get(end.videoId)!;
    expect(made).toMatchObject({ title: 'Nyx - Night Drive (Official Video)', privacyStatus: 'public', sha256: videoSha, size: VIDEO_BYTES });
    expect(w.stub.thumbnails.get(end.videoId)).toMatchObject({ contentType: 'image/png' });
    const [publication] = await w.t.db.select().from(publications).where(eq(publications.submissionId, submission.id));
    expect(publication).toMatchObject({ videoUrl: `https://www.youtube.com/watch?v=${end.videoId}`, subscriberSource: 'youtube', subscriberCount: 31_000 });
    const [row] = await w.t.db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, submission.id));
    expect(row!.status).toBe('published');
    const emails = await w.t.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id));
    expect(emails.map((e) => e.kind)).toContain('video_published');
    // Published once: asking again is refused.
    const again = await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...draft });
    expect(again.statusCode).toBe(409);
  });

  it('resumes an upload whose connection dropped halfway, from the Range the session reports', async () => {
    const { submission, objectPath } = await approvedWithVideo();
    w.stub.dropAfterBytes = 5 * 1024 * 1024 + 777;
    const scheduled = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...(await draftOf(submission.id)), publishAt: scheduled });
    const end = await waitForEnd(submission.id);
    expect(end.state).toBe('published');
    expect(starts()).toBe(1);
    expect(w.stub.uploadLog.some((e) => e.kind === 'query' && e.status === 308)).toBe(true);
    expect(w.stub.uploadLog.some((e) => e.kind === 'chunk' && e.range?.startsWith(`bytes ${5 * 1024 * 1024 + 777}-`))).toBe(true);
    expect(w.stub.videos.get(end.videoId)).toMatchObject({ sha256: videoSha, privacyStatus: 'private', publishAt: scheduled });
    const [publication] = await w.t.db.select().from(publications).where(eq(publications.submissionId, submission.id));
    expect(publication!.publishedAt.toISOString()).toBe(scheduled);
  });

  it('retries a 503 with backoff, and refreshes an access token YouTube refuses', async () => {
    const { submission, objectPath } = await approvedWithVideo('in_creation');
    w.stub.failChunks = { count: 1, status: 503, message: 'Backend Error' };
    w.provider.expireAccessTokens();
    const before = w.provider.refreshes.granted;
    await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...(await draftOf(submission.id)) });
    const end = await waitForEnd(submission.id);
    expect(end).toMatchObject({ state: 'published', attempts: 1, error: null, nextAttemptAt: null });
    expect(w.provider.refreshes.granted).toBeGreaterThan(before);
    expect(w.stub.uploadLog.filter((e) => e.status === 503)).toHaveLength(1);
    expect(w.stub.videos.get(end.videoId)!.sha256).toBe(videoSha);
  });

  it('ends in failed with YouTube’s message on a refusal that is not worth retrying; the team may try again', async () => {
    const { submission, objectPath } = await approvedWithVideo();
    w.stub.refuseInsert = { status: 403, message: 'The request cannot be completed because you have exceeded your quota.', reason: 'quotaExceeded' };
    await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...(await draftOf(submission.id)) });
    const end = await waitForEnd(submission.id);
    // Not worth retrying: failed at the first refusal, with advice in words beside YouTube's sentence (issue 36).
    expect(end).toMatchObject({
      state: 'failed',
      error: 'The request cannot be completed because you have exceeded your quota.',
      advice: YOUTUBE_REFUSAL_ADVICE.quotaExceeded,
      attempts: 0,
      videoId: null,
    });
    expect(starts()).toBe(1);
    const [row] = await w.t.db.select({ status: submissions.status }).from(submissions).where(eq(submissions.id, submission.id));
    expect(row!.status).toBe('approved');
    w.stub.refuseInsert = null;
    expect((await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...(await draftOf(submission.id)) })).statusCode).toBe(202);
    expect((await waitForEnd(submission.id)).state).toBe('published');
  });

  it('a channel whose sign-in was revoked fails at once, advising to connect the channel again; YouTube’s words stay in `error` (issue 43 item 11)', async () => {
    const { submission, objectPath } = await approvedWithVideo();
    w.provider.revokeRefreshTokens();
    w.provider.expireAccessTokens();
    await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...(await draftOf(submission.id)) });
    const end = await waitForEnd(submission.id);
    expect(end).toMatchObject({ state: 'failed', attempts: 0, error: "The channel's access was refused: connect the channel again", advice: YOUTUBE_REFUSAL_ADVICE.authError });
    const listed = await w.t.call('GET', `/api/admin/submissions/${submission.id}`, adminCookie);
    expect(listed.json().publishing).toMatchObject({ state: 'failed', errorReason: 'authError', advice: YOUTUBE_REFUSAL_ADVICE.authError });
    // Connected again, the channel publishes as before (and the tests after this one find it connected).
    expect((await connectChannel(w.t, adminCookie)).headers.location).toBe('/admin/channel');
    expect((await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...(await draftOf(submission.id)) })).statusCode).toBe(202);
    expect((await waitForEnd(submission.id)).state).toBe('published');
  });

  it('a restart mid-upload resumes the same session on another instance: one video, every byte once', async () => {
    const { submission, objectPath } = await approvedWithVideo();
    const second = await secondInstance(w.t);
    // The first run gets one chunk through, then YouTube fails: the try ends, and the next waits its time.
    w.stub.failChunks = { count: 1, status: 503, message: 'Backend Error', retryAfterS: 0, fromByte: 1 };
    await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...(await draftOf(submission.id)) });
    const row = await waitFor(
      async () => {
        const [upload] = await w.t.db.select().from(youtubeUploads).where(eq(youtubeUploads.submissionId, submission.id));
        return upload && upload.attempts > 0 && upload.leaseUntil === null ? upload : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50, what: 'the first try to end' },
    );
    expect(row).toMatchObject({ state: 'uploading', bytesSent: 8 * 1024 * 1024, attempts: 1, error: 'Backend Error' });
    expect(row!.sessionUri).toBeTruthy();
    expect(row!.retryAt).not.toBeNull();

    // The instance goes down before the next try: its time has come and its lease lapsed …
    await w.t.db
      .update(youtubeUploads)
      .set({ leaseUntil: new Date(Date.now() - 1000), retryAt: new Date(Date.now() - 1000) })
      .where(eq(youtubeUploads.submissionId, submission.id));
    try {
      const started = Date.now();
      // … and the restarted server's worker carries it on.
      expect(await second.app.jobs.run(YOUTUBE_UPLOAD_JOB, { submissionId: submission.id })).toBe('done');
      console.info(`resume after restart: ${Date.now() - started} ms to finish the remaining ${VIDEO_BYTES - 8 * 1024 * 1024} bytes`);
    } finally {
      await second.close();
    }
    const end = await waitForEnd(submission.id);
    expect(end.state).toBe('published');
    expect(starts()).toBe(1);
    expect(w.stub.videos.get(end.videoId)!.sha256).toBe(videoSha);
  });

  it('queues an upload whose worker died again once its lease lapsed', async () => {
    const { submission } = await approvedWithVideo();
    const file = await createStoredUpload(w.t.db, admin, { contentType: 'video/mp4', size: 10 });
    await w.t.db.insert(youtubeUploads).values({
      submissionId: submission.id,
      uploadId: file.id,
      state: 'uploading',
      title: 't',
      description: '',
      privacyStatus: 'public',
      bytesTotal: 10,
      leaseUntil: new Date(Date.now() - 5000),
      requestedBy: admin.id,
    });
    const enqueued: string[] = [];
    const n = await queueStalledUploads({
      db: w.t.db,
      jobs: {
        enqueue: async (_name: string, data: object) => {
          enqueued.push((data as { submissionId: string }).submissionId);
          return true;
        },
      },
    } as never);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(enqueued).toContain(submission.id);
  });

  it('declares an AI-assisted track as synthetic media on upload and says so in the drafted description (CONTRACT §22)', async () => {
    const { submission, objectPath } = await approvedWithVideo('approved', true);
    const draft = await draftOf(submission.id);
    expect(draft.description.split('\n').slice(0, 2)).toEqual(['Night Drive by Nyx', 'AI tools were used in making this music.']);
    expect((await w.t.call('POST', `/api/admin/submissions/${submission.id}/youtube`, adminCookie, { objectPath, ...draft })).statusCode).toBe(202);
    const end = await waitForEnd(submission.id);
    expect(w.stub.videos.get(end.videoId)).toMatchObject({ containsSyntheticMedia: true, description: draft.description });
    // Without AI: declared false, and no such line.
    const plain = await approvedWithVideo();
    const plainDraft = await draftOf(plain.submission.id);
    expect(plainDraft.description).not.toContain('AI tools');
    await w.t.call('POST', `/api/admin/submissions/${plain.submission.id}/youtube`, adminCookie, { objectPath: plain.objectPath, ...plainDraft });
    expect(w.stub.videos.get((await waitForEnd(plain.submission.id)).videoId)).toMatchObject({ containsSyntheticMedia: false });
  });

  it('refuses what cannot be published: another file, no channel, a submission not approved; and is for admins only', async () => {
    const { submission, objectPath } = await approvedWithVideo();
    const draft = await draftOf(submission.id);
    const other = await createStoredUpload(w.t.db, admin, { contentType: 'video/mp4', size: 10 });
    const url = `/api/admin/submissions/${submission.id}/youtube`;
    expect((await w.t.call('POST', url, adminCookie, { ...draft, objectPath: other.path })).statusCode).toBe(400);
    expect((await w.t.call('POST', url, adminCookie, { ...draft, objectPath: 'https://example.com/v.mp4' })).statusCode).toBe(400);
    expect((await w.t.call('POST', url, adminCookie, { ...draft, objectPath, title: 'a <b>' })).statusCode).toBe(400);
    expect((await w.t.call('POST', url, adminCookie, { ...draft, objectPath, privacyStatus: 'secret' })).statusCode).toBe(400);
    const pending = await createSubmissionRow(w.t.db, await createArtist(w.t.db));
    expect((await w.t.call('POST', `/api/admin/submissions/${pending.id}/youtube`, adminCookie, { ...draft, objectPath })).statusCode).toBe(409);
    for (const path of [url, `/api/admin/submissions/${submission.id}/%79outube`, `/api/admin/submissions/${submission.id}/publication-draft`]) {
      for (const method of ['GET', 'POST'] as const) {
        if (method === 'POST' && path.endsWith('draft')) continue;
        expect((await w.t.call(method, path, null, method === 'POST' ? { ...draft, objectPath } : undefined)).statusCode, path).toBe(401);
        expect((await w.t.call(method, path, artistCookie, method === 'POST' ? { ...draft, objectPath } : undefined)).statusCode, path).toBe(403);
      }
    }
    expect((await w.t.call('GET', `/api/admin/submissions/${submission.id}/youtube`, adminCookie)).json().state).toBeNull();
    // No channel: 409 with the contract's message.
    await w.t.call('DELETE', '/api/admin/channel', adminCookie);
    const res = await w.t.call('POST', url, adminCookie, { ...draft, objectPath });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("Connect the label's YouTube channel first");
    expect((await connectChannel(w.t, adminCookie)).headers.location).toBe('/admin/channel');
  });
});
