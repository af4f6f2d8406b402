import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSubmission } from '@shared/submission-schemas';
import { ADMIN_SETTABLE_STATUSES } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { submissionHistory, submissions, uploads, type UserRow } from '../../platform/db/schema';
import { createObjectStorage } from '../../platform/storage/create-storage';
import { objectKey } from '../../platform/storage/object-storage';
import { createAdmin, createArtist, createStoredUpload, createSubmissionRow, createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { SEARCH_COUNT_CAP } from './admin-submissions';
import type { AdminSubmissionPage, SubmissionHistoryEntry } from '@shared/admin';

let t: TestApp;
let admin: UserRow;
let adminCookie: string;
let artist: UserRow;
let artistCookie: string;

const makeSubmission = (db: Db, user: UserRow, overrides: Partial<typeof submissions.$inferInsert> = {}) =>
  createSubmissionRow(db, user, { releaseStatus: 'released', songTitle: 'A Song', ...overrides });

/** A stored upload of `user` with real bytes in the store, as the uploads feature leaves it. */
async function makeStoredUpload(user: UserRow, contentType: string) {
  const upload = await createStoredUpload(t.db, user, { contentType });
  await createObjectStorage(t.config).receive(objectKey('uploads', upload.id), Readable.from([Buffer.from('abcd')]), 1024);
  return upload;
}

const as = (cookie?: string) => ({
  get: (url: string) => t.call('GET', url, cookie),
  send: (method: 'PATCH' | 'DELETE', url: string, payload?: unknown) => t.call(method, url, cookie, payload),
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.db, { firstName: 'Lena', lastName: 'Label' });
  adminCookie = await t.signIn(admin);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  artistCookie = await t.signIn(artist);
});
afterAll(() => t?.close());

describe('admin guard', () => {
  it('refuses every admin route to the signed-out (401) and to artists (403)', async () => {
    const s = await makeSubmission(t.db, artist);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/submissions'],
      ['GET', `/api/admin/submissions/${s.id}`],
      ['PATCH', `/api/admin/submissions/${s.id}/status`, { status: 'approved' }],
      ['PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: 'x' }],
      ['DELETE', `/api/admin/submissions/${s.id}`],
      ['GET', `/api/admin/submissions/${s.id}/history`],
    ];
    for (const [method, url, payload] of routes) {
      for (const [cookie, expected] of [
        [undefined, 401],
        [artistCookie, 403],
      ] as const) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
          ...(payload ? { payload: payload as object } : {}),
        });
        expect(res.statusCode, `${method} ${url} as ${cookie ? 'artist' : 'nobody'}`).toBe(expected);
      }
    }
    const [after] = await t.db.select().from(submissions).where(eq(submissions.id, s.id));
    expect(after!.status).toBe('pending');
    expect(after!.adminNotes).toBeNull();
  });
});

