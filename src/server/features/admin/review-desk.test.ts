import { Readable } from 'node:stream';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSubmissionPage } from '@shared/admin';
import type { AdminSubmission } from '@shared/submission-schemas';
import { BULK_IDS_MAX, TAGS_PER_SUBMISSION_MAX, WAVEFORM_POINTS, type ReviewTemplate, type SubmissionRatings, type TrackComment, type Waveform } from '@shared/review-desk';
import { computePeaks } from '../../platform/audio/peaks';
import { outboxEmails, submissionHistory, submissions, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, TEST_ORIGIN, type Caller, type Method, type TestApp } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { CSV_BATCH_ROWS, spreadsheetSafe } from './csv-export';

/** The review desk for a team (CONTRACT §14). */

let t: TestApp;
let admin: UserRow;
let adminCookie: string;
let colleague: UserRow;
let colleagueCookie: string;
let artist: UserRow;
let artistCookie: string;
let otherArtistCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.db, { firstName: 'Lena', lastName: 'Label' });
  adminCookie = await t.signIn(admin);
  colleague = await createAdmin(t.db, { firstName: 'Omar', lastName: 'Ear' });
  colleagueCookie = await t.signIn(colleague);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  artistCookie = await t.signIn(artist);
  otherArtistCookie = await t.signIn(await createArtist(t.db));
});
afterAll(() => t?.close());

/** `cookie` null: signed out. */
const call = (method: Method, url: string, cookie: Caller = adminCookie, payload?: unknown) => t.call(method, url, cookie, payload);

const makeSubmission = (overrides: Partial<typeof submissions.$inferInsert> = {}) => createSubmissionRow(t.db, artist, overrides);

