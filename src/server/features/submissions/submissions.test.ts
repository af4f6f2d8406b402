import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '@shared/submission-schemas';
import { submissions, uploads, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createTestApp, headers, linkSubmission as submissionBody, TEST_ORIGIN, type TestApp } from '../../test/helpers';

let t: TestApp;
let artist: UserRow;
let cookie: string;
let otherCookie: string;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  artist = await createArtist(t.db, { artistName: 'Nova Black' });
  cookie = await t.signIn(artist);
  otherCookie = await t.signIn(await createArtist(t.db));
  adminCookie = await t.signIn(await createAdmin(t.db));
});
afterAll(() => t.close());

const upload = (kind: 'music' | 'image', as = cookie) => t.uploadFile(kind, as);

const linkSubmission = (overrides: Record<string, unknown> = {}) =>
  submissionBody({ musicUrl: 'https://soundcloud.com/nova/dark-waves', releaseDateOption: 'asap', artistName: 'Nova Black', songTitle: 'Dark Waves', ...overrides });

const create = (payload: object, as = cookie) => t.call('POST', '/api/submissions', as, payload);

const idOf = (objectPath: string) => objectPath.split('/').pop()!;

describe('POST /api/submissions', () => {
  it('needs a signed-in user (401)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/submissions', payload: linkSubmission() });
    expect(res.statusCode).toBe(401);
  });

  it('creates a free submission as pending, amount 0.00, without internal notes', async () => {
    const res = await create(linkSubmission());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      userId: artist.id,
      pricingTier: 'free',
      status: 'pending',
      amount: '0.00',
      paymentStatus: null,
      songTitle: 'Dark Waves',
      musicUrl: 'https://soundcloud.com/nova/dark-waves',
      styleReferenceUrls: [],
      publishOnYoutube: true,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect(body).not.toHaveProperty('adminNotes');
  });

  it.each([
    ['basic', '49.00'],
    ['premium', '99.00'],
    ['professional', '199.00'],
  ])('creates a %s submission awaiting payment of %s', async (pricingTier, amount) => {
    const res = await create(linkSubmission({ pricingTier }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ pricingTier, amount, status: 'payment_pending', paymentStatus: 'pending' });
  });

  it('ignores server-set fields sent by the client', async () => {
    const res = await create(
      linkSubmission({
        id: 'mine',
        userId: 'someone-else',
        status: 'approved',
        amount: '0.01',
        paymentStatus: 'succeeded',
        stripePaymentIntentId: 'pi_fake',
        adminNotes: 'hello',
        adminReview: 'great',
        createdAt: '2000-01-01T00:00:00.000Z',
        pricingTier: 'premium',
      }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ userId: artist.id, status: 'payment_pending', amount: '99.00', paymentStatus: 'pending', stripePaymentIntentId: null, adminReview: null });
    expect(body.id).not.toBe('mine');
    expect(body.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, body.id));
    expect(row!.adminNotes).toBeNull();
  });

  it.each([
    ['artistName', { artistName: undefined }, SUBMISSION_MESSAGES.artistName],
    ['artistName', { artistName: '   ' }, SUBMISSION_MESSAGES.artistName],
    ['songTitle', { songTitle: '' }, SUBMISSION_MESSAGES.songTitle],
    ['songTitle', { songTitle: undefined }, SUBMISSION_MESSAGES.songTitle],
    ['termsAccepted', { termsAccepted: false }, SUBMISSION_MESSAGES.termsAccepted],
    ['termsAccepted', { termsAccepted: undefined }, SUBMISSION_MESSAGES.termsAccepted],
    ['submissionMethod', { submissionMethod: 'email' }, 'Choose link or upload'],
    ['releaseStatus', { releaseStatus: 'maybe' }, 'Choose released or unreleased'],
    ['videoStyle', { videoStyle: 'fancy' }, 'Choose custom or non-custom'],
    ['pricingTier', { pricingTier: 'gold' }, 'Choose a plan: free, basic, premium or professional'],
    ['musicUrl', { musicUrl: '' }, SUBMISSION_MESSAGES.musicUrl],
    ['musicUrl', { musicUrl: 'javascript:alert(1)' }, SUBMISSION_MESSAGES.musicUrl],
    ['musicFileUrl', { submissionMethod: 'upload', musicUrl: null }, SUBMISSION_MESSAGES.musicFile],
    ['artworkUrl', { artworkUrl: '/objects/uploads/../../etc/passwd' }, SUBMISSION_MESSAGES.objectPath],
    ['styleReferenceUrls', { styleReferenceUrls: Array(13).fill('/objects/uploads/abc') }, SUBMISSION_MESSAGES.tooManyStyleImages],
    ['characterImageUrls', { characterImageUrls: Array(13).fill('/objects/uploads/abc') }, SUBMISSION_MESSAGES.tooManyCharacterImages],
    ['artistName', { artistName: 'x'.repeat(201) }, 'Artist name must be at most 200 characters'],
    ['description', { description: 'x'.repeat(5001) }, 'Must be at most 5000 characters'],
    ['releaseDate', { releaseDate: '31/12/2025' }, 'Release date must be a date (YYYY-MM-DD)'],
  ])('answers a bad %s with 400 and its message (%#)', async (field, override, message) => {
    const res = await create(linkSubmission(override));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors).toContainEqual({ path: field, message });
  });

  it('answers 400 to malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: { ...headers(cookie), 'content-type': 'application/json' },
      payload: '{"songTitle":',
    });
    expect(res.statusCode).toBe(400);
  });

  it('attaches the user’s own checked files to an upload submission', async () => {
    const music = await upload('music');
    const artwork = await upload('image');
    const styles = [await upload('image'), await upload('image')];
    const character = await upload('image');
    const res = await create(
      linkSubmission({
        submissionMethod: 'upload',
        musicUrl: null,
        musicFileUrl: music,
        artworkUrl: artwork,
        videoStyle: 'custom',
        styleReferenceUrls: styles,
        characterImageUrls: [character],
        creativeDirection: 'Foggy forest at dusk',
      }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ musicFileUrl: music, artworkUrl: artwork, styleReferenceUrls: styles, characterImageUrls: [character] });
    const ids = [music, artwork, ...styles, character].map(idOf);
    const rows = await t.db.select().from(uploads).where(inArray(uploads.id, ids));
    expect(rows.map((r) => r.submissionId)).toEqual(ids.map(() => body.id));
  });

  it.each([
    ['another user’s file', async () => ({ artworkUrl: await upload('image', otherCookie) }), 'artworkUrl'],
    ['an upload never checked', async () => {
      const issued = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: headers(cookie) });
      return { artworkUrl: `/objects/uploads/${idOf(new URL(issued.json().uploadURL).pathname)}` };
    }, 'artworkUrl'],
    ['a path that is no upload', async () => ({ styleReferenceUrls: ['/objects/uploads/does-not-exist'] }), 'styleReferenceUrls.0'],
    ['an image as the music file', async () => ({ submissionMethod: 'upload', musicFileUrl: await upload('image') }), 'musicFileUrl'],
    ['music as artwork', async () => ({ artworkUrl: await upload('music') }), 'artworkUrl'],
  ])('refuses %s (400) and creates nothing', async (_name, files, field) => {
    const before = await t.db.$count(submissions, eq(submissions.userId, artist.id));
    const res = await create(linkSubmission(await files()));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: SUBMISSION_MESSAGES.objectPath, errors: [{ path: field, message: SUBMISSION_MESSAGES.objectPath }] });
    expect(await t.db.$count(submissions, eq(submissions.userId, artist.id))).toBe(before);
  });

  it('refuses a file already attached to another submission, and leaves a refused file unattached', async () => {
    const artwork = await upload('image');
    expect((await create(linkSubmission({ artworkUrl: artwork }))).statusCode).toBe(201);
    expect((await create(linkSubmission({ artworkUrl: artwork }))).statusCode).toBe(400);

    const fresh = await upload('image');
    const res = await create(linkSubmission({ artworkUrl: fresh, styleReferenceUrls: ['/objects/uploads/missing'] }));
    expect(res.statusCode).toBe(400);
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, idOf(fresh)));
    expect(row!.submissionId).toBeNull();
  });
});

