import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_CONVERSATION_ID, type ConversationsPage } from '@shared/messages';
import type { Submission } from '@shared/submission-schemas';
import type { UserRow } from '../platform/db/schema';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, TEST_ORIGIN, type TestApp } from '../test/helpers';
import { snapshotDatabase } from './attack-support';

/**
 * The paged reads of issue 16 under attack: GET /api/submissions?before=&limit= and
 * GET /api/messages/conversations?cursor=&limit=. Signed out, another artist's cursor, NUL,
 * huge and wrongly typed parameters, a replayed session after sign-out, the same request twice
 * at once, and percent-encoded paths. Always a 4xx or the caller's own rows; never a write.
 */
let t: TestApp;
let artist: UserRow;
let victim: UserRow;
let admin: UserRow;
let artistCookie: string;
let victimCookie: string;
let adminCookie: string;
let victimSubmissionId: string;
let victimCursor: string;

beforeAll(async () => {
  t = await createTestApp();
  artist = await createArtist(t.db);
  victim = await createArtist(t.db, { artistName: 'Victim' });
  admin = await createAdmin(t.db);
  artistCookie = await t.signIn(artist);
  victimCookie = await t.signIn(victim);
  adminCookie = await t.signIn(admin);
  await createSubmissionRow(t.db, artist, { songTitle: 'Mine' });
  victimSubmissionId = (await createSubmissionRow(t.db, victim, { songTitle: 'Secret song' })).id;
  for (const [from, to] of [
    [adminCookie, victim.id],
    [adminCookie, artist.id],
  ] as const) {
    await t.call('POST', '/api/messages', from, { toUserId: to, content: 'Private words' });
  }
  const adminPage = await t.app.inject({ url: '/api/messages/conversations?limit=1', headers: { cookie: adminCookie } });
  victimCursor = adminPage.json<ConversationsPage>().nextCursor!;
});
afterAll(() => t?.close());

const get = (url: string, cookie?: string) => t.call('GET', url, cookie);

describe('paged reads under attack', () => {
  it('answer 401 signed out, on every spelling of the path', async () => {
    for (const url of ['/api/submissions?limit=5', '/api/messages/conversations', '/api/%73ubmissions', '/api/messages/%63onversations']) {
      expect((await get(url)).statusCode, url).toBe(401);
    }
  });

  it('never page into another artist’s rows: their submission as cursor is refused, their conversations never listed', async () => {
    const res = await get(`/api/submissions?before=${victimSubmissionId}`, artistCookie);
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('Secret song');
    // The admin's cursor used by an artist pages the artist's own list only.
    const stolen = await get(`/api/messages/conversations?cursor=${victimCursor}`, artistCookie);
    expect([200, 400]).toContain(stolen.statusCode);
    if (stolen.statusCode === 200) {
      for (const c of stolen.json<ConversationsPage>().conversations) expect(c.user.id).not.toBe(victim.id);
    }
    const own = await get('/api/messages/conversations', victimCookie);
    // The artist's one conversation is with the label team (CONTRACT §18).
    expect(own.json<ConversationsPage>().conversations.map((c) => c.user.id)).toEqual([TEAM_CONVERSATION_ID]);
  });

  it('answer NUL, huge and wrongly typed parameters with a 4xx {message, code}', async () => {
    const huge = 'x'.repeat(100_000);
    const bad = [
      '?before=%00',
      `?before=${huge}`,
      '?limit=%00',
      '?limit=1e400',
      '?limit=-1',
      '?limit=1&limit=2',
    ];
    for (const query of bad) {
      const res = await get(`/api/submissions${query}`, artistCookie);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.json(), query).toHaveProperty('code');
    }
    for (const query of ['?cursor=%00', `?cursor=${huge}`, '?limit=abc', `?cursor=${Buffer.from(`["2026-01-01 00:00:00+00","${'\u0000'}"]`).toString('base64url')}`, `?cursor=${Buffer.from('{"a":1}').toString('base64url')}`]) {
      const res = await get(`/api/messages/conversations${query}`, artistCookie);
      expect(res.statusCode, query).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, query).toBeLessThan(500);
      expect(res.json(), query).toHaveProperty('code');
    }
  });

  it('ignore unknown (bracketed) parameters, as every route does', async () => {
    for (const url of ['/api/submissions?limit[]=1&before[]=a', '/api/messages/conversations?cursor[]=x']) {
      expect((await get(url, artistCookie)).statusCode, url).toBe(200);
    }
  });

  it('refuse a session replayed after sign-out', async () => {
    const cookie = await t.signIn(artist);
    expect((await get('/api/submissions', cookie)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: TEST_ORIGIN } });
    expect(out.statusCode).toBeLessThan(400);
    expect((await get('/api/submissions', cookie)).statusCode).toBe(401);
    expect((await get('/api/messages/conversations', cookie)).statusCode).toBe(401);
  });

  it('answer the same request twice at once with the same bytes and ETag, writing nothing', async () => {
    const before = await snapshotDatabase(t.db);
    const [a, b] = await Promise.all([get('/api/submissions', artistCookie), get('/api/submissions', artistCookie)]);
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.json<Submission[]>().map((s) => s.songTitle)).toEqual(['Mine']);
    const [c, d] = await Promise.all([get('/api/messages/conversations', adminCookie), get('/api/messages/conversations', adminCookie)]);
    expect(c.body).toBe(d.body);
    expect(await snapshotDatabase(t.db)).toEqual(before);
  });
});
