import { and, eq } from 'drizzle-orm';
import { readZip } from '../../test/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_REVIEW_REQUIRED, type SubmissionHistoryEntry } from '@shared/admin';
import type { TrackComment, Waveform } from '@shared/review-desk';
import type { Submission } from '@shared/submission-schemas';
import { MAX_NEW_VERSIONS } from '@shared/submissions';
import { VERSION_TEXTS, type SubmissionVersion } from '@shared/versions';
import { audioPeaks, outboxEmails, submissionHistory, submissions, trackComments, uploads, type UserRow } from '../../platform/db/schema';
import { createAdmin, createArtist, createStoredUpload, createSubmissionRow, createTestApp, linkSubmission, type Caller, type Method, type TestApp } from '../../test/helpers';

/** Revise and resubmit (CONTRACT §27, decision 197). */

let t: TestApp;
let admin: UserRow;
let adminCookie: string;
let artist: UserRow;
let artistCookie: string;
let other: UserRow;
let otherCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.db, { firstName: 'Lena', lastName: 'Label' });
  adminCookie = await t.signIn(admin);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  artistCookie = await t.signIn(artist);
  other = await createArtist(t.db, { artistName: 'Someone Else' });
  otherCookie = await t.signIn(other);
});
afterAll(() => t?.close());

const call = (method: Method, url: string, cookie: Caller, payload?: unknown) => t.call(method, url, cookie, payload);

const REVIEW = 'Lovely song, {artistName}! The vocals of "{songTitle}" are buried under the guitars: bring them up and send a new mix.';

/** A submission of the artist's whose music is an upload they made, as the wizard leaves it. */
async function uploadedSubmission(overrides: Partial<typeof submissions.$inferInsert> = {}) {
  const objectPath = await t.uploadFile('music', artistCookie);
  const row = await createSubmissionRow(t.db, artist, { submissionMethod: 'upload', musicUrl: null, musicFileUrl: objectPath, songTitle: 'Paper Lanterns', ...overrides });
  await t.db.update(uploads).set({ submissionId: row.id }).where(eq(uploads.id, objectPath.split('/').pop()!));
  return { row, objectPath };
}

const requestChanges = (id: string, review: string | null = REVIEW, cookie = adminCookie) =>
  call('PATCH', `/api/admin/submissions/${id}/status`, cookie, { status: 'changes_requested', review });

async function sendVersion(id: string, body: Record<string, unknown>, cookie: Caller = artistCookie) {
  return call('POST', `/api/submissions/${id}/versions`, cookie, body);
}

