import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { YouTubeUploadStatus } from '@shared/production';
import { YOUTUBE_ATTEMPTS_MAX } from '@shared/production-texts';
import { deliveries, deliveryFiles, youtubeUploads, type UserRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { createObjectStorage } from '../../platform/storage/create-storage';
import { objectKey } from '../../platform/storage/object-storage';
import { connectChannel, startChannelWorld, type ChannelWorld } from '../../test/channel-fixtures';
import { createAdmin, createArtist, createStoredUpload, createSubmissionRow } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { retryDelayMs, YOUTUBE_UPLOAD_JOB } from './youtube-upload';
import { clearRights } from '../../test/rights-fixtures';

/**
 * CONTRACT §23 "Publishing never hangs", against the YouTube stub with the channel connected
 * through the OpenID test provider; the queue's workers run the jobs. The clocks are the
 * configuration's, shortened: a request gives up after 5 s (long enough for the stub on a busy
 * machine), a failed try is tried again 50 ms later (doubling), instead of 60 s and 15 s.
 */
const VIDEO_BYTES = 600_040;

interface World {
  w: ChannelWorld;
  adminCookie: string;
  admin: UserRow;
}

async function startWorld(env: Record<string, string>): Promise<World> {
  const w = await startChannelWorld(env);
  const admin = await createAdmin(w.t.db);
  const adminCookie = await w.t.signIn(admin);
  expect((await connectChannel(w.t, adminCookie)).headers.location).toBe('/admin/channel');
  return { w, admin, adminCookie };
}

function resetStub(w: ChannelWorld) {
  w.stub.failChunks = { count: 0, status: 503, message: 'Backend Error' };
  w.stub.refuseInsert = null;
  w.stub.dropAfterBytes = null;
  w.stub.hangTitles.clear();
  w.stub.hangChannels = false;
  w.stub.release();
}

/** An approved submission with a delivered video in the store; publishing it sends `title`. */
async function publishable({ w, admin }: World, title: string) {
  const storage = createObjectStorage(w.t.config);
  const artist = await createArtist(w.t.db, { artistName: 'Nyx' });
  const submission = await createSubmissionRow(w.t.db, artist, { status: 'approved', artistName: 'Nyx', songTitle: title });
  await clearRights(w.t.db, submission.id);
  const video = randomBytes(VIDEO_BYTES);
  const file = await createStoredUpload(w.t.db, admin, { contentType: 'video/mp4', size: VIDEO_BYTES, fileName: 'cut.mp4', submissionId: submission.id });
  await storage.receive(objectKey('uploads', file.id), Readable.from([video]), VIDEO_BYTES);
  const deliveryId = newId();
  await w.t.db.insert(deliveries).values({ id: deliveryId, submissionId: submission.id, version: 1, createdBy: admin.id });
  await w.t.db.insert(deliveryFiles).values({ uploadId: file.id, deliveryId, position: 0 });
  const body = { objectPath: file.path, title, description: `${title} by Nyx` };
  return { submission, body, sha256: createHash('sha256').update(video).digest('hex') };
}

const publish = (world: World, id: string, body: object) => world.w.t.call('POST', `/api/admin/submissions/${id}/youtube`, world.adminCookie, body);
const cancel = (world: World, id: string) => world.w.t.call('DELETE', `/api/admin/submissions/${id}/youtube`, world.adminCookie);

async function statusOf(world: World, id: string): Promise<YouTubeUploadStatus> {
  const res = await world.w.t.call('GET', `/api/admin/submissions/${id}/youtube`, world.adminCookie);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Polls the publication until `done` holds of it. */
const until = (world: World, id: string, done: (status: YouTubeUploadStatus) => boolean, timeoutMs = 60_000): Promise<YouTubeUploadStatus> =>
  waitFor(
    async () => {
      const status = await statusOf(world, id);
      return done(status) ? status : undefined;
    },
    { timeoutMs, intervalMs: 50, what: 'the publication' },
  );

const ended = (s: YouTubeUploadStatus) => s.state === 'published' || s.state === 'failed';

describe('the retry budget', () => {
  it('waits 15 s after the first failed try, doubling to at most 10 minutes: 8 tries in about half an hour', () => {
    const waits = Array.from({ length: YOUTUBE_ATTEMPTS_MAX - 1 }, (_, i) => retryDelayMs(i + 1, 15_000) / 1000);
    expect(waits).toEqual([15, 30, 60, 120, 240, 480, 600]);
    // The waits alone: 25.75 minutes; with each try's own time (up to a minute when YouTube does not answer) about 30.
    expect(waits.reduce((a, b) => a + b, 0) / 60).toBeCloseTo(25.75);
  });
});

describe('with short clocks', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ YOUTUBE_TIMEOUT_S: '5', YOUTUBE_RETRY_DELAY_S: '0.05' });
  });
  afterAll(() => world?.w.close());
  beforeEach(() => resetStub(world.w));

  it('YouTube answering 503 forever ends in failed after 8 tries, the attempts and the error visible while it retries; then it can start again', async () => {
    const { submission, body, sha256 } = await publishable(world, 'Outage');
    world.w.stub.refuseInsert = { status: 503, message: 'Backend Error', reason: 'backendError' };
    const startsBefore = world.w.stub.uploadLog.filter((e) => e.kind === 'start').length;
    expect((await publish(world, submission.id, body)).statusCode).toBe(202);

    // While it retries, the team sees the tries so far, the last error and when the next is due.
    const retrying = await until(world, submission.id, (s) => s.attempts >= 1 || ended(s));
    expect(retrying).toMatchObject({ state: 'queued', error: 'Backend Error', advice: null });
    expect(retrying.attempts).toBeGreaterThanOrEqual(1);
    expect(retrying.attempts).toBeLessThan(YOUTUBE_ATTEMPTS_MAX);

    const end = await until(world, submission.id, ended);
    expect(end).toMatchObject({ state: 'failed', attempts: YOUTUBE_ATTEMPTS_MAX, error: 'Backend Error', nextAttemptAt: null });
    // The advice says how long the tries really went on (seconds, on these clocks), not a fixed half hour.
    expect(end.advice).toMatch(/^YouTube kept failing for (less than a minute|1 minute) \(8 tries\)/);
    const [failedRow] = await world.w.t.db.select().from(youtubeUploads).where(eq(youtubeUploads.submissionId, submission.id));
    await world.w.t.db
      .update(youtubeUploads)
      .set({ createdAt: new Date(failedRow!.updatedAt.getTime() - 47 * 60_000) })
      .where(eq(youtubeUploads.submissionId, submission.id));
    expect((await statusOf(world, submission.id)).advice).toMatch(/^YouTube kept failing for 47 minutes \(8 tries\)/);
    // Exactly eight requests reached YouTube: the job did not queue itself again.
    expect(world.w.stub.uploadLog.filter((e) => e.kind === 'start').length - startsBefore).toBe(YOUTUBE_ATTEMPTS_MAX);
    expect(await world.w.t.app.jobs.run(YOUTUBE_UPLOAD_JOB, { submissionId: submission.id })).toBe('busy');

    // YouTube is back: a failed publication is started again, from nothing.
    world.w.stub.refuseInsert = null;
    const again = await publish(world, submission.id, body);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ state: 'queued', attempts: 0, error: null });
    const published = await until(world, submission.id, ended);
    expect(published).toMatchObject({ state: 'published', error: null });
    expect(world.w.stub.videos.get(published.videoId!)!.sha256).toBe(sha256);
  }, 90_000);

  it('a YouTube that takes the request and never answers is given up on after the timeout, and tried again', async () => {
    const { submission, body, sha256 } = await publishable(world, 'Hanging');
    world.w.stub.hangTitles.add('Hanging');
    expect((await publish(world, submission.id, body)).statusCode).toBe(202);
    const retrying = await until(world, submission.id, (s) => s.attempts >= 1 || ended(s));
    expect(retrying).toMatchObject({ state: 'uploading', bytesSent: 0, error: 'upload status: YouTube did not answer within 5 s' });
    expect(retrying.nextAttemptAt).not.toBeNull();
    // The held request was closed by the product, not by YouTube.
    const held = world.w.stub.hung.filter((h) => h.title === 'Hanging');
    expect(held.length).toBeGreaterThanOrEqual(1);
    await waitFor(() => held[0]!.closedAt !== null, { what: 'the held request was closed' });

    world.w.stub.hangTitles.delete('Hanging');
    const end = await until(world, submission.id, ended);
    expect(end).toMatchObject({ state: 'published', bytesSent: VIDEO_BYTES });
    expect(world.w.stub.videos.get(end.videoId!)!.sha256).toBe(sha256);
  }, 60_000);

  it('a publication waiting for its next try is cancelled (204, cancelled), its next try does nothing, and it can start again', async () => {
    const { submission, body } = await publishable(world, 'Cancelled While Waiting');
    world.w.stub.refuseInsert = { status: 503, message: 'Backend Error', reason: 'backendError' };
    expect((await publish(world, submission.id, body)).statusCode).toBe(202);
    await until(world, submission.id, (s) => s.attempts >= 1);
    const res = await cancel(world, submission.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await statusOf(world, submission.id)).toMatchObject({ state: 'cancelled', nextAttemptAt: null });
    // Its next try, when its job comes, leaves it alone.
    await world.w.t.db.update(youtubeUploads).set({ retryAt: new Date(Date.now() - 1000) }).where(eq(youtubeUploads.submissionId, submission.id));
    expect(await world.w.t.app.jobs.run(YOUTUBE_UPLOAD_JOB, { submissionId: submission.id })).toBe('busy');
    expect((await statusOf(world, submission.id)).state).toBe('cancelled');
    // Nothing left to cancel: 409.
    const twice = await cancel(world, submission.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Only a publication waiting or uploading can be cancelled');

    world.w.stub.refuseInsert = null;
    expect((await publish(world, submission.id, body)).statusCode).toBe(202);
    expect((await until(world, submission.id, ended)).state).toBe('published');
    // A published one is not cancellable either.
    expect((await cancel(world, submission.id)).statusCode).toBe(409);
  }, 60_000);

  it('cancelling is for admins, of a submission that exists', async () => {
    const { submission } = await publishable(world, 'Guarded');
    const artistCookie = await world.w.t.signIn(await createArtist(world.w.t.db));
    const url = `/api/admin/submissions/${submission.id}/youtube`;
    expect((await world.w.t.call('DELETE', url, null)).statusCode).toBe(401);
    expect((await world.w.t.call('DELETE', url, artistCookie)).statusCode).toBe(403);
    expect((await world.w.t.call('DELETE', `/api/admin/submissions/${newId()}/youtube`, world.adminCookie)).statusCode).toBe(404);
    expect((await world.w.t.call('DELETE', '/api/admin/submissions/not%20an%20id/youtube', world.adminCookie)).statusCode).toBe(404);
    // Never published: nothing to cancel.
    expect((await cancel(world, submission.id)).statusCode).toBe(409);
  });
});

