import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_PLAN_TEXT } from '@shared/plans';
import { SUBMISSION_MESSAGES } from '@shared/submission-schemas';
import { LICENSED_SUBMISSION_MESSAGE } from '@shared/submissions';
import { submissions, uploads, type UserRow } from '../../platform/db/schema';
import { waitFor } from '../../test/kit';
import { createAdmin, createArtist, createStoredUpload, createSubmissionRow, createTestApp, headers, linkSubmission, type Caller, type Method, type TestApp } from '../../test/helpers';

/** Finished videos, drafts, genre and mood, withdrawal and the "seen" marker (CONTRACT §12). */

let t: TestApp;
let artist: UserRow;
let admin: UserRow;
let cookie: string;
let otherCookie: string;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  artist = await createArtist(t.db, { artistName: 'Nova Black' });
  admin = await createAdmin(t.db);
  cookie = await t.signIn(artist);
  otherCookie = await t.signIn(await createArtist(t.db));
  adminCookie = await t.signIn(admin);
});
afterAll(() => t.close());

const call = (method: Method, url: string, as: Caller = cookie, payload?: unknown) => t.call(method, url, as, payload);
const upload = (kind: 'music' | 'image', as = cookie) => t.uploadFile(kind, as);

/** A checked video upload of the user, as PUT /api/video-files leaves it (that route is the files feature's). */
const videoUpload = async (owner: UserRow) =>
  (await createStoredUpload(t.db, owner, { size: 2048, contentType: 'video/mp4', fileName: 'final-cut.mp4' })).path;

const track = (overrides: Record<string, unknown> = {}) =>
  linkSubmission({ musicUrl: 'https://soundcloud.com/nova/dark-waves', artistName: 'Nova Black', songTitle: 'Dark Waves', ...overrides });