describe('GET /api/admin/submissions', () => {
  let db: Db;
  let other: UserRow;
  beforeAll(async () => {
    const fresh = await createTestApp();
    // A database of its own so counts are exact.
    await t.close();
    t = fresh;
    db = t.db;
    admin = await createAdmin(db, { firstName: 'Lena', lastName: 'Label' });
    adminCookie = await sessionCookie(t.app, db, admin);
    artist = await createArtist(db, { artistName: 'Nora Vex', email: 'nora@example.com' });
    artistCookie = await sessionCookie(t.app, db, artist);
    other = await createArtist(db, { artistName: 'Kit Moss', email: 'kit.moss@label-test.org' });
    const base = Date.parse('2026-01-01T00:00:00Z');
    const statuses = ['pending', 'pending', 'under_review', 'approved', 'rejected', 'payment_pending'] as const;
    for (let i = 0; i < 12; i++) {
      await makeSubmission(db, i % 2 ? other : artist, {
        songTitle: i === 5 ? 'Midnight_100% Drive' : `Track ${String(i).padStart(2, '0')}`,
        artistName: i % 2 ? 'Kit Moss' : 'Nora Vex',
        status: statuses[i % statuses.length]!,
        createdAt: new Date(base + i * 60_000),
      });
    }
  });

  const list = async (qs = '') => {
    const res = await as(adminCookie).get(`/api/admin/submissions${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdminSubmissionPage>();
  };

  it('answers newest first with users, stats and paging', async () => {
    const body = await list();
    // Pending counts the team's queue only; the two payment_pending ones are the artist's move.
    expect(body.stats).toEqual({ total: 12, pending: 4, underReview: 2, approved: 2, awaitingPayment: 2 });
    expect(body.total).toBe(12);
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(body.submissions.map((s) => s.songTitle).slice(0, 3)).toEqual(['Track 11', 'Track 10', 'Track 09']);
    const first = body.submissions[0]!;
    expect(first.user?.email).toBe('kit.moss@label-test.org');
    expect(first.user).not.toHaveProperty('password');
    expect(first).toHaveProperty('adminNotes');
  });

  it('pages through the list', async () => {
    const p1 = await list('?pageSize=5&page=1');
    const p3 = await list('?pageSize=5&page=3');
    const p4 = await list('?pageSize=5&page=4');
    expect(p1.submissions).toHaveLength(5);
    expect(p3.submissions.map((s) => s.songTitle)).toEqual(['Track 01', 'Track 00']);
    expect(p3.total).toBe(12);
    expect(p4.submissions).toHaveLength(0);
    expect(p4.total).toBe(12);
  });

  it('refuses out-of-range paging with 400', async () => {
    for (const qs of ['?page=0', '?page=-1', '?page=abc', '?pageSize=0', '?pageSize=201', '?pageSize=2.5']) {
      const res = await as(adminCookie).get(`/api/admin/submissions${qs}`);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await list('?pageSize=200')).pageSize).toBe(200);
  });

  it('filters by status', async () => {
    const body = await list('?status=pending');
    expect(body.total).toBe(4);
    expect(body.submissions.every((s) => s.status === 'pending')).toBe(true);
    const rejected = await list('?status=rejected&pageSize=1');
    expect(rejected.total).toBe(2);
    expect(rejected.submissions).toHaveLength(1);
    expect((await list('?status=all')).total).toBe(12);
    expect((await as(adminCookie).get('/api/admin/submissions?status=bogus')).statusCode).toBe(400);
  });

  it('searches song title, artist name and email, case-insensitively', async () => {
    expect((await list('?q=track%2003')).submissions.map((s) => s.songTitle)).toEqual(['Track 03']);
    expect((await list('?q=NORA')).total).toBe(6);
    expect((await list('?q=label-test')).total).toBe(6);
    expect((await list('?q=label-test&status=pending')).total).toBe(2);
    // LIKE wildcards are literal characters.
    expect((await list('?q=100%25')).submissions.map((s) => s.songTitle)).toEqual(['Midnight_100% Drive']);
    expect((await list('?q=_')).total).toBe(1);
    expect((await list('?q=nothing-like-this')).total).toBe(0);
  });
});

describe('one submission', () => {
  it('answers it with its user, or 404', async () => {
    const s = await makeSubmission(t.db, artist, { adminNotes: 'internal' });
    const res = await as(adminCookie).get(`/api/admin/submissions/${s.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<AdminSubmission>();
    expect(body.user?.id).toBe(artist.id);
    expect(body.adminNotes).toBe('internal');
    expect((await as(adminCookie).get('/api/admin/submissions/nope')).statusCode).toBe(404);
  });
});

describe('status', () => {
  it('sets each allowed status and records who and when', async () => {
    const s = await makeSubmission(t.db, artist);
    for (const status of ADMIN_SETTABLE_STATUSES) {
      // Asking for changes says what to change (CONTRACT §27).
      const review = status === 'changes_requested' ? { review: 'Bring the vocals up.' } : {};
      const res = await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/status`, { status, ...review });
      expect(res.statusCode, status).toBe(200);
      expect(res.json<AdminSubmission>().status).toBe(status);
    }
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, s.id));
    expect(row!.status).toBe('archived');
    expect(row!.adminReviewedBy).toBe(admin.id);
    expect(Date.now() - row!.adminReviewedAt!.getTime()).toBeLessThan(60_000);
  });

  it('refuses other statuses with 400 and changes nothing', async () => {
    const s = await makeSubmission(t.db, artist);
    for (const body of [{ status: 'draft' }, { status: 'payment_pending' }, { status: 'APPROVED' }, {}, { status: 'approved', review: 'x'.repeat(5001) }]) {
      const res = await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/status`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, s.id));
    expect(row!.status).toBe('pending');
    const missing = await as(adminCookie).send('PATCH', '/api/admin/submissions/nope/status', { status: 'approved' });
    expect(missing.statusCode).toBe(404);
  });

  it('shows the review to the artist, never the notes', async () => {
    const s = await makeSubmission(t.db, artist);
    await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/status`, {
      status: 'approved',
      review: '  Great hook, we love it.  ',
    });
    await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: 'Budget: small. Do not tell.' });
    const mine = await as(artistCookie).get(`/api/submissions/${s.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().adminReview).toBe('Great hook, we love it.');
    expect(mine.json().status).toBe('approved');
    expect(mine.body).not.toContain('Budget');
    expect(mine.json()).not.toHaveProperty('adminNotes');
    const all = await as(artistCookie).get('/api/submissions');
    expect(all.body).not.toContain('Budget');
    // A status change without `review` keeps the review.
    await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/status`, { status: 'in_creation' });
    expect((await as(artistCookie).get(`/api/submissions/${s.id}`)).json().adminReview).toBe('Great hook, we love it.');
  });
});

describe('notes', () => {
  it('saves and clears notes; validates them', async () => {
    const s = await makeSubmission(t.db, artist);
    const saved = await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: 'Line one\nLine two' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<AdminSubmission>().adminNotes).toBe('Line one\nLine two');
    const cleared = await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: '   ' });
    expect(cleared.json<AdminSubmission>().adminNotes).toBeNull();
    expect((await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: 5 })).statusCode).toBe(400);
    expect((await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: 'x'.repeat(10_001) })).statusCode).toBe(400);
    expect((await as(adminCookie).send('PATCH', '/api/admin/submissions/nope/notes', { notes: 'x' })).statusCode).toBe(404);
  });
});

describe('history', () => {
  it('keeps every status, review and note change with actor, from and to', async () => {
    const s = await makeSubmission(t.db, artist);
    const url = `/api/admin/submissions/${s.id}`;
    await as(adminCookie).send('PATCH', `${url}/status`, { status: 'under_review' });
    await as(adminCookie).send('PATCH', `${url}/status`, { status: 'under_review' });
    await as(adminCookie).send('PATCH', `${url}/notes`, { notes: 'first' });
    await as(adminCookie).send('PATCH', `${url}/notes`, { notes: 'first' });
    await as(adminCookie).send('PATCH', `${url}/notes`, { notes: 'second' });
    await as(adminCookie).send('PATCH', `${url}/status`, { status: 'approved', review: 'Yes!' });
    const res = await as(adminCookie).get(`${url}/history`);
    expect(res.statusCode).toBe(200);
    const entries = res.json<SubmissionHistoryEntry[]>();
    const simple = entries.map((e) => [e.field, e.fromValue, e.toValue]);
    expect(simple.slice(0, 3)).toEqual([
      ['status', 'pending', 'under_review'],
      ['notes', null, 'first'],
      ['notes', 'first', 'second'],
    ]);
    expect(simple.slice(3)).toEqual(
      expect.arrayContaining([
        ['status', 'under_review', 'approved'],
        ['review', null, 'Yes!'],
      ]),
    );
    expect(entries).toHaveLength(5);
    expect(entries[0]!.actor).toEqual({ id: admin.id, name: 'Lena Label' });
    expect(Date.parse(entries[0]!.createdAt)).not.toBeNaN();
    expect((await as(adminCookie).get('/api/admin/submissions/nope/history')).statusCode).toBe(404);
  });
});

describe('delete', () => {
  it('removes the submission, its history and its stored files', async () => {
    const music = await makeStoredUpload(artist, 'audio/mpeg');
    const art = await makeStoredUpload(artist, 'image/png');
    const style = await makeStoredUpload(artist, 'image/jpeg');
    const s = await makeSubmission(t.db, artist, {
      submissionMethod: 'upload',
      musicUrl: null,
      musicFileUrl: music.path,
      artworkUrl: art.path,
      styleReferenceUrls: [style.path],
    });
    await t.db
      .update(uploads)
      .set({ submissionId: s.id })
      .where(eq(uploads.userId, artist.id));
    expect((await as(adminCookie).get(music.path)).statusCode).toBe(200);
    await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: 'bye' });

    const res = await as(adminCookie).send('DELETE', `/api/admin/submissions/${s.id}`);
    expect(res.statusCode).toBe(204);
    expect(await t.db.select().from(submissions).where(eq(submissions.id, s.id))).toHaveLength(0);
    expect(await t.db.select().from(submissionHistory).where(eq(submissionHistory.submissionId, s.id))).toHaveLength(0);
    const storage = createObjectStorage(t.config);
    for (const f of [music, art, style]) {
      expect(await storage.check(objectKey('uploads', f.id))).toBeNull();
      expect((await as(adminCookie).get(f.path)).statusCode).toBe(404);
    }
    expect((await as(adminCookie).send('DELETE', `/api/admin/submissions/${s.id}`)).statusCode).toBe(404);
  });

  it('deletes as the team: licensed submissions too, never a draft the desk does not list', async () => {
    for (const status of ['approved', 'completed'] as const) {
      const licensed = await makeSubmission(t.db, artist, { status });
      expect((await as(adminCookie).send('DELETE', `/api/admin/submissions/${licensed.id}`)).statusCode).toBe(204);
      expect(await t.db.select().from(submissions).where(eq(submissions.id, licensed.id))).toHaveLength(0);
    }
    const draft = await makeSubmission(t.db, artist, { status: 'draft' });
    expect((await as(adminCookie).send('DELETE', `/api/admin/submissions/${draft.id}`)).statusCode).toBe(404);
    expect(await t.db.select().from(submissions).where(eq(submissions.id, draft.id))).toHaveLength(1);
  });
});

describe('the database refuses values outside the shared lists', () => {
  it.each([
    ['status', `status = 'not_a_status'`],
    ['pricing_tier', `pricing_tier = 'platinum'`],
    ['video_style', `video_style = 'anime'`],
  ])('%s', async (_column, assignment) => {
    const s = await makeSubmission(t.db, artist, { status: 'pending' });
    await expect(t.db.execute(sql.raw(`update submissions set ${assignment} where id = '${s.id}'`))).rejects.toMatchObject({
      // 23514: check_violation, on the embedded database and on PostgreSQL alike.
      cause: expect.objectContaining({ code: '23514' }),
    });
  });
});

describe('search counts', () => {
  it('stops counting a broad search at SEARCH_COUNT_CAP and says so', async () => {
    await t.db.execute(
      sql.raw(`insert into submissions (id, user_id, submission_method, release_status, artist_name, song_title, has_lyrics,
          ai_usage, video_style, pricing_tier, terms_accepted, status)
        select 'cap-' || g, '${artist.id}', 'link', 'released', 'Cap Artist', 'Zebracap ' || g, false, false, 'non-custom',
          'free', true, 'pending'
        from generate_series(1, ${SEARCH_COUNT_CAP + 5}) g`),
    );
    const res = await as(adminCookie).get('/api/admin/submissions?q=zebracap&pageSize=10&page=2');
    const body = res.json<AdminSubmissionPage>();
    expect(body.total).toBe(SEARCH_COUNT_CAP);
    expect(body.totalCapped).toBe(true);
    expect(body.submissions).toHaveLength(10);
    const exact = await as(adminCookie).get('/api/admin/submissions?q=zebracap%20100&pageSize=1&page=1');
    expect(exact.json<AdminSubmissionPage>()).toMatchObject({ total: 7, totalCapped: false });
  });
});

describe('status counts', () => {
  it('stay equal to the real counts through inserts, status changes and deletes', async () => {
    const s = await makeSubmission(t.db, artist, { status: 'pending' });
    await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/status`, { status: 'approved' });
    await as(adminCookie).send('PATCH', `/api/admin/submissions/${s.id}/notes`, { notes: 'no status change' });
    const doomed = await makeSubmission(t.db, artist, { status: 'under_review' });
    await as(adminCookie).send('DELETE', `/api/admin/submissions/${doomed.id}`);
    await t.db.update(submissions).set({ status: 'rejected' }).where(eq(submissions.userId, artist.id));
    const real = await t.db.execute(
      sql`select count(*)::int as total,
        (count(*) filter (where status = 'pending'))::int as pending,
        (count(*) filter (where status = 'under_review'))::int as "underReview",
        (count(*) filter (where status = 'approved'))::int as approved,
        (count(*) filter (where status in ('payment_pending', 'payment_failed')))::int as "awaitingPayment"
      from submissions`,
    );
    const [expected] = ((real as { rows?: unknown[] }).rows ?? real) as unknown[];
    const body = (await as(adminCookie).get('/api/admin/submissions?pageSize=1')).json<AdminSubmissionPage>();
    expect(body.stats).toEqual(expected);
    const rejected = (await as(adminCookie).get('/api/admin/submissions?status=rejected&pageSize=1')).json<AdminSubmissionPage>();
    expect(rejected.total).toBeGreaterThan(1);
  });
});