/** Asks for changes and answers them with a freshly uploaded file: the new version. */
async function newRound(id: string, note = 'Vocals up 3 dB, guitars tucked under'): Promise<SubmissionVersion> {
  expect((await requestChanges(id)).statusCode).toBe(200);
  const objectPath = await t.uploadFile('music', artistCookie);
  const res = await sendVersion(id, { objectPath, note });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const rowOf = async (id: string) => (await t.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;

describe('asking for changes', () => {
  it('needs a review saying what to change, and from pending or under review only', async () => {
    const { row } = await uploadedSubmission();
    const none = await requestChanges(row.id, null);
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual([{ path: 'review', message: CHANGES_REVIEW_REQUIRED }]);
    expect((await requestChanges(row.id, '   ')).statusCode).toBe(400);
    const bulk = await call('POST', '/api/admin/submissions/bulk', adminCookie, { ids: [row.id], action: 'status', status: 'changes_requested' });
    expect(bulk.statusCode).toBe(400);
    expect((await rowOf(row.id)).status).toBe('pending');

    const approved = await createSubmissionRow(t.db, artist, { status: 'approved' });
    expect((await requestChanges(approved.id)).statusCode).toBe(409);
    expect((await rowOf(approved.id)).status).toBe('approved');
    const underReview = await createSubmissionRow(t.db, artist, { status: 'under_review' });
    expect((await requestChanges(underReview.id)).statusCode).toBe(200);
  });

  it('sets Changes Requested with the review filled in, records why, and emails the artist what to change', async () => {
    const { row } = await uploadedSubmission();
    const res = await requestChanges(row.id);
    expect(res.statusCode, res.body).toBe(200);
    const filled = 'Lovely song, Nora Vex! The vocals of "Paper Lanterns" are buried under the guitars: bring them up and send a new mix.';
    expect(res.json()).toMatchObject({ status: 'changes_requested', adminReview: filled });
    const [status] = await t.db
      .select()
      .from(submissionHistory)
      .where(and(eq(submissionHistory.submissionId, row.id), eq(submissionHistory.field, 'status')));
    expect(status).toMatchObject({ fromValue: 'pending', toValue: 'changes_requested', reason: 'changes_requested', actorId: admin.id });
    const emails = await t.db.select().from(outboxEmails).where(eq(outboxEmails.userId, artist.id));
    const mine = emails.filter((e) => e.templateData.submissionId === row.id);
    expect(mine.map((e) => e.kind)).toEqual(['changes_requested']);
    expect(mine[0]!.templateData).toMatchObject({ songTitle: 'Paper Lanterns', review: filled, versionsLeft: MAX_NEW_VERSIONS });
    // The artist sees the new status on their own submission.
    expect((await call('GET', `/api/submissions/${row.id}`, artistCookie)).json<Submission>()).toMatchObject({ status: 'changes_requested', round: 1 });
  });
});

describe('a new version', () => {
  it('is the owner’s alone: signed out 401, another artist and the team 404', async () => {
    const { row } = await uploadedSubmission();
    await requestChanges(row.id);
    const url = 'https://soundcloud.com/nora-vex/paper-lanterns-v2';
    expect((await sendVersion(row.id, { url }, null)).statusCode).toBe(401);
    expect((await sendVersion(row.id, { url }, otherCookie)).statusCode).toBe(404);
    expect((await sendVersion(row.id, { url }, adminCookie)).statusCode).toBe(404);
    expect((await sendVersion('no-such-submission', { url })).statusCode).toBe(404);
    expect((await rowOf(row.id)).round).toBe(1);
  });

  it('answers 409 in any status but changes requested', async () => {
    for (const status of ['pending', 'under_review', 'approved', 'rejected', 'payment_pending'] as const) {
      const s = await createSubmissionRow(t.db, artist, { status });
      const res = await sendVersion(s.id, { url: 'https://example.com/v2' });
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toMatchObject({ code: 'changes_not_requested', message: VERSION_TEXTS.notRequested });
    }
  });

  it('refuses a body without exactly one source, and a file that is not the artist’s own fresh upload (400)', async () => {
    const { row, objectPath: first } = await uploadedSubmission();
    await requestChanges(row.id);
    expect((await sendVersion(row.id, { note: 'nothing' })).statusCode).toBe(400);
    const mine = await t.uploadFile('music', artistCookie);
    expect((await sendVersion(row.id, { objectPath: mine, url: 'https://example.com/v2' })).statusCode).toBe(400);
    expect((await sendVersion(row.id, { url: 'ftp://example.com/v2' })).statusCode).toBe(400);
    const theirs = await t.uploadFile('music', otherCookie);
    expect((await sendVersion(row.id, { objectPath: theirs })).statusCode).toBe(400);
    // The file already sent (round 1) is no new version; nor is an image.
    expect((await sendVersion(row.id, { objectPath: first })).statusCode).toBe(400);
    const image = await t.uploadFile('image', artistCookie);
    expect((await sendVersion(row.id, { objectPath: image })).statusCode).toBe(400);
    expect(await rowOf(row.id)).toMatchObject({ status: 'changes_requested', round: 1, musicFileUrl: first });
  });

  it('carries the payment over (nothing charged), raises the round, puts the current version on the row and keeps the first', async () => {
    const { row, objectPath: first } = await uploadedSubmission({
      pricingTier: 'premium',
      status: 'under_review',
      paymentStatus: 'succeeded',
      amount: '99.00',
      stripePaymentIntentId: `pi_revise_${Date.now()}`,
    });
    const before = await rowOf(row.id);
    const firstBytes = await call('GET', first, adminCookie);
    expect(firstBytes.statusCode).toBe(200);
    expect((await requestChanges(row.id)).statusCode).toBe(200);
    const objectPath = await t.uploadFile('music', artistCookie);
    const res = await sendVersion(row.id, { objectPath, note: 'New mix: vocals up, guitars down' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ round: 2, note: 'New mix: vocals up, guitars down', objectPath, url: null, current: true });

    const after = await rowOf(row.id);
    expect(after).toMatchObject({ status: 'pending', round: 2, musicFileUrl: objectPath, musicUrl: null, submissionMethod: 'upload' });
    // The payment carries over: not one payment field moved, and nothing is due.
    for (const field of ['pricingTier', 'amount', 'paymentStatus', 'stripePaymentIntentId', 'dueAt', 'refundReason'] as const) {
      expect(after[field], field).toEqual(before[field]);
    }
    // Round 1 is kept: its upload stays attached to the submission (so no sweep removes it) and its bytes are served unchanged.
    const [kept] = await t.db.select().from(uploads).where(eq(uploads.id, first.split('/').pop()!));
    expect(kept!.submissionId).toBe(row.id);
    const again = await call('GET', first, adminCookie);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(firstBytes.rawPayload)).toBe(true);

    // The history shows the round and the status back in the queue, by the artist.
    const history = (await call('GET', `/api/admin/submissions/${row.id}/history`, adminCookie)).json<SubmissionHistoryEntry[]>();
    expect(history.filter((h) => h.field === 'version').map((h) => [h.fromValue, h.toValue, h.actor?.id])).toEqual([['1', '2', artist.id]]);
    const [back] = await t.db
      .select()
      .from(submissionHistory)
      .where(and(eq(submissionHistory.submissionId, row.id), eq(submissionHistory.reason, 'resubmitted')));
    expect(back).toMatchObject({ fromValue: 'changes_requested', toValue: 'pending', actorId: artist.id });
    // The team hears of it on the desk.
    const activity = (await call('GET', '/api/admin/activity', adminCookie)).json<{ submissions: { submissionId: string; latestKind: string }[] }>();
    expect(activity.submissions.find((s) => s.submissionId === row.id)?.latestKind).toBe('new_version');
  });

  it('takes a link as a new version, the link replacing the file on the row', async () => {
    const { row, objectPath: first } = await uploadedSubmission();
    await requestChanges(row.id);
    const url = 'https://soundcloud.com/nora-vex/paper-lanterns-v2';
    const res = await sendVersion(row.id, { url });
    expect(res.statusCode, res.body).toBe(201);
    expect(await rowOf(row.id)).toMatchObject({ round: 2, musicUrl: url, musicFileUrl: null, submissionMethod: 'link' });
    const versions = (await call('GET', `/api/submissions/${row.id}/versions`, artistCookie)).json<SubmissionVersion[]>();
    expect(versions.map((v) => [v.round, v.objectPath, v.url, v.current])).toEqual([
      [1, first, null, false],
      [2, null, url, true],
    ]);
  });

  it(`allows ${MAX_NEW_VERSIONS} new versions (rounds 2 to 4); a fourth is refused with 409, and so is asking for one`, async () => {
    const { row } = await uploadedSubmission();
    for (let round = 2; round <= 1 + MAX_NEW_VERSIONS; round++) expect((await newRound(row.id)).round).toBe(round);
    const asked = await requestChanges(row.id);
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({ code: 'versions_exhausted', message: VERSION_TEXTS.limitReached });
    // Even in changes_requested (set before the rule, or by hand), no fifth round.
    await t.db.update(submissions).set({ status: 'changes_requested' }).where(eq(submissions.id, row.id));
    const fourth = await sendVersion(row.id, { url: 'https://example.com/v5' });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ code: 'versions_exhausted' });
    expect((await rowOf(row.id)).round).toBe(4);
    const versions = (await call('GET', `/api/submissions/${row.id}/versions`, adminCookie)).json<SubmissionVersion[]>();
    expect(versions.map((v) => v.round)).toEqual([1, 2, 3, 4]);
  });
});

