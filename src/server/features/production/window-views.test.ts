import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dailyViews, publications } from '../../platform/db/schema';
import { VIRAL_CHECK_BACKSTOP_JOB } from './viral-check-backstop';
import { connectChannel, startChannelWorld, type ChannelWorld } from '../../test/channel-fixtures';
import { createAdmin, createArtist, createSubmissionRow } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { clearRights } from '../../test/rights-fixtures';

/** CONTRACT §16, views in the window: the 14-day check sums the Analytics API's days, exactly 14. */
let w: ChannelWorld;
let adminCookie: string;

beforeAll(async () => {
  w = await startChannelWorld();
  adminCookie = await w.t.signIn(await createAdmin(w.t.db));
  await connectChannel(w.t, adminCookie);
});
afterAll(() => w?.close());

const DAY = 86_400_000;
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** Publishes `videoId` for a new artist's approved submission at `publishedAt`, as the team does by hand. */
async function publish(videoId: string, publishedAt: Date) {
  const artist = await createArtist(w.t.db);
  const submission = await createSubmissionRow(w.t.db, artist, { status: 'approved' });
  await clearRights(w.t.db, submission.id);
  const put = await w.t.call('PUT', `/api/admin/submissions/${submission.id}/publication`, adminCookie, {
    videoUrl: `https://www.youtube.com/watch?v=${videoId}`,
    publishedAt: publishedAt.toISOString(),
  });
  expect(put.statusCode).toBe(200);
  return { artist, submission };
}

/** The publication once `done` holds for it (the queue's worker runs the check); fails after 20 s. */
const publicationWhen = (submissionId: string, done: (row: typeof publications.$inferSelect) => boolean) =>
  waitFor(
    async () => {
      const [row] = await w.t.db.select().from(publications).where(eq(publications.submissionId, submissionId));
      return row && done(row) ? row : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, what: 'the publication' },
  );

/** Daily views 1000 + i for day i after `publishedAt`, for days `from`..`to`. */
function reportDays(videoId: string, publishedAt: Date, from: number, to: number) {
  const days = w.stub.dailyViews.get(videoId) ?? new Map<string, number>();
  for (let i = from; i <= to; i++) days.set(day(publishedAt.getTime() + i * DAY), 1000 + i);
  w.stub.dailyViews.set(videoId, days);
}

/** 1000 + 1001 + … for days 0..`last`. */
const sumThrough = (last: number) => Array.from({ length: last + 1 }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);

describe('views in the window', () => {
  it('a check that runs two days late still counts exactly the 14 days from the publish date; the artist gets the daily figures', async () => {
    const publishedAt = new Date(Date.now() - 16 * DAY);
    const videoId = 'winDOW_1234';
    reportDays(videoId, publishedAt, -1, 16);
    w.stub.subscribers = 20_000;
    const { artist, submission } = await publish(videoId, publishedAt);
    const artistCookie = await w.t.signIn(artist);
    // The check is due already (two days ago): the queue's worker runs it.
    const row = await publicationWhen(submission.id, (r) => r.checkedAt !== null);
    // Days 0..13 only, not the day before or the days after.
    expect(row).toMatchObject({ viewsAt14Days: sumThrough(13), viralHit: true });
    expect(row.checkLateSeconds).toBeGreaterThan(2 * 86_400 - 60);
    // The day query (a hit is then screened by its traffic sources too, CONTRACT §25).
    const query = w.stub.reports.filter((q) => q.dimensions === 'day').at(-1)!;
    expect(query).toMatchObject({
      ids: 'channel==MINE',
      metrics: 'views,averageViewPercentage',
      dimensions: 'day',
      filters: `video==${videoId}`,
      startDate: publishedAt.toISOString().slice(0, 10),
      endDate: new Date(publishedAt.getTime() + 13 * DAY).toISOString().slice(0, 10),
    });
    const bonus = await w.t.call('GET', '/api/bonus', artistCookie);
    const track = bonus.json().tracks[0];
    expect(track.dailyViews).toHaveLength(14);
    expect(track.dailyViews[0]).toEqual({ date: query.startDate, views: 1000 });
    expect(track.viewsNeeded).toBe(10_000);
  });

  it('waits while Analytics has not reported the window’s last day, leaves the backstop alone until the next try, then counts all 14 days', async () => {
    // Day 14 was an hour ago; Analytics lags and has reported only days 0..11.
    const publishedAt = new Date(Date.now() - 14 * DAY - 60 * 60 * 1000);
    const videoId = 'laggING_123';
    reportDays(videoId, publishedAt, 0, 11);
    const { artist, submission } = await publish(videoId, publishedAt);
    const waiting = await publicationWhen(submission.id, (row) => row.checkRetryAt !== null);
    expect(waiting).toMatchObject({ checkedAt: null, viewsAt14Days: null, viralHit: null });
    const retryIn = waiting.checkRetryAt!.getTime() - Date.now();
    expect(retryIn).toBeGreaterThan(5 * 60 * 60 * 1000);
    expect(retryIn).toBeLessThanOrEqual(6 * 60 * 60 * 1000);
    // The artist's chart already has the days reported so far.
    expect(await w.t.db.select().from(dailyViews).where(eq(dailyViews.submissionId, submission.id))).toHaveLength(12);
    const desk = await w.t.call('GET', `/api/submissions/${submission.id}/production`, adminCookie);
    expect(desk.json().publication).toMatchObject({ checkedAt: null, checkRetryAt: waiting.checkRetryAt!.toISOString() });

    // The backstop leaves a waiting check alone until its next try.
    expect(await w.t.app.jobs.run(VIRAL_CHECK_BACKSTOP_JOB)).toBe(0);

    // Analytics catches up, and the next try comes (as if six hours had passed).
    reportDays(videoId, publishedAt, 12, 16);
    await w.t.db.update(publications).set({ checkRetryAt: new Date(Date.now() - 60_000) }).where(eq(publications.submissionId, submission.id));
    expect(await w.t.app.jobs.run(VIRAL_CHECK_BACKSTOP_JOB)).toBe(1);
    const checked = await publicationWhen(submission.id, (row) => row.checkedAt !== null);
    expect(checked).toMatchObject({ viewsAt14Days: sumThrough(13), viralHit: true });
    // Late against the retry it ran for, not against day 14.
    expect(checked.checkLateSeconds!).toBeLessThan(60 * 60);
    const bonus = await w.t.call('GET', '/api/bonus', await w.t.signIn(artist));
    expect(bonus.json().tracks[0].dailyViews).toHaveLength(14);
  });

  it('once it has waited four days, records the days Analytics did report', async () => {
    const publishedAt = new Date(Date.now() - 18 * DAY - 60 * 60 * 1000);
    const videoId = 'neverALL_12';
    reportDays(videoId, publishedAt, 0, 11);
    const { submission } = await publish(videoId, publishedAt);
    const checked = await publicationWhen(submission.id, (row) => row.checkedAt !== null);
    expect(checked).toMatchObject({ viewsAt14Days: sumThrough(11), checkRetryAt: null });
  });
});