describe('GET /api/submissions and /api/submissions/{id}', () => {
  let ownerCookie: string;
  let ids: string[];
  beforeAll(async () => {
    const owner = await createArtist(t.db);
    ownerCookie = await t.signIn(owner);
    ids = [];
    for (const songTitle of ['First', 'Second', 'Third']) {
      ids.push((await create(linkSubmission({ songTitle }), ownerCookie)).json().id);
    }
    await t.db.update(submissions).set({ adminNotes: 'internal: do not show' }).where(eq(submissions.id, ids[0]!));
  });

  it('lists the caller’s own submissions, newest first, without internal notes', async () => {
    const res = await t.app.inject({ url: '/api/submissions', headers: { cookie: ownerCookie } });
    expect(res.statusCode).toBe(200);
    // Kept by the browser only to revalidate with its ETag (list-paging.test.ts).
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const list = res.json() as { id: string; songTitle: string }[];
    expect(list.map((s) => s.songTitle)).toEqual(['Third', 'Second', 'First']);
    expect(res.payload).not.toContain('adminNotes');
    expect(res.payload).not.toContain('do not show');

    const others = await t.app.inject({ url: '/api/submissions', headers: { cookie: otherCookie } });
    expect((others.json() as { id: string }[]).some((s) => ids.includes(s.id))).toBe(false);
  });

  it('shows one to its owner and to admins, never with internal notes', async () => {
    for (const as of [ownerCookie, adminCookie]) {
      const res = await t.app.inject({ url: `/api/submissions/${ids[0]}`, headers: { cookie: as } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: ids[0], songTitle: 'First' });
      expect(res.json()).not.toHaveProperty('adminNotes');
    }
  });

  it('answers 404 to other artists and unknown ids, 401 signed out', async () => {
    expect((await t.app.inject({ url: `/api/submissions/${ids[0]}`, headers: { cookie: otherCookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/submissions/not-an-id', headers: { cookie: ownerCookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/submissions/${ids[0]}` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/submissions' })).statusCode).toBe(401);
  });
});

describe('DELETE /api/submissions/{id}', () => {
  it('is 404 for other artists and admins here, 401 signed out', async () => {
    const id = (await create(linkSubmission())).json().id;
    const del = (as?: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/submissions/${id}`, headers: as ? headers(as) : { origin: TEST_ORIGIN } });
    expect((await del(otherCookie)).statusCode).toBe(404);
    expect((await del(adminCookie)).statusCode).toBe(404);
    expect((await del()).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/submissions/${id}`, headers: { cookie } })).statusCode).toBe(200);
  });

  it('removes the submission and its files, rows and bytes (204)', async () => {
    const music = await upload('music');
    const artwork = await upload('image');
    const id = (await create(linkSubmission({ submissionMethod: 'upload', musicFileUrl: music, artworkUrl: artwork }))).json().id;
    const objectsDir = path.join(t.config.dataDir, 'objects', 'uploads');
    expect(existsSync(path.join(objectsDir, idOf(music)))).toBe(true);

    const res = await t.app.inject({ method: 'DELETE', url: `/api/submissions/${id}`, headers: headers(cookie) });
    expect(res.statusCode).toBe(204);
    expect(res.payload).toBe('');
    expect((await t.app.inject({ url: `/api/submissions/${id}`, headers: { cookie } })).statusCode).toBe(404);
    for (const file of [music, artwork]) {
      expect(await t.db.select().from(uploads).where(eq(uploads.id, idOf(file)))).toEqual([]);
      expect(existsSync(path.join(objectsDir, idOf(file)))).toBe(false);
      expect((await t.app.inject({ url: file, headers: { cookie } })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'DELETE', url: `/api/submissions/${id}`, headers: headers(cookie) })).statusCode).toBe(404);
  });
});

describe('GET /api/stats', () => {
  it('counts the caller’s submissions by status', async () => {
    const someone = await createArtist(t.db);
    const as = await t.signIn(someone);
    expect((await t.app.inject({ url: '/api/stats', headers: { cookie: as } })).json()).toEqual({
      total: 0,
      approved: 0,
      underReview: 0,
      completed: 0,
    });
    // A published video is a completed one that went further: "Completed" counts it (DASHBOARD_FILTER_STATUSES).
    const statuses = ['approved', 'approved', 'under_review', 'completed', 'published', 'pending', 'rejected', 'payment_pending'] as const;
    for (const status of statuses) {
      const id = (await create(linkSubmission(), as)).json().id;
      await t.db.update(submissions).set({ status }).where(eq(submissions.id, id));
    }
    await create(linkSubmission(), otherCookie);
    const res = await t.app.inject({ url: '/api/stats', headers: { cookie: as } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ total: 8, approved: 2, underReview: 1, completed: 2 });
  });

  it('needs a signed-in user (401)', async () => {
    expect((await t.app.inject({ url: '/api/stats' })).statusCode).toBe(401);
  });
});
