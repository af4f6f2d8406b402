import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publications } from '../../platform/db/schema';
import { connectChannel, startChannelWorld, type ChannelWorld } from '../../test/channel-fixtures';
import { createAdmin, createArtist, createSubmissionRow } from '../../test/helpers';

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

describe('views in the window', () => {
  it('a check that runs two days late still counts exactly the 14 days from the publish date; the artist gets the daily figures', async () => {
    const artist = await createArtist(w.t.db);
    const artistCookie = await w.t.signIn(artist);
    const submission = await createSubmissionRow(w.t.db, artist, { status: 'approved' });
    const publishedAt = new Date(Date.now() - 16 * DAY);
    const videoId = 'winDOW_1234';
    const days = new Map<string, number>();
    for (let i = -1; i < 17; i++) days.set(new Date(publishedAt.getTime() + i * DAY).toISOString().slice(0, 10), 1000 + i);
    w.stub.dailyViews.set(videoId, days);
    w.stub.subscribers = 20_000;
    const put = await w.t.call('PUT', `/api/admin/submissions/${submission.id}/publication`, adminCookie, {
      videoUrl: `https://www.youtube.com/watch?v=${videoId}`,
      publishedAt: publishedAt.toISOString(),
    });
    expect(put.statusCode).toBe(200);
    // The check is due already (two days ago): the queue's worker runs it.
    const until = Date.now() + 20_000;
    let row;
    do {
      await new Promise((r) => setTimeout(r, 200));
      [row] = await w.t.db.select().from(publications).where(eq(publications.submissionId, submission.id));
    } while (!row?.checkedAt && Date.now() < until);
    // Days 0..13: 1000 + 1001 + … + 1013.
    const expected = Array.from({ length: 14 }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    expect(row).toMatchObject({ viewsAt14Days: expected, viralHit: true });
    expect(row!.checkLateSeconds).toBeGreaterThan(2 * 86_400 - 60);
    const query = w.stub.reports.at(-1)!;
    expect(query).toMatchObject({
      ids: 'channel==MINE',
      metrics: 'views',
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
});
