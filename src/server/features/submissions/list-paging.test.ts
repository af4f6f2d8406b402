import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Submission } from '@shared/submission-schemas';
import { SUBMISSIONS_PAGE_SIZE } from '@shared/submissions';
import { sessions, submissions, type UserRow } from '../../platform/db/schema';
import { createArtist, createSubmissionRow, createTestApp, linkSubmission, type TestApp } from '../../test/helpers';

/** GET /api/submissions paged newest first with a cursor, an ETag, and no writes (issue 16). */
let t: TestApp;
let artist: UserRow;
let cookie: string;
let otherCookie: string;
const TOTAL = SUBMISSIONS_PAGE_SIZE + 7;

beforeAll(async () => {
  t = await createTestApp();
  artist = await createArtist(t.db);
  const other = await createArtist(t.db);
  const start = Date.now() - TOTAL * 60_000;
  // Two of them share a creation time: the id breaks the tie, so no row is lost between pages.
  for (let i = 0; i < TOTAL; i++) {
    await createSubmissionRow(t.db, artist, { songTitle: `Song ${i}`, createdAt: new Date(start + Math.min(i, TOTAL - 2) * 60_000) });
  }
  await createSubmissionRow(t.db, other, { songTitle: 'Not yours' });
  cookie = await t.signIn(artist);
  otherCookie = await t.signIn(other);
});
afterAll(() => t.close());

const list = (query = '', headers: Record<string, string> = {}) =>
  t.app.inject({ url: `/api/submissions${query}`, headers: { cookie, ...headers } });

describe('paging', () => {
  it('answers the newest page by default and every row exactly once across pages, newest first', async () => {
    const first = await list();
    expect(first.statusCode).toBe(200);
    const firstPage = first.json<Submission[]>();
    expect(firstPage).toHaveLength(SUBMISSIONS_PAGE_SIZE);

    const seen: Submission[] = [];
    let before: string | undefined;
    for (;;) {
      const res = await list(`?limit=10${before ? `&before=${before}` : ''}`);
      expect(res.statusCode).toBe(200);
      const page = res.json<Submission[]>();
      seen.push(...page);
      if (page.length < 10) break;
      before = page.at(-1)!.id;
    }
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen.map((s) => s.id)).size).toBe(TOTAL);
    const times = seen.map((s) => s.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(seen.map((s) => s.id).slice(0, SUBMISSIONS_PAGE_SIZE)).toEqual(firstPage.map((s) => s.id));
    expect(seen.every((s) => s.userId === artist.id)).toBe(true);
  });

  it('refuses another artist’s submission, an unknown id and a bad limit as a cursor with 400', async () => {
    const mine = (await list('?limit=1')).json<Submission[]>()[0]!;
    const asOther = await t.app.inject({ url: `/api/submissions?before=${mine.id}`, headers: { cookie: otherCookie } });
    expect(asOther.statusCode).toBe(400);
    expect(asOther.json()).toMatchObject({ code: 'invalid_cursor' });
    for (const query of ['?before=no-such-id', '?limit=0', '?limit=101', '?limit=many', `?before=${'a'.repeat(70)}`]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
    }
  });

  it('writes only the fields of a submission: never the internal notes', async () => {
    await t.db.update(submissions).set({ adminNotes: 'internal only' }).where(eq(submissions.userId, artist.id));
    const res = await list('?limit=3');
    expect(res.body).not.toContain('internal only');
    expect(Object.keys(res.json<Submission[]>()[0]!)).not.toContain('adminNotes');
  });
});

describe('ETag', () => {
  it('answers 304 with no body while the page is unchanged, and 200 with a new tag once it changes', async () => {
    const first = await list();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    const again = await list('', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await list('', { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    expect((await list('', { 'if-none-match': '"something-else"' })).statusCode).toBe(200);

    const created = await t.call('POST', '/api/submissions', cookie, linkSubmission({ musicUrl: 'https://music.example/new', releaseStatus: 'released', artistName: 'New', songTitle: 'Brand new' }));
    expect(created.statusCode).toBe(201);
    const changed = await list('', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json<Submission[]>()[0]!.songTitle).toBe('Brand new');
  });

  it('is not shared between artists: another artist’s tag does not match', async () => {
    const mine = (await list()).headers.etag as string;
    const theirs = await t.app.inject({ url: '/api/submissions', headers: { cookie: otherCookie, 'if-none-match': mine } });
    expect(theirs.statusCode).toBe(200);
  });
});

describe('reads write nothing', () => {
  it('leaves the session row as it was on GET /api/user, /api/submissions and /api/stats', async () => {
    const before = await t.db.select().from(sessions).where(eq(sessions.userId, artist.id));
    for (const url of ['/api/user', '/api/submissions', '/api/stats', '/api/messages/conversations']) {
      expect((await t.app.inject({ url, headers: { cookie } })).statusCode, url).toBe(200);
    }
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, artist.id))).toEqual(before);
  });
});