async function details(id: string): Promise<AdminSubmission> {
  const res = await call('GET', `/api/admin/submissions/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Rows of a raw query, on either driver. */
const rowsOf = async (query: SQL) => ((await t.db.execute(query)) as unknown as { rows: unknown[] }).rows;

const historyOf = (ids: string[]) => t.db.select().from(submissionHistory).where(inArray(submissionHistory.submissionId, ids));

/** A WAV of a 440 Hz tone: loud for the first half, silent for the second. */
function toneWav(seconds: number, rate = 8000): Buffer {
  const samples = seconds * rate;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples * 2, 40);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples / 2; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 16000), i * 2);
  return Buffer.concat([header, data]);
}

describe('access', () => {
  it('refuses every review-desk route to the signed-out (401) and to artists (403)', async () => {
    const s = await makeSubmission();
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/admin/submissions/bulk', { ids: [s.id], action: 'status', status: 'approved' }],
      ['GET', '/api/admin/submissions.csv'],
      ['GET', '/api/admin/team'],
      ['PUT', `/api/admin/submissions/${s.id}/assignee`, { assigneeId: null }],
      ['PUT', `/api/admin/submissions/${s.id}/tags`, { tags: ['x'] }],
      ['GET', `/api/admin/submissions/${s.id}/ratings`],
      ['PUT', `/api/admin/submissions/${s.id}/rating`, { score: 5 }],
      ['GET', `/api/admin/submissions/${s.id}/comments`],
      ['POST', `/api/admin/submissions/${s.id}/comments`, { atSeconds: 1, text: 'x' }],
      ['GET', `/api/admin/submissions/${s.id}/waveform`],
      ['POST', `/api/admin/submissions/${s.id}/listening`, { from: 0, to: 1 }],
      ['GET', '/api/admin/review-templates'],
      ['POST', '/api/admin/review-templates', { name: 'n', body: 'b' }],
      ['PUT', '/api/admin/review-templates/x', { name: 'n', body: 'b' }],
      ['DELETE', '/api/admin/review-templates/x'],
    ];
    for (const [method, url, payload] of routes) {
      for (const [cookie, expected] of [
        [null, 401],
        [artistCookie, 403],
      ] as const) {
        const res = await call(method as 'GET', url, cookie, payload);
        expect(res.statusCode, `${method} ${url} as ${cookie ? 'artist' : 'nobody'}`).toBe(expected);
      }
    }
    expect((await details(s.id)).status).toBe('pending');
    expect(await historyOf([s.id])).toEqual([]);
  });

  it('answers the owner only at GET /api/submissions/{id}/comments: 401 signed out, 404 for another artist', async () => {
    const s = await makeSubmission();
    expect((await call('GET', `/api/submissions/${s.id}/comments`, null)).statusCode).toBe(401);
    expect((await call('GET', `/api/submissions/${s.id}/comments`, otherArtistCookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/submissions/no-such-id/comments`, artistCookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/submissions/${s.id}/comments`, artistCookie)).statusCode).toBe(200);
  });
});

describe('POST /api/admin/submissions/bulk', () => {
  it('approves three with a template review, filled in per submission, with one status row each as done singly', async () => {
    const rows = await Promise.all(['Alpha', 'Beta', 'Gamma'].map((songTitle) => makeSubmission({ songTitle, artistName: `${songTitle} Band` })));
    const ids = rows.map((r) => r.id);
    const res = await call('POST', '/api/admin/submissions/bulk', adminCookie, {
      ids,
      action: 'status',
      status: 'approved',
      review: 'Dear {artistName}, we love "{songTitle}".',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 3 });
    for (const row of rows) {
      const s = await details(row.id);
      expect(s.status).toBe('approved');
      expect(s.adminReview).toBe(`Dear ${row.artistName}, we love "${row.songTitle}".`);
      expect(s.adminReviewedBy).toBe(admin.id);
    }
    const history = await historyOf(ids);
    for (const id of ids) {
      const mine = history.filter((h) => h.submissionId === id);
      expect(mine.filter((h) => h.field === 'status')).toMatchObject([{ fromValue: 'pending', toValue: 'approved', actorId: admin.id }]);
      expect(mine.filter((h) => h.field === 'review')).toHaveLength(1);
    }
    // One email per submission, each with its own review, and one send job each.
    const emails = await t.db.select().from(outboxEmails).where(eq(outboxEmails.kind, 'status_changed'));
    for (const row of rows) {
      const mine = emails.filter((e) => e.templateData.submissionId === row.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.templateData).toMatchObject({ statusLabel: 'Approved', review: `Dear ${row.artistName}, we love "${row.songTitle}".` });
      expect(await rowsOf(sql`select 1 from pgboss.job where name = 'email.send' and data->>'outboxId' = ${mine[0]!.id}`)).toHaveLength(1);
    }
  });

  it('changes nothing when one id is unknown (all or nothing) and names the bad one', async () => {
    const rows = await Promise.all([1, 2].map(() => makeSubmission()));
    const ids = [rows[0]!.id, 'no-such-submission', rows[1]!.id];
    for (const payload of [
      { ids, action: 'status', status: 'rejected', review: 'No.' },
      { ids, action: 'assign', assigneeId: admin.id },
      { ids, action: 'tag', add: ['hot'] },
      { ids, action: 'delete' },
    ]) {
      const res = await call('POST', '/api/admin/submissions/bulk', adminCookie, payload);
      expect(res.statusCode, payload.action).toBe(404);
      expect(res.json().errors).toEqual([{ path: 'ids.1', message: 'Submission not found' }]);
    }
    for (const row of rows) {
      const s = await details(row.id);
      expect(s.status).toBe('pending');
      expect(s.adminReview).toBeNull();
      expect(s.desk).toEqual({ assignee: null, tags: [], ratingAverage: null, ratingCount: 0, listenedShare: 0 });
    }
    expect(await historyOf(rows.map((r) => r.id))).toEqual([]);
  });

  it('refuses 0 and 201 ids, an unknown action and a bad status (400)', async () => {
    const s = await makeSubmission();
    const tooMany = Array.from({ length: BULK_IDS_MAX + 1 }, (_, i) => `id-${i}`);
    for (const payload of [
      { ids: [], action: 'status', status: 'approved' },
      { ids: tooMany, action: 'status', status: 'approved' },
      { ids: [s.id], action: 'explode' },
      { ids: [s.id], action: 'status', status: 'payment_pending' },
      { ids: 'all', action: 'delete' },
      { ids: [s.id], action: 'tag', add: ['x'.repeat(41)] },
    ]) {
      const res = await call('POST', '/api/admin/submissions/bulk', adminCookie, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect((await details(s.id)).status).toBe('pending');
  });

  it('assigns (only to an admin), unassigns, tags and untags, with history', async () => {
    const rows = await Promise.all([1, 2].map(() => makeSubmission()));
    const ids = rows.map((r) => r.id);
    expect((await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids, action: 'assign', assigneeId: artist.id })).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids, action: 'assign', assigneeId: colleague.id })).json()).toEqual({ updated: 2 });
    expect((await details(ids[0]!)).desk.assignee).toEqual({ id: colleague.id, name: 'Omar Ear' });
    await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids, action: 'tag', add: ['Synthwave', 'hot'] });
    await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids: [ids[1]], action: 'tag', remove: ['hot'] });
    expect((await details(ids[0]!)).desk.tags).toEqual(['synthwave', 'hot']);
    expect((await details(ids[1]!)).desk.tags).toEqual(['synthwave']);
    await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids, action: 'assign', assigneeId: null });
    expect((await details(ids[0]!)).desk.assignee).toBeNull();
    const history = await historyOf([ids[0]!]);
    expect(history.filter((h) => h.field === 'assignee').map((h) => [h.fromValue, h.toValue])).toEqual([
      [null, colleague.id],
      [colleague.id, null],
    ]);
    expect(history.filter((h) => h.field === 'tags').map((h) => h.toValue)).toEqual(['synthwave, hot']);
  });

  it('deletes them all, rows and history', async () => {
    const rows = await Promise.all([1, 2, 3].map(() => makeSubmission()));
    const res = await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids: rows.map((r) => r.id), action: 'delete' });
    expect(res.json()).toEqual({ updated: 3 });
    expect(await t.db.select().from(submissions).where(inArray(submissions.id, rows.map((r) => r.id)))).toEqual([]);
  });

  it('counts a repeated id once', async () => {
    const s = await makeSubmission();
    const res = await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids: [s.id, s.id], action: 'status', status: 'under_review' });
    expect(res.json()).toEqual({ updated: 1 });
    expect((await historyOf([s.id])).filter((h) => h.field === 'status')).toHaveLength(1);
  });

  it('refuses a tag add that would take any submission past 20 tags, naming each, and changes none', async () => {
    const rows = await Promise.all([1, 2, 3].map(() => makeSubmission()));
    const ids = rows.map((r) => r.id);
    const nineteen = Array.from({ length: TAGS_PER_SUBMISSION_MAX - 1 }, (_, i) => `t${i}`);
    const eighteen = nineteen.slice(0, -1);
    await call('PUT', `/api/admin/submissions/${ids[0]}/tags`, adminCookie, { tags: nineteen });
    await call('PUT', `/api/admin/submissions/${ids[2]}/tags`, adminCookie, { tags: eighteen });
    const before = await historyOf(ids);

    // 19 + 2 = 21 and 18 + 2 = 20 (allowed), 0 + 2: the first one alone refuses the whole change.
    const refused = await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids, action: 'tag', add: ['new-a', 'new-b'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'too_many_tags',
      message: '1 of the chosen submissions would have more than 20 tags; nothing was changed',
      errors: [{ path: 'ids.0', message: 'This submission would have 21 tags; at most 20 are allowed' }],
    });
    expect((await details(ids[0]!)).desk.tags).toEqual(nineteen);
    expect((await details(ids[1]!)).desk.tags).toEqual([]);
    expect((await details(ids[2]!)).desk.tags).toEqual(eighteen);
    expect(await historyOf(ids)).toHaveLength(before.length);

    // Three more take two submissions past it: both named.
    const both = await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids, action: 'tag', add: ['x', 'y', 'z'] });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors.map((e: { path: string }) => e.path)).toEqual(['ids.0', 'ids.2']);

    // Exactly 20, or a tag already there, is fine.
    const ok = await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids: [ids[0], ids[2]], action: 'tag', add: ['t0', 'new-a'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await details(ids[0]!)).desk.tags).toHaveLength(TAGS_PER_SUBMISSION_MAX);
    expect((await details(ids[2]!)).desk.tags).toHaveLength(TAGS_PER_SUBMISSION_MAX - 1);
  });
});

describe('assignment, tags, ratings and the list', () => {
  let db: TestApp;
  let mine: string, theirs: string, unassigned: string, paid: string;
  beforeAll(async () => {
    // A database of its own, so filters and sorts see only these rows.
    db = await createTestApp();
    const a = await createAdmin(db.db, { firstName: 'Ada', lastName: 'Admin' });
    const b = await createAdmin(db.db, { firstName: 'Ben', lastName: 'Boss' });
    const who = await createArtist(db.db, { artistName: 'Kit Moss' });
    const base = Date.parse('2026-03-01T00:00:00Z');
    const make = (i: number, overrides: Partial<typeof submissions.$inferInsert> = {}) =>
      createSubmissionRow(db.db, who, { songTitle: `Song ${i}`, createdAt: new Date(base + i * 60_000), ...overrides });
    mine = (await make(1)).id;
    theirs = (await make(2)).id;
    unassigned = (await make(3)).id;
    paid = (await make(4, { pricingTier: 'premium', status: 'pending', paymentStatus: 'succeeded' })).id;
    await make(5, { pricingTier: 'basic' }); // payment_pending, not paid
    adminA = await db.signIn(a);
    adminB = await db.signIn(b);
    const put = (cookie: string, url: string, payload: object) =>
      db.app.inject({ method: 'PUT', url, headers: { cookie, origin: TEST_ORIGIN }, payload });
    expect((await put(adminA, `/api/admin/submissions/${mine}/assignee`, { assigneeId: a.id })).statusCode).toBe(200);
    await put(adminA, `/api/admin/submissions/${theirs}/assignee`, { assigneeId: b.id });
    await put(adminA, `/api/admin/submissions/${paid}/assignee`, { assigneeId: b.id });
    const tagged = await put(adminA, `/api/admin/submissions/${theirs}/tags`, { tags: ['Hot', 'hot', 'sync'] });
    expect(tagged.json().desk.tags).toEqual(['hot', 'sync']);
    // Ratings: theirs 5 and 4 (4.5), unassigned 3, mine unrated.
    const rate = async (cookie: string, id: string, score: number, comment?: string) => {
      const res = await put(cookie, `/api/admin/submissions/${id}/rating`, { score, comment });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<SubmissionRatings>();
    };
    await rate(adminA, theirs, 2, 'first thoughts');
    await rate(adminA, theirs, 5, 'Great hook'); // replaces the first
    const both = await rate(adminB, theirs, 4);
    expect(both.average).toBe(4.5);
    expect(both.ratings.map((r) => [r.admin.name, r.score, r.comment])).toEqual([
      ['Ada Admin', 5, 'Great hook'],
      ['Ben Boss', 4, null],
    ]);
    await rate(adminB, unassigned, 3);
    me = a;
  });
  let adminA: string, adminB: string;
  let me: UserRow;
  afterAll(() => db?.close());

  const listOn = async (qs: string) => {
    const res = await db.app.inject({ method: 'GET', url: `/api/admin/submissions${qs}`, headers: { cookie: adminA } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdminSubmissionPage>();
  };
  const titles = (page: AdminSubmissionPage) => page.submissions.map((s) => s.songTitle);

  it('filters by assignee me, none and an id', async () => {
    expect(titles(await listOn('?assignee=me'))).toEqual(['Song 1']);
    expect(titles(await listOn('?assignee=none'))).toEqual(['Song 5', 'Song 3']);
    const theirsPage = await listOn(`?assignee=${(await listOn('?assignee=me')).submissions[0]!.desk.assignee!.id}`);
    expect(titles(theirsPage)).toEqual(['Song 1']);
    expect(theirsPage.submissions[0]!.desk.assignee).toEqual({ id: me.id, name: 'Ada Admin' });
  });

  it('filters by tag, case-insensitively', async () => {
    expect(titles(await listOn('?tag=HOT'))).toEqual(['Song 2']);
    expect(titles(await listOn('?tag=nothing'))).toEqual([]);
  });

  it('filters paid and unpaid paid-tier submissions', async () => {
    expect(titles(await listOn('?paid=true'))).toEqual(['Song 4']);
    expect(titles(await listOn('?paid=false'))).toEqual(['Song 5']);
    expect((await db.app.inject({ method: 'GET', url: '/api/admin/submissions?paid=maybe', headers: { cookie: adminA } })).statusCode).toBe(400);
  });

  it('shows the average rating and sorts by it, unrated last', async () => {
    const page = await listOn('?sort=rating');
    expect(titles(page)).toEqual(['Song 2', 'Song 3', 'Song 5', 'Song 4', 'Song 1']);
    expect(page.submissions[0]!.desk).toMatchObject({ ratingAverage: 4.5, ratingCount: 2 });
    expect(titles(await listOn('?sort=created&pageSize=2'))).toEqual(['Song 5', 'Song 4']);
    const combined = await listOn('?sort=rating&pageSize=1&page=2');
    expect(titles(combined)).toEqual(['Song 3']);
    expect(combined.total).toBe(5);
  });

  it('refuses unknown sorts (400)', async () => {
    for (const sort of ['price']) {
      const res = await db.app.inject({ method: 'GET', url: `/api/admin/submissions?sort=${sort}`, headers: { cookie: adminA } });
      expect(res.statusCode).toBe(400);
    }
  });

  it('refuses a rating outside 1–5, a fraction, a long comment and an unknown submission', async () => {
    for (const payload of [{ score: 0 }, { score: 6 }, { score: 3.5 }, { score: '5' }, { score: 4, comment: 'x'.repeat(281) }]) {
      const res = await db.app.inject({ method: 'PUT', url: `/api/admin/submissions/${mine}/rating`, headers: { cookie: adminA, origin: TEST_ORIGIN }, payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
    const missing = await db.app.inject({ method: 'PUT', url: '/api/admin/submissions/nope/rating', headers: { cookie: adminA, origin: TEST_ORIGIN }, payload: { score: 3 } });
    expect(missing.statusCode).toBe(404);
    const unknownRatings = await db.app.inject({ method: 'GET', url: '/api/admin/submissions/nope/ratings', headers: { cookie: adminA } });
    expect(unknownRatings.statusCode).toBe(404);
    expect(unknownRatings.json()).toMatchObject({ code: 'submission_not_found' });
    expect((await listOn('?assignee=me')).submissions[0]!.desk.ratingCount).toBe(0);
  });

  it('exports the current filter as CSV, newest first', async () => {
    const res = await db.app.inject({ method: 'GET', url: '/api/admin/submissions.csv?assignee=none', headers: { cookie: adminB } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="submissions-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'id,submitted_at,song_title,artist_name,email,status,tier,amount,payment_status,assignee,tags,rating_average,ratings,listened_percent,genre,mood,due_at,delivered_at,terms_sha256,terms_accepted_at,' +
        'type,music_link,music_file,video_link,video_file,instagram,tiktok,twitter,facebook,youtube,spotify,soundcloud,applemusic,amazonmusic,deezer,bandcamp,other_platforms',
    );
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['Song 5', 'Song 3']);
    expect(lines[2]).toContain(',3.0,1,');
    const tagged = await db.app.inject({ method: 'GET', url: '/api/admin/submissions.csv?tag=sync', headers: { cookie: adminB } });
    expect(tagged.body).toContain('"hot, sync"');
    expect(tagged.body).toContain('Ben Boss');
    expect((await db.app.inject({ method: 'GET', url: '/api/admin/submissions.csv?status=nope', headers: { cookie: adminB } })).statusCode).toBe(400);
  });
});

describe('CSV export', () => {
  it('neutralises cells a spreadsheet would run as a formula', async () => {
    expect(spreadsheetSafe('=HYPERLINK("http://x")')).toBe(`'=HYPERLINK("http://x")`);
    expect(spreadsheetSafe('+1')).toBe(`'+1`);
    expect(spreadsheetSafe('@me')).toBe(`'@me`);
    expect(spreadsheetSafe('Night Drive')).toBe('Night Drive');
    const s = await makeSubmission({ songTitle: '=cmd|" /C calc"!A0' });
    const res = await call('GET', `/api/admin/submissions.csv?q=${encodeURIComponent('cmd|')}`);
    expect(res.body).toContain(`"'=cmd|"" /C calc""!A0"`);
    expect(res.body).toContain(s.id);
  });

  it('carries the type, the music link or file and the artist\u2019s social links', async () => {
    const social = await createArtist(t.db, { artistName: 'Linked', instagramHandle: '@linked', otherPlatforms: 'https://linked.example' });
    const byLink = await createSubmissionRow(t.db, social, { songTitle: 'By Link', musicUrl: 'https://soundcloud.com/linked/one' });
    const byFile = await createSubmissionRow(t.db, social, { songTitle: 'By File', submissionMethod: 'upload', musicUrl: null, musicFileUrl: '/objects/uploads/abc' });
    const res = await call('GET', `/api/admin/submissions.csv?q=${encodeURIComponent('Linked')}`);
    const [header, ...lines] = res.body.trim().split('\n');
    const columns = header!.split(',');
    const rowOf = (id: string) => Object.fromEntries(lines.find((l) => l.startsWith(id))!.split(',').map((cell, i) => [columns[i], cell]));
    expect(rowOf(byLink.id)).toMatchObject({ type: 'track', music_link: 'https://soundcloud.com/linked/one', music_file: '', instagram: "'@linked", other_platforms: 'https://linked.example', tiktok: '' });
    expect(rowOf(byFile.id).music_file).toMatch(/^http:\/\/[^/]+\/objects\/uploads\/abc$/);
  });

  it('streams more rows than one batch, each exactly once', async () => {
    const fresh = await createTestApp();
    try {
      const who = await createArtist(fresh.db);
      const cookie = await fresh.signIn(await createAdmin(fresh.db));
      // Many rows on one timestamp: the keyset cursor must still neither skip nor repeat any.
      const at = new Date('2026-05-01T12:00:00.123Z');
      const rows = Array.from({ length: 2 * CSV_BATCH_ROWS + 300 }, (_, i) => ({
        id: `csv-${String(i).padStart(5, '0')}`,
        userId: who.id,
        submissionMethod: 'link' as const,
        releaseStatus: 'released' as const,
        artistName: 'Bulk',
        songTitle: `T${i}`,
        hasLyrics: false,
        aiUsage: false,
        videoStyle: 'non-custom' as const,
        pricingTier: 'free' as const,
        status: 'pending' as const,
        createdAt: i % 3 ? at : new Date(at.getTime() + i),
      }));
      for (let i = 0; i < rows.length; i += 500) await fresh.db.insert(submissions).values(rows.slice(i, i + 500));
      const res = await fresh.app.inject({ method: 'GET', url: '/api/admin/submissions.csv', headers: { cookie } });
      const ids = res.body.trim().split('\n').slice(1).map((l) => l.split(',')[0]);
      expect(ids).toHaveLength(rows.length);
      expect(new Set(ids).size).toBe(rows.length);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});

describe('review templates', () => {
  it('creates, lists, updates and deletes; names are unique regardless of case', async () => {
    const created = await call('POST', '/api/admin/review-templates', adminCookie, { name: 'Approve — strong', body: 'Hi {artistName}, "{songTitle}" is in.' });
    expect(created.statusCode, created.body).toBe(201);
    const template = created.json<ReviewTemplate>();
    expect(template).toMatchObject({ name: 'Approve — strong', body: 'Hi {artistName}, "{songTitle}" is in.' });
    expect((await call('POST', '/api/admin/review-templates', colleagueCookie, { name: 'approve — STRONG', body: 'x' })).statusCode).toBe(409);
    expect((await call('GET', '/api/admin/review-templates', colleagueCookie)).json<ReviewTemplate[]>().map((r) => r.id)).toContain(template.id);
    const updated = await call('PUT', `/api/admin/review-templates/${template.id}`, adminCookie, { name: 'Approve', body: 'Yes, {artistName}.' });
    expect(updated.json()).toMatchObject({ id: template.id, name: 'Approve', body: 'Yes, {artistName}.' });
    expect((await call('DELETE', `/api/admin/review-templates/${template.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/admin/review-templates/${template.id}`)).statusCode).toBe(404);
    expect((await call('PUT', `/api/admin/review-templates/${template.id}`, adminCookie, { name: 'a', body: 'b' })).statusCode).toBe(404);
  });

  it('refuses a blank name or body, and overlong ones (400)', async () => {
    for (const payload of [{ name: ' ', body: 'b' }, { name: 'n', body: '' }, { name: 'n'.repeat(81), body: 'b' }, { name: 'n', body: 'b'.repeat(5001) }, { name: 1, body: 'b' }]) {
      expect((await call('POST', '/api/admin/review-templates', adminCookie, payload)).statusCode).toBe(400);
    }
  });
});

describe('timestamped comments', () => {
  it('keeps internal comments from the artist and shows the visible ones in track order, without the author', async () => {
    const s = await makeSubmission();
    const post = (payload: object) => call('POST', `/api/admin/submissions/${s.id}/comments`, adminCookie, payload);
    const internal = await post({ atSeconds: 42, text: 'Drop is late' });
    expect(internal.statusCode, internal.body).toBe(201);
    expect(internal.json<TrackComment>()).toMatchObject({ atSeconds: 42, text: 'Drop is late', visibleToArtist: false, author: { id: admin.id, name: 'Lena Label' } });
    await post({ atSeconds: 90.5, text: 'Lovely bridge', visibleToArtist: true });
    await post({ atSeconds: 10, text: 'Nice intro', visibleToArtist: true });

    const team = await call('GET', `/api/admin/submissions/${s.id}/comments`, colleagueCookie);
    expect(team.json<TrackComment[]>().map((c) => c.atSeconds)).toEqual([10, 42, 90.5]);
    const mine = await call('GET', `/api/submissions/${s.id}/comments`, artistCookie);
    expect(mine.json<TrackComment[]>().map((c) => [c.atSeconds, c.text, c.author])).toEqual([
      [10, 'Nice intro', null],
      [90.5, 'Lovely bridge', null],
    ]);
    expect(mine.body).not.toContain('Drop is late');
  });

  it('refuses a negative or absurd moment, empty or huge text, and an unknown submission', async () => {
    const s = await makeSubmission();
    for (const payload of [{ atSeconds: -1, text: 'x' }, { atSeconds: 1e9, text: 'x' }, { atSeconds: 1, text: '  ' }, { atSeconds: 1, text: 'x'.repeat(1001) }, { atSeconds: '1', text: 'x' }]) {
      expect((await call('POST', `/api/admin/submissions/${s.id}/comments`, adminCookie, payload)).statusCode).toBe(400);
    }
    expect((await call('POST', '/api/admin/submissions/nope/comments', adminCookie, { atSeconds: 1, text: 'x' })).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/submissions/nope/comments')).statusCode).toBe(404);
  });
});

describe('waveform and listening', () => {
  async function uploadMusic(bytes: Buffer): Promise<string> {
    const issued = await call('POST', '/api/objects/upload', artistCookie);
    const url = new URL(issued.json().uploadURL);
    const put = await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { cookie: artistCookie, origin: TEST_ORIGIN, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(put.statusCode, put.body).toBe(200);
    const checked = await call('PUT', '/api/music-files', artistCookie, { musicFileURL: url.toString(), fileName: 'tone.wav' });
    expect(checked.statusCode, checked.body).toBe(200);
    return checked.json().objectPath;
  }

  /** The waveform, once the job queued by the upload check has computed it. */
  async function waveformOf(id: string) {
    return waitFor(
      async () => {
        const res = await call('GET', `/api/admin/submissions/${id}/waveform`);
        return res.statusCode !== 404 && res;
      },
      { timeoutMs: 30_000, what: 'the waveform to be computed' },
    );
  }

  it('computes the peaks of a WAV in a job queued when the upload is checked, and serves them to the team', async () => {
    const objectPath = await uploadMusic(toneWav(4));
    const uploadId = objectPath.slice(objectPath.lastIndexOf('/') + 1);
    expect(await rowsOf(sql`select 1 from pgboss.job where name = 'audio.peaks' and data->>'uploadId' = ${uploadId}`)).toHaveLength(1);
    const s = await makeSubmission({ submissionMethod: 'upload', musicUrl: null, musicFileUrl: objectPath });
    const res = await waveformOf(s.id);
    expect(res.statusCode, res.body).toBe(200);
    const { durationSeconds, peaks } = res.json<Waveform>();
    expect(durationSeconds).toBe(4);
    expect(peaks.length).toBeGreaterThan(20);
    expect(peaks.length).toBeLessThanOrEqual(WAVEFORM_POINTS);
    // Loud first half (~0.49 of full scale), silent second half.
    expect(Math.max(...peaks.slice(0, peaks.length / 2 - 1))).toBeCloseTo(16000 / 32768, 2);
    expect(Math.max(...peaks.slice(peaks.length / 2 + 1))).toBe(0);
  });

  it('answers 404 for a submission without an uploaded, decodable track', async () => {
    const s = await makeSubmission();
    expect((await call('GET', `/api/admin/submissions/${s.id}/waveform`)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/submissions/nope/waveform')).statusCode).toBe(404);
  });

  it('merges the team’s listened ranges into a covered share shown in the list', async () => {
    const objectPath = await uploadMusic(toneWav(10));
    const s = await makeSubmission({ submissionMethod: 'upload', musicUrl: null, musicFileUrl: objectPath });
    expect((await waveformOf(s.id)).statusCode).toBe(200);
    const listen = (from: number, to: number, cookie = adminCookie) => call('POST', `/api/admin/submissions/${s.id}/listening`, cookie, { from, to });
    expect((await listen(0, 3)).json()).toEqual({ listenedShare: 0.3 });
    expect((await listen(2, 5, colleagueCookie)).json()).toEqual({ listenedShare: 0.5 });
    // Past the end counts only to the end; a range already heard adds nothing.
    expect((await listen(8, 60)).json()).toEqual({ listenedShare: 0.7 });
    expect((await listen(1, 2)).json()).toEqual({ listenedShare: 0.7 });
    expect((await details(s.id)).desk.listenedShare).toBeCloseTo(0.7, 5);
    expect((await listen(5, 3)).statusCode).toBe(400);
  });

  it('answers 404 for listening to an unknown submission, and records nothing', async () => {
    const res = await call('POST', '/api/admin/submissions/no-such-submission/listening', adminCookie, { from: 0, to: 10, durationSeconds: 60 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'submission_not_found' });
    expect(await rowsOf(sql`select 1 from submission_desk where submission_id = 'no-such-submission'`)).toEqual([]);
  });

  it('measures a linked track against the duration the player reports', async () => {
    const s = await makeSubmission();
    const res = await call('POST', `/api/admin/submissions/${s.id}/listening`, adminCookie, { from: 0, to: 30, durationSeconds: 120 });
    expect(res.json()).toEqual({ listenedShare: 0.25 });
  });
});

describe('computePeaks', () => {
  it('reads a WAV split across many small chunks the same as whole', async () => {
    const wav = toneWav(2);
    const whole = await computePeaks(Readable.from([wav]), 'audio/wav', 100);
    const pieces = Array.from({ length: Math.ceil(wav.length / 7) }, (_, i) => wav.subarray(i * 7, i * 7 + 7));
    const chunked = await computePeaks(Readable.from(pieces), 'audio/wav', 100);
    expect(chunked).toEqual(whole);
    expect(whole!.peaks).toHaveLength(16); // 16,000 frames in blocks of 1,024: fewer blocks than points
  });

  it('answers null for bytes it cannot decode and for formats it does not read', async () => {
    expect(await computePeaks(Readable.from([Buffer.from('RIFF....WAVEjunk')]), 'audio/wav')).toBeNull();
    expect(await computePeaks(Readable.from([Buffer.from('not audio at all')]), 'audio/ogg')).toBeNull();
    expect(await computePeaks(Readable.from([Buffer.alloc(0)]), 'audio/mpeg')).toBeNull();
  });
});

describe('single-item routes', () => {
  it('assigns and tags one submission; refuses a non-admin assignee, bad tags and unknown ids', async () => {
    const s = await makeSubmission();
    expect((await call('PUT', `/api/admin/submissions/${s.id}/assignee`, adminCookie, { assigneeId: artist.id })).statusCode).toBe(400);
    expect((await call('PUT', `/api/admin/submissions/${s.id}/assignee`, adminCookie, { assigneeId: 'nobody' })).statusCode).toBe(400);
    expect((await call('PUT', '/api/admin/submissions/nope/assignee', adminCookie, { assigneeId: null })).statusCode).toBe(404);
    const tooMany = await call('PUT', `/api/admin/submissions/${s.id}/tags`, adminCookie, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors).toEqual([{ path: 'tags', message: 'A submission can have at most 20 tags' }]);
    expect((await details(s.id)).desk.tags).toEqual([]);
    // Twenty are fine.
    const twenty = Array.from({ length: TAGS_PER_SUBMISSION_MAX }, (_, i) => `t${i}`);
    expect((await call('PUT', `/api/admin/submissions/${s.id}/tags`, adminCookie, { tags: twenty })).json().desk.tags).toEqual(twenty);
    expect((await call('PUT', `/api/admin/submissions/${s.id}/tags`, adminCookie, { tags: 'hot' })).statusCode).toBe(400);
    const ok = await call('PUT', `/api/admin/submissions/${s.id}/assignee`, adminCookie, { assigneeId: admin.id });
    expect(ok.json().desk.assignee).toEqual({ id: admin.id, name: 'Lena Label' });
    const [row] = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, s.id), eq(submissionHistory.field, 'assignee')));
    expect(row).toMatchObject({ actorId: admin.id, fromValue: null, toValue: admin.id });
  });

  it('keeps the desk out of what the artist reads', async () => {
    const s = await makeSubmission();
    await call('PUT', `/api/admin/submissions/${s.id}/tags`, adminCookie, { tags: ['secret-tag'] });
    const res = await call('GET', `/api/submissions/${s.id}`, artistCookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('secret-tag');
    expect(res.json()).not.toHaveProperty('desk');
  });
});
