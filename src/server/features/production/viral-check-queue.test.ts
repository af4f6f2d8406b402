import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { publications, viewReadings } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, secondInstance, sessionCookie, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { clearRights } from '../../test/rights-fixtures';
import { settleJobs, waitFor } from '../../test/kit';
import { VIRAL_CHECK_JOB } from './publication';
import { startYouTubeStub, type YouTubeStub } from '../../test/youtube-stub';

/**
 * The 14-day check through the real job queue (CONTRACT §13, §10): a check already due (a
 * publication recorded late, or a server that was down at `checkAt`) runs by itself within a
 * minute, its lateness is recorded, and with two instances on one database it runs once. On
 * PostgreSQL (DATABASE_URL) each instance has its own pool, as two processes would.
 */
const DAY = 24 * 60 * 60 * 1000;
const WITHIN_MS = 60_000;

let youtube: YouTubeStub;
let t: TestApp;
let b: { app: FastifyInstance; close(): Promise<void> };
let adminCookie: string;

beforeAll(async () => {
  youtube = await startYouTubeStub({ subscribers: 31_000 });
  t = await createTestApp({ YOUTUBE_API_KEY: youtube.apiKey, YOUTUBE_CHANNEL_ID: youtube.channelId, YOUTUBE_API_URL: youtube.url });
  b = await secondInstance(t);
  adminCookie = await sessionCookie(t.app, t.db, await createAdmin(t.db));
});
afterAll(async () => {
  await b?.close();
  await t?.close();
  await youtube?.close();
});

describe(`the 14-day check on the job queue (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('runs a check already due within a minute, records its lateness, once across two instances', async () => {
    const artist = await createArtist(t.db);
    const subs = await Promise.all([1, 2, 3].map((n) => createSubmissionRow(t.db, artist, { status: 'approved', songTitle: `Queued ${n}` })));
    for (const sub of subs) await clearRights(t.db, sub.id);
    const late = 3 * 60 * 60 * 1000;
    for (const [index, sub] of subs.entries()) {
      youtube.views.set(`queued00${index}`, 15_500 + index);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/submissions/${sub.id}/publication`,
        headers: { cookie: adminCookie, origin: TEST_ORIGIN },
        payload: { videoUrl: `https://www.youtube.com/watch?v=queued00${index}`, publishedAt: new Date(Date.now() - 14 * DAY - late).toISOString() },
      });
      expect(res.statusCode).toBe(200);
    }
    for (const sub of subs) {
      const checked = await waitFor(async () => {
        const [row] = await t.db.select().from(publications).where(eq(publications.submissionId, sub.id));
        return row?.checkedAt ? row : undefined;
      }, { timeoutMs: WITHIN_MS, intervalMs: 100, what: 'the 14-day check' });
      expect(checked.viewsAt14Days).not.toBeNull();
      expect(checked.checkLateSeconds!).toBeGreaterThanOrEqual(late / 1000 - 5);
    }
    // Once no check is left waiting or running on either instance, each ran exactly once.
    await settleJobs(t, VIRAL_CHECK_JOB);
    for (const sub of subs) {
      expect(await t.db.select().from(viewReadings).where(eq(viewReadings.submissionId, sub.id))).toHaveLength(1);
    }
    const videoReads = youtube.requests.filter((r) => r.resource === 'videos');
    expect(videoReads).toHaveLength(subs.length);
  });
});