describe('finished videos and genre (POST /api/submissions)', () => {
  it('takes a finished video by link, without a video style, and keeps genre and mood', async () => {
    const res = await call('POST', '/api/submissions', cookie, {
      ...track({ musicUrl: null, videoStyle: undefined }),
      submissionType: 'video',
      videoUrl: 'https://vimeo.com/123456',
      genre: 'Darkwave',
      mood: 'Cold, nocturnal',
      styleReferenceUrls: [],
      creativeDirection: 'ignored for a finished video',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      submissionType: 'video',
      videoUrl: 'https://vimeo.com/123456',
      musicUrl: null,
      genre: 'Darkwave',
      mood: 'Cold, nocturnal',
      videoStyle: 'non-custom',
      creativeDirection: null,
      status: 'pending',
    });
  });

  it('takes a finished video by file: a checked video upload of the same user', async () => {
    const path = await videoUpload(artist);
    const res = await call('POST', '/api/submissions', cookie, {
      ...track({ musicUrl: null, submissionMethod: 'upload' }),
      submissionType: 'video',
      videoFileUrl: path,
    });
    expect(res.statusCode).toBe(201);
    const [file] = await t.db.select().from(uploads).where(eq(uploads.id, path.split('/').pop()!));
    expect(file!.submissionId).toBe(res.json().id);
  });

  it.each([
    ['a video without its link', { submissionType: 'video', musicUrl: null }, 'videoUrl', SUBMISSION_MESSAGES.videoUrl],
    ['a video with a music link besides', { submissionType: 'video', videoUrl: 'https://vimeo.com/1' }, 'musicUrl', SUBMISSION_MESSAGES.videoHasNoMusic],
    ['a video link that is not http(s)', { submissionType: 'video', musicUrl: null, videoUrl: 'javascript:alert(1)' }, 'videoUrl', SUBMISSION_MESSAGES.videoUrl],
    ['an unknown type', { submissionType: 'album' }, 'submissionType', 'Choose a track or a finished video'],
    ['a genre not on the list', { genre: 'Polka' }, 'genre', SUBMISSION_MESSAGES.genre],
    ['a mood over 100 characters', { mood: 'm'.repeat(101) }, 'mood', 'Must be at most 100 characters'],
    ['a track without a video style', { videoStyle: undefined }, 'videoStyle', 'Choose custom or non-custom'],
    // Decision 154: a finished video is published as it is; the paid plans buy work it does not need.
    ['a finished video on a paid plan', { submissionType: 'video', musicUrl: null, videoUrl: 'https://vimeo.com/1', pricingTier: 'basic' }, 'pricingTier', VIDEO_PLAN_TEXT],
  ])('refuses %s (400)', async (_name, overrides, path, message) => {
    const res = await call('POST', '/api/submissions', cookie, track(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ path, message });
  });

  it('refuses a music upload as the video file, and a video file as a track', async () => {
    const music = await upload('music');
    const asVideo = await call('POST', '/api/submissions', cookie, {
      ...track({ musicUrl: null, submissionMethod: 'upload' }),
      submissionType: 'video',
      videoFileUrl: music,
    });
    expect(asVideo.statusCode).toBe(400);
    expect(asVideo.json().errors).toContainEqual({ path: 'videoFileUrl', message: SUBMISSION_MESSAGES.objectPath });
  });

  it('refuses ticked lyrics left empty and a specific release date not given (400), and takes them filled in (issue 36)', async () => {
    const lyrics = await call('POST', '/api/submissions', cookie, track({ hasLyrics: true, lyrics: '   ' }));
    expect(lyrics.statusCode).toBe(400);
    expect(lyrics.json().message).toContain(SUBMISSION_MESSAGES.lyrics);
    const date = await call('POST', '/api/submissions', cookie, track({ releaseStatus: 'unreleased', releaseDateOption: 'specific', releaseDate: null }));
    expect(date.statusCode).toBe(400);
    expect(date.json().message).toContain(SUBMISSION_MESSAGES.releaseDate);
    const filled = await call('POST', '/api/submissions', cookie, track({ hasLyrics: true, lyrics: 'City lights', releaseStatus: 'unreleased', releaseDateOption: 'specific', releaseDate: '2030-01-01' }));
    expect(filled.statusCode).toBe(201);
    expect(filled.json()).toMatchObject({ lyrics: 'City lights', releaseDate: '2030-01-01' });
  });

  it('accepts every listed genre and Other', async () => {
    for (const genre of ['Other', 'Concentration / Focus Music (dark or moody tones)']) {
      const res = await call('POST', '/api/submissions', cookie, track({ genre }));
      expect(res.statusCode).toBe(201);
      expect(res.json().genre).toBe(genre);
    }
  });
});

