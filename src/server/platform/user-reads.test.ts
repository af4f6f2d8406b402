import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtistStats, Submission } from '@shared/submission-schemas';
import { submissions, type UserRow } from './db/schema';
import { UserReads } from './user-reads';
import { TEST_ORIGIN, createAdmin, createArtist, createSubmissionRow, createTestApp, linkSubmission, secondInstance, sessionCookie, type TestApp } from '../test/helpers';

/**
 * An artist's dashboard reads are answered from memory until their submissions change, by any
 * writer on any instance (issue 16; decision 143).
 */
let t: TestApp;
let reads: UserReads;
let artist: UserRow;
let other: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  reads = new UserReads(t.database, pino({ level: 'silent' }));
  await reads.start();
  artist = await createArtist(t.db);
  other = await createArtist(t.db);
});
afterAll(async () => {
  await reads.stop();
  await t.close();
});

/** How many times `read` ran, and the answer: the artist's song titles as JSON. */
function counted(userId: string) {
  let runs = 0;
  const read = async () => {
    runs++;
    const rows = await t.db.select({ songTitle: submissions.songTitle }).from(submissions).where(eq(submissions.userId, userId));
    return rows.map((r) => r.songTitle).sort();
  };
  return { read, runs: () => runs, answer: () => reads.answer(userId, 'titles', read, JSON.stringify) };
}

const POLL = { timeout: 3000, interval: 20 };

describe('UserReads', () => {
  it('answers a second read from memory, with the same bytes and tag', async () => {
    const mine = counted(artist.id);
    const first = await mine.answer();
    const second = await mine.answer();
    expect(mine.runs()).toBe(1);
    expect(second).toEqual(first);
    expect(first.etag).toMatch(/^W\/"[\w-]+"$/);
  });

  it('reads again once the artist’s submissions changed by a write outside any request, and keeps other artists’ answers', async () => {
    const mine = counted(artist.id);
    const theirs = counted(other.id);
    await mine.answer();
    await theirs.answer();
    const runsBefore = mine.runs();

    // Straight into the database, as a job, a webhook or `npm run admin` would.
    await createSubmissionRow(t.db, artist, { songTitle: 'Written elsewhere' });
    await expect.poll(async () => JSON.parse((await mine.answer()).body), POLL).toContain('Written elsewhere');
    expect(mine.runs()).toBeGreaterThan(runsBefore);

    await theirs.answer();
    expect(theirs.runs()).toBe(1);
  });

  it('forgets an answer that depends on others’ submissions on anyone’s change, and keeps the others', async () => {
    // The artist's answer depends on everyone's (as the list's queue places do); the other's does not.
    let runs = 0;
    const dependent = () => reads.answer(artist.id, 'places', async () => ++runs, String, () => true);
    const theirs = counted(other.id);
    await dependent();
    await theirs.answer();
    const theirRuns = theirs.runs();
    expect(await dependent()).toMatchObject({ body: '1' });

    // A change to a third artist's submissions: the dependent answer is read again, the other's kept.
    const third = await createArtist(t.db);
    await createSubmissionRow(t.db, third, { songTitle: 'Somebody else' });
    await expect.poll(async () => (await dependent()).body, POLL).toBe('2');
    await theirs.answer();
    expect(theirs.runs()).toBe(theirRuns);
  });

  it('does not remember an answer read while a change was announced: it may predate the change', async () => {
    const row = await createSubmissionRow(t.db, other, { songTitle: 'Before' });
    let runs = 0;
    let heard = false;
    const racing = new UserReads(t.database, pino({ level: 'silent' }));
    await racing.start();
    try {
      // A remembered probe tells when this very listener has heard the change below: the
      // announcement drops it, and the next probe reads again. (A second listener was used once,
      // but PostgreSQL may deliver to it before this one, and the test then failed.)
      const probe = async () => {
        let probed = false;
        await racing.answer(other.id, 'probe', async () => ((probed = true), 'x'), String);
        return probed;
      };
      await expect.poll(probe, POLL).toBe(false);
      const read = async () => {
        runs++;
        const [before] = await t.db.select({ songTitle: submissions.songTitle }).from(submissions).where(eq(submissions.id, row.id));
        if (runs === 1) {
          await t.db.update(submissions).set({ songTitle: 'After' }).where(eq(submissions.id, row.id));
          await expect.poll(probe, POLL).toBe(true);
          heard = true;
        }
        return before!.songTitle;
      };
      expect((await racing.answer(other.id, 'title', read, String)).body).toBe('Before');
      expect(heard).toBe(true);
      expect((await racing.answer(other.id, 'title', read, String)).body).toBe('After');
      expect(runs).toBe(2);
    } finally {
      await racing.stop();
    }
  });
});

describe('GET /api/submissions and /api/stats on two instances', () => {
  it('show a status the team changed on the other instance soon, and the artist’s own changes at once', async () => {
    const second = await secondInstance(t);
    try {
      const owner = await createArtist(t.db);
      const admin = await createAdmin(t.db);
      const row = await createSubmissionRow(t.db, owner, { songTitle: 'On two instances' });
      const cookie = await t.signIn(owner);
      const adminCookie = await sessionCookie(second.app, t.db, admin);
      const list = async () => (await t.app.inject({ url: '/api/submissions', headers: { cookie } })).json<Submission[]>();
      const stats = async () => (await t.app.inject({ url: '/api/stats', headers: { cookie } })).json<ArtistStats>();

      expect((await list())[0]).toMatchObject({ id: row.id, status: 'pending' });
      expect(await stats()).toMatchObject({ total: 1, approved: 0 });

      const changed = await second.app.inject({
        method: 'PATCH',
        url: `/api/admin/submissions/${row.id}/status`,
        headers: { cookie: adminCookie, origin: TEST_ORIGIN },
        payload: { status: 'approved', review: 'Lovely track.' },
      });
      expect(changed.statusCode).toBe(200);
      await expect.poll(async () => (await list())[0]?.status, POLL).toBe('approved');
      await expect.poll(async () => (await stats()).approved, POLL).toBe(1);

      // The instance that made a change answers with it at once: the artist reads their own writes.
      const created = await t.call('POST', '/api/submissions', cookie, linkSubmission({ musicUrl: 'https://music.example/second', releaseStatus: 'released', artistName: 'Owner', songTitle: 'Second song' }));
      expect(created.statusCode).toBe(201);
      expect((await list()).map((s) => s.songTitle)).toEqual(['Second song', 'On two instances']);
      expect(await stats()).toMatchObject({ total: 2, approved: 1 });

      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/submissions/${created.json<Submission>().id}`,
        headers: { cookie, origin: TEST_ORIGIN },
      });
      expect(removed.statusCode).toBe(204);
      expect((await list()).map((s) => s.songTitle)).toEqual(['On two instances']);
      expect(await stats()).toMatchObject({ total: 1, approved: 1 });
    } finally {
      await second.close();
    }
  });
});