describe('under attack', () => {
  it('takes one of two versions sent at the same moment; the other gets a 409 and changes nothing', async () => {
    const { row } = await uploadedSubmission();
    await requestChanges(row.id);
    const both = await Promise.all([
      sendVersion(row.id, { url: 'https://example.com/mix-a' }),
      sendVersion(row.id, { url: 'https://example.com/mix-b' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await rowOf(row.id)).toMatchObject({ round: 2, status: 'pending' });
    const versions = (await call('GET', `/api/submissions/${row.id}/versions`, artistCookie)).json<SubmissionVersion[]>();
    expect(versions.map((v) => v.round)).toEqual([1, 2]);
  });

  it('answers NUL, a huge note and wrong types with a 400, and a bad id with a 4xx', async () => {
    const { row } = await uploadedSubmission();
    await requestChanges(row.id);
    for (const body of [{ url: 'https://example.com/a\u0000b' }, { url: 'https://example.com/v2', note: 'x'.repeat(100_000) }, { url: 12 }, { objectPath: ['a'] }, { url: 'https://example.com/v2', note: { a: 1 } }]) {
      expect((await sendVersion(row.id, body)).statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect([400, 404]).toContain((await sendVersion(encodeURIComponent('a\u0000b'), { url: 'https://example.com/v2' })).statusCode);
    expect([400, 404]).toContain((await sendVersion('x'.repeat(5000), { url: 'https://example.com/v2' })).statusCode);
    expect((await rowOf(row.id)).round).toBe(1);
  });
});

describe('the versions list', () => {
  it('records round 1 when a submission goes to the label, for the owner and the team; anyone else 404', async () => {
    const res = await call('POST', '/api/submissions', artistCookie, linkSubmission({ songTitle: 'Salt Roads', musicUrl: 'https://example.com/salt-roads' }));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<Submission>().id;
    const expected = [{ round: 1, note: null, fileName: null, url: 'https://example.com/salt-roads', objectPath: null, current: true }];
    const own = await call('GET', `/api/submissions/${id}/versions`, artistCookie);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject(expected);
    expect((await call('GET', `/api/submissions/${id}/versions`, adminCookie)).json()).toMatchObject(expected);
    expect((await call('GET', `/api/submissions/${id}/versions`, otherCookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/submissions/${id}/versions`, null)).statusCode).toBe(401);
  });

  it('names an uploaded version’s file', async () => {
    const upload = await createStoredUpload(t.db, artist, { fileName: 'paper-lanterns-mix2.mp3' });
    const { row } = await uploadedSubmission();
    await requestChanges(row.id);
    expect((await sendVersion(row.id, { objectPath: upload.path })).json()).toMatchObject({ round: 2, fileName: 'paper-lanterns-mix2.mp3' });
  });
});

describe('the account export', () => {
  it('lists every version and packs every version’s file, the earlier ones included', async () => {
    const singer = await createArtist(t.db, { artistName: 'Ivy Marlowe' });
    const cookie = await t.signIn(singer);
    const first = await t.uploadFile('music', cookie);
    const row = await createSubmissionRow(t.db, singer, { submissionMethod: 'upload', musicUrl: null, musicFileUrl: first, songTitle: 'Glass Harbour' });
    await t.db.update(uploads).set({ submissionId: row.id }).where(eq(uploads.id, first.split('/').pop()!));
    expect((await requestChanges(row.id)).statusCode).toBe(200);
    const second = await t.uploadFile('music', cookie);
    expect((await sendVersion(row.id, { objectPath: second, note: 'Warmer master' }, cookie)).statusCode).toBe(201);

    const res = await call('GET', '/api/account/export', cookie);
    expect(res.statusCode).toBe(200);
    const zip = await readZip(res.rawPayload);
    const account = JSON.parse(zip.get('account.json')!.toString()) as { versions: { submissionId: string; round: number; note: string | null; path: string | null }[] };
    const versions = account.versions.filter((v) => v.submissionId === row.id);
    expect(versions.map((v) => [v.round, v.note])).toEqual([
      [1, null],
      [2, 'Warmer master'],
    ]);
    for (const [i, path] of [first, second].entries()) {
      const entry = versions[i]!.path!;
      expect(entry.startsWith(`files/${path.split('/').pop()!}-`)).toBe(true);
      expect(zip.has(entry)).toBe(true);
    }
  });
});

describe('comments and waveforms by round', () => {
  it('keeps a comment on round 1 on round 1; new comments go to the current round unless one is named', async () => {
    const { row, objectPath: first } = await uploadedSubmission();
    const comment = (body: Record<string, unknown>) => call('POST', `/api/admin/submissions/${row.id}/comments`, adminCookie, body);
    const early = await comment({ atSeconds: 72, text: 'Vocals buried here', visibleToArtist: true });
    expect(early.json<TrackComment>().round).toBe(1);
    const v2 = await newRound(row.id);
    expect(v2.round).toBe(2);
    const later = await comment({ atSeconds: 72, text: 'Much better now', visibleToArtist: true });
    expect(later.json<TrackComment>().round).toBe(2);
    const onFirst = await comment({ atSeconds: 10, text: 'The intro was nicer here', round: 1 });
    expect(onFirst.json<TrackComment>().round).toBe(1);
    expect((await comment({ atSeconds: 10, text: 'No such round', round: 3 })).statusCode).toBe(400);

    const team = (await call('GET', `/api/admin/submissions/${row.id}/comments`, adminCookie)).json<TrackComment[]>();
    expect(team.map((c) => [c.round, c.text])).toEqual([
      [1, 'The intro was nicer here'],
      [1, 'Vocals buried here'],
      [2, 'Much better now'],
    ]);
    const stored = await t.db.select().from(trackComments).where(eq(trackComments.id, early.json<TrackComment>().id));
    expect(stored[0]!.round).toBe(1);
    const artistSees = (await call('GET', `/api/submissions/${row.id}/comments`, artistCookie)).json<TrackComment[]>();
    expect(artistSees.map((c) => [c.round, c.text])).toEqual([
      [1, 'Vocals buried here'],
      [2, 'Much better now'],
    ]);

    // Each round's waveform: round 1's own upload, the current one by default.
    const idOf = (path: string) => path.split('/').pop()!;
    for (const [path, durationSeconds] of [[first, 180], [v2.objectPath!, 184]] as const) {
      await t.db
        .insert(audioPeaks)
        .values({ uploadId: idOf(path), durationSeconds, peaks: [0.1, 0.2] })
        .onConflictDoUpdate({ target: audioPeaks.uploadId, set: { durationSeconds } });
    }
    const wave = async (query: string) => (await call('GET', `/api/admin/submissions/${row.id}/waveform${query}`, adminCookie)).json<Waveform>();
    expect((await wave('?round=1')).durationSeconds).toBe(180);
    expect((await wave('?round=2')).durationSeconds).toBe(184);
    expect((await wave('')).durationSeconds).toBe(184);
    expect((await call('GET', `/api/admin/submissions/${row.id}/waveform?round=9`, adminCookie)).statusCode).toBe(400);
    expect((await call('GET', `/api/admin/submissions/${row.id}/waveform?round=3`, adminCookie)).statusCode).toBe(404);
  });
});