describe('drafts', () => {
  it('needs a signed-in user for every draft route (401)', async () => {
    const draft = await createSubmissionRow(t.db, artist, { status: 'draft' });
    for (const [method, url] of [
      ['POST', '/api/submissions/drafts'],
      ['PATCH', `/api/submissions/${draft.id}`],
      ['POST', `/api/submissions/${draft.id}/submit`],
      ['POST', `/api/submissions/${draft.id}/seen`],
    ] as const) {
      expect((await call(method, url, null, {})).statusCode).toBe(401);
    }
  });

  it('saves any subset of the fields, each checked, and resumes with its files attached', async () => {
    const music = await upload('music');
    const created = await call('POST', '/api/submissions/drafts', cookie, { submissionMethod: 'upload', musicFileUrl: music, draftStep: 1 });
    expect(created.statusCode).toBe(201);
    const draft = created.json();
    expect(draft).toMatchObject({ status: 'draft', musicFileUrl: music, draftStep: 1, amount: null, songTitle: '' });

    const patched = await call('PATCH', `/api/submissions/${draft.id}`, cookie, { songTitle: 'Half Light', genre: 'Coldwave', draftStep: 3 });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ songTitle: 'Half Light', genre: 'Coldwave', draftStep: 3, musicFileUrl: music });

    const again = await call('GET', `/api/submissions/${draft.id}`);
    expect(again.json().files).toEqual([{ objectPath: music, fileName: 'night.mp3', size: expect.any(Number), contentType: 'audio/mpeg' }]);

    // An upload a draft refers to is attached, so the sweep of unattached uploads leaves it alone.
    await t.db.update(uploads).set({ createdAt: new Date(Date.now() - 48 * 3600_000) }).where(eq(uploads.id, music.split('/').pop()!));
    await t.app.jobs.run('maintenance.remove-unattached-uploads');
    expect(await t.db.select().from(uploads).where(eq(uploads.id, music.split('/').pop()!))).toHaveLength(1);
  });

  it('lets go of a file the draft no longer refers to', async () => {
    const art = await upload('image');
    const draft = (await call('POST', '/api/submissions/drafts', cookie, { artworkUrl: art })).json();
    await call('PATCH', `/api/submissions/${draft.id}`, cookie, { artworkUrl: null });
    const [file] = await t.db.select().from(uploads).where(eq(uploads.id, art.split('/').pop()!));
    expect(file!.submissionId).toBeNull();
  });

  it.each([
    ['a wrong type', { hasLyrics: 'yes' }],
    ['a step out of range', { draftStep: 9 }],
    ['a huge title', { songTitle: 'x'.repeat(5000) }],
    ['a foreign object path', { artworkUrl: '/objects/uploads/not-mine' }],
  ])('refuses %s with 400 and saves nothing', async (_name, body) => {
    const before = (await t.db.select().from(submissions).where(eq(submissions.userId, artist.id))).length;
    const res = await call('POST', '/api/submissions/drafts', cookie, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    expect((await t.db.select().from(submissions).where(eq(submissions.userId, artist.id))).length).toBe(before);
  });

  it('refuses another artist’s upload in a draft (400) and another artist’s draft (404)', async () => {
    const theirs = await upload('image', otherCookie);
    expect((await call('POST', '/api/submissions/drafts', cookie, { artworkUrl: theirs })).statusCode).toBe(400);
    const draft = (await call('POST', '/api/submissions/drafts', cookie, {})).json();
    expect((await call('PATCH', `/api/submissions/${draft.id}`, otherCookie, { songTitle: 'Mine now' })).statusCode).toBe(404);
    expect((await call('POST', `/api/submissions/${draft.id}/submit`, otherCookie, {})).statusCode).toBe(404);
    expect((await call('GET', `/api/submissions/${draft.id}`, otherCookie)).statusCode).toBe(404);
    // A NUL in the path is refused before any lookup (CONTRACT §9), whoever asks.
    expect((await call('PATCH', `/api/submissions/${encodeURIComponent(`${draft.id}\u0000`)}`, cookie, {})).statusCode).toBe(400);
  });

  it('submits under every rule of POST /api/submissions, then is no longer a draft (409)', async () => {
    const draft = (await call('POST', '/api/submissions/drafts', cookie, { submissionMethod: 'link', musicUrl: 'https://example.com/a' })).json();
    const incomplete = await call('POST', `/api/submissions/${draft.id}/submit`, cookie, {});
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'artistName', message: SUBMISSION_MESSAGES.artistName },
        { path: 'songTitle', message: SUBMISSION_MESSAGES.songTitle },
        { path: 'termsAccepted', message: SUBMISSION_MESSAGES.termsAccepted },
      ]),
    );
    // A refused submit keeps the draft and the changes sent with it.
    expect((await call('GET', `/api/submissions/${draft.id}`)).json().status).toBe('draft');

    const submitted = await call('POST', `/api/submissions/${draft.id}/submit`, cookie, {
      artistName: 'Nova Black',
      songTitle: 'Glass Tide',
      pricingTier: 'premium',
      termsAccepted: true,
    });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({ id: draft.id, status: 'payment_pending', paymentStatus: 'pending', amount: '99.00', draftStep: null });

    expect((await call('PATCH', `/api/submissions/${draft.id}`, cookie, { songTitle: 'Changed' })).statusCode).toBe(409);
    expect((await call('POST', `/api/submissions/${draft.id}/submit`, cookie, {})).statusCode).toBe(409);
  });

  it('submits a draft once when two submits arrive at the same moment', async () => {
    const draft = (await call('POST', '/api/submissions/drafts', cookie, track({ termsAccepted: true }))).json();
    const answers = await Promise.all([1, 2].map(() => call('POST', `/api/submissions/${draft.id}/submit`, cookie, {})));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('keeps drafts out of the stats, the admin list, the admin counts and the admin’s reach', async () => {
    const owner = await createArtist(t.db);
    const ownerCookie = await t.signIn(owner);
    const draft = (await call('POST', '/api/submissions/drafts', ownerCookie, { songTitle: 'Secret Sketch' })).json();
    await createSubmissionRow(t.db, owner, { songTitle: 'Public Track' });

    expect((await call('GET', '/api/stats', ownerCookie)).json().total).toBe(1);
    expect((await call('GET', '/api/submissions', ownerCookie)).json()).toHaveLength(2);

    const desk = (await call('GET', '/api/admin/submissions?q=Secret%20Sketch', adminCookie)).json();
    expect(desk.submissions).toHaveLength(0);
    const all = (await call('GET', '/api/admin/submissions?pageSize=100', adminCookie)).json();
    expect(all.submissions.some((s: { id: string }) => s.id === draft.id)).toBe(false);
    const drafts = (await t.db.select().from(submissions).where(eq(submissions.status, 'draft'))).length;
    const everything = (await t.db.select().from(submissions)).length;
    expect(all.stats.total).toBe(everything - drafts);

    expect((await call('GET', `/api/admin/submissions/${draft.id}`, adminCookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/submissions/${draft.id}`, adminCookie)).statusCode).toBe(404);
    const status = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/submissions/${draft.id}/status`,
      headers: headers(adminCookie),
      payload: { status: 'approved' },
    });
    expect(status.statusCode).toBe(404);
  });
});

describe('withdrawal by the licence (DELETE /api/submissions/{id})', () => {
  it.each(['approved', 'in_creation', 'completed'] as const)('refuses to delete a %s submission with 409 and the exact message', async (status) => {
    const row = await createSubmissionRow(t.db, artist, { status });
    const res = await call('DELETE', `/api/submissions/${row.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: LICENSED_SUBMISSION_MESSAGE, code: 'submission_licensed' });
    expect(await t.db.select().from(submissions).where(eq(submissions.id, row.id))).toHaveLength(1);
  });

  it.each(['draft', 'pending', 'under_review', 'payment_pending', 'payment_failed', 'rejected', 'archived'] as const)(
    'lets the artist delete a %s submission (204)',
    async (status) => {
      const row = await createSubmissionRow(t.db, artist, { status });
      expect((await call('DELETE', `/api/submissions/${row.id}`)).statusCode).toBe(204);
    },
  );

  it('still lets the team delete an approved submission', async () => {
    const row = await createSubmissionRow(t.db, artist, { status: 'approved' });
    expect((await call('DELETE', `/api/admin/submissions/${row.id}`, adminCookie)).statusCode).toBe(204);
  });
});

describe('what changed since the artist last looked (POST /api/submissions/{id}/seen)', () => {
  it('marks a submission the label reviewed until its owner opens it', async () => {
    const row = await createSubmissionRow(t.db, artist, { songTitle: 'Seen Test' });
    const find = async () =>
      ((await call('GET', '/api/submissions')).json() as { id: string; hasUnseenUpdate: boolean }[]).find((s) => s.id === row.id)!;
    expect((await find()).hasUnseenUpdate).toBe(false);

    const review = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/submissions/${row.id}/status`,
      headers: headers(adminCookie),
      payload: { status: 'under_review', review: 'Strong chorus; we are listening closely.' },
    });
    expect(review.statusCode).toBe(200);
    // The team's change reaches the artist's remembered list by its announcement (decision 143),
    // which may land a moment after the team's answer; the artist's own writes below need none.
    await waitFor(async () => (await find()).hasUnseenUpdate, { what: 'the review marked unseen' });

    expect((await call('POST', `/api/submissions/${row.id}/seen`, otherCookie)).statusCode).toBe(404);
    expect((await find()).hasUnseenUpdate).toBe(true);
    expect((await call('POST', `/api/submissions/${row.id}/seen`)).statusCode).toBe(204);
    expect((await find()).hasUnseenUpdate).toBe(false);
  });
});