describe('with the real timeout (60 s): nothing waits on a stalled YouTube', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ YOUTUBE_RETRY_DELAY_S: '0.05', YOUTUBE_UPLOADS_AT_ONCE: '3' });
  });
  afterAll(() => world?.w.close());
  beforeEach(() => resetStub(world.w));

  it('GET /api/admin/channel answers from what is known while YouTube holds the read, and shows the fresh figure once it answers', async () => {
    world.w.stub.hangChannels = true;
    world.w.stub.subscribers = 45_000;
    const first = await world.w.t.call('GET', '/api/admin/channel', world.adminCookie);
    expect(first.json()).toMatchObject({ connected: true, title: 'Label Channel', subscriberCount: 31_000 });
    await waitFor(() => world.w.stub.hung.some((h) => h.kind === 'channels' && h.closedAt === null), { what: 'the channel read reached YouTube' });
    // YouTube holds the read (for up to the 60 s timeout, longer than this test may take): the page still answers.
    const second = await world.w.t.call('GET', '/api/admin/channel', world.adminCookie);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ connected: true, subscriberCount: 31_000 });
    expect(world.w.stub.hung.filter((h) => h.kind === 'channels' && h.closedAt === null)).toHaveLength(1);

    world.w.stub.hangChannels = false;
    world.w.stub.release();
    const figure = await waitFor(
      async () => {
        const latest = (await world.w.t.call('GET', '/api/admin/channel', world.adminCookie)).json().subscriberCount;
        return latest === 45_000 ? latest : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: 'the new subscriber count' },
    );
    expect(figure).toBe(45_000);
  });

  it('two publications run while one stalls; the stalled one is cancelled mid-request and started again', async () => {
    const stalled = await publishable(world, 'Stalled');
    const other = await publishable(world, 'Goes Through');
    world.w.stub.hangTitles.add('Stalled');
    expect((await publish(world, stalled.submission.id, stalled.body)).statusCode).toBe(202);
    await waitFor(() => world.w.stub.hung.some((h) => h.title === 'Stalled' && h.closedAt === null), { what: 'the stalled upload reached YouTube' });

    expect((await publish(world, other.submission.id, other.body)).statusCode).toBe(202);
    const done = await until(world, other.submission.id, ended);
    expect(done.state).toBe('published');
    expect(world.w.stub.videos.get(done.videoId!)!.sha256).toBe(other.sha256);
    // … while the stalled one's request was still held open, its worker still on it.
    const held = world.w.stub.hung.filter((h) => h.title === 'Stalled');
    expect(held).toHaveLength(1);
    expect(held[0]!.closedAt).toBeNull();
    expect(await statusOf(world, stalled.submission.id)).toMatchObject({ state: 'uploading', attempts: 0 });

    // Cancelled: the request YouTube holds is given up at once, and the state says so.
    expect((await cancel(world, stalled.submission.id)).statusCode).toBe(204);
    await waitFor(() => held[0]!.closedAt !== null, { what: 'the held request was closed' });
    expect((await statusOf(world, stalled.submission.id)).state).toBe('cancelled');

    // Started again with YouTube answering: one video, every byte.
    world.w.stub.hangTitles.clear();
    expect((await publish(world, stalled.submission.id, stalled.body)).statusCode).toBe(202);
    const end = await until(world, stalled.submission.id, ended);
    expect(end.state).toBe('published');
    expect(world.w.stub.videos.get(end.videoId!)!.sha256).toBe(stalled.sha256);
  }, 60_000);
});
