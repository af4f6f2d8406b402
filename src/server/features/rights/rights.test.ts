import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../../test/kit';
import type { Agreement, RightsState, SigningLinkView } from '@shared/rights';
import { agreementSignatures, agreements, outboxEmails, submissionHistory, submissions, type UserRow } from '../../platform/db/schema';
import { extractText } from 'unpdf';
import { renderAgreementPdf, renderAllowlistLetter } from '../../domain/submission/agreement-pdf';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, linkSubmission, type TestApp } from '../../test/helpers';
import { sentTo, type ReceivedEmail } from '../../test/smtp-test-server';
import { startYouTubeStub, type YouTubeStub } from '../../test/youtube-stub';

const DAY = 24 * 60 * 60 * 1000;
/** The product's clock, moved by the tests. */
let clockOffsetMs = 0;
const clock = () => new Date(Date.now() + clockOffsetMs);

let t: TestApp;
let youtube: YouTubeStub;
let admin: UserRow;
let artist: UserRow;
let other: UserRow;

beforeAll(async () => {
  youtube = await startYouTubeStub({ subscribers: 12_000 });
  t = await createTestApp(
    { LABEL_LEGAL_NAME: 'Midnight Records Ltd', YOUTUBE_API_KEY: youtube.apiKey, YOUTUBE_CHANNEL_ID: youtube.channelId, YOUTUBE_API_URL: youtube.url },
    { smtp: true, clock },
  );
  admin = await createAdmin(t.db);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
  other = await createArtist(t.db);
});
afterAll(async () => {
  await t?.close();
  await youtube?.close();
});

/** A submission's body by Nora Vex. */
const song = (extra: Record<string, unknown> = {}) => linkSubmission({ artistName: 'Nora Vex', ...extra });

const OWNERS = [
  { name: 'Nora Vex', role: 'artist', share: 50 },
  { name: 'Sam Writer', email: 'sam.writer@example.com', role: 'writer', share: 30 },
  { name: 'Pia Producer', email: 'pia.producer@example.com', role: 'producer', share: 20 },
];

/** A submission sent with `owners`, approved by the team. */
async function approvedWith(owners: object[] = OWNERS, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/submissions', artist, song({ owners, ...extra }));
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  const approved = await t.call('PATCH', `/api/admin/submissions/${id}/status`, admin, { status: 'approved' });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

/** The signing link in the email to `address` about `songTitle`; its token. */
async function signingToken(address: string): Promise<string> {
  const email: ReceivedEmail = await t.smtp.waitFor(sentTo(address));
  const token = /\/sign\/([A-Za-z0-9_-]+)/.exec(email.mail.text ?? '')?.[1];
  expect(token).toBeTruthy();
  return token!;
}

describe('owners (CONTRACT §22)', () => {
  it('takes a split sheet with the submission; the artist alone at 100% by default', async () => {
    const sole = await t.call('POST', '/api/submissions', artist, song());
    expect(sole.json().owners).toEqual([{ name: 'Nora Vex', email: null, role: 'artist', share: 100 }]);
    const split = await t.call('POST', '/api/submissions', artist, song({ owners: OWNERS, contentId: 'yes', distributor: 'DistroKid', isrc: 'us-rc1-76-07839' }));
    expect(split.statusCode).toBe(201);
    expect(split.json()).toMatchObject({ contentId: 'yes', distributor: 'DistroKid', isrc: 'USRC17607839' });
    expect(split.json().owners.map((o: { share: number }) => o.share)).toEqual([50, 30, 20]);
  });

  it('refuses shares that do not add up to 100, no owner, more than 10, a bad ISRC, with 400', async () => {
    const refused = async (body: Record<string, unknown>) => (await t.call('POST', '/api/submissions', artist, song(body))).json();
    expect(await refused({ owners: [{ name: 'A', role: 'artist', share: 60 }, { name: 'B', role: 'writer', share: 30 }] })).toMatchObject({
      code: 'validation_failed',
      message: 'The owners’ shares must add up to 100%',
    });
    expect((await t.call('POST', '/api/submissions', artist, song({ owners: [] }))).statusCode).toBe(400);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `O${i}`, role: 'other', share: i === 0 ? 90 : 1 }));
    expect((await t.call('POST', '/api/submissions', artist, song({ owners: eleven }))).statusCode).toBe(400);
    expect((await t.call('POST', '/api/submissions', artist, song({ isrc: 'US-RC1-76-0783' }))).statusCode).toBe(400);
    expect((await t.call('POST', '/api/submissions', artist, song({ owners: [{ name: 'A', role: 'boss', share: 100 }] }))).statusCode).toBe(400);
    // Thirds add up in hundredths of a percent.
    const thirds = [33.33, 33.33, 33.34].map((share, i) => ({ name: `Owner ${i}`, role: 'writer', share }));
    expect((await t.call('POST', '/api/submissions', artist, song({ owners: thirds }))).statusCode).toBe(201);
  });

  it('changes with PUT …/owners until approval, then 409; another artist gets 404', async () => {
    const res = await t.call('POST', '/api/submissions', artist, song());
    const id = res.json().id as string;
    const changed = await t.call('PUT', `/api/submissions/${id}/owners`, artist, { owners: OWNERS });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().owners).toHaveLength(3);
    expect((await t.call('PUT', `/api/submissions/${id}/owners`, other, { owners: OWNERS })).statusCode).toBe(404);
    expect((await t.call('PUT', `/api/submissions/${id}/owners`, artist, { owners: [{ name: 'A', role: 'artist', share: 99 }] })).statusCode).toBe(400);
    const history = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'owners')));
    expect(history[0]!.toValue).toBe('Nora Vex 50%, Sam Writer 30%, Pia Producer 20%');
    await t.call('PATCH', `/api/admin/submissions/${id}/status`, admin, { status: 'approved' });
    const frozen = await t.call('PUT', `/api/submissions/${id}/owners`, artist, { owners: [{ name: 'Nora Vex', role: 'artist', share: 100 }] });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().code).toBe('owners_frozen');
  });
});

describe('the agreement and its signatures', () => {
  it('exists from approval on, names the song, the label, each owner with role and share; its sha256 is its text’s', async () => {
    const pending = (await t.call('POST', '/api/submissions', artist, song())).json().id as string;
    expect((await t.call('GET', `/api/submissions/${pending}/agreement`, artist)).json().code).toBe('agreement_not_ready');

    const id = await approvedWith(OWNERS, { isrc: 'USRC17607839', aiUsage: true });
    const res = await t.call('GET', `/api/submissions/${id}/agreement`, artist);
    expect(res.statusCode, res.body).toBe(200);
    const agreement = res.json() as Agreement;
    expect(agreement).toMatchObject({ status: 'unsigned', version: 1 });
    expect(agreement.sha256).toBe(createHash('sha256').update(agreement.text, 'utf8').digest('hex'));
    expect(agreement.text).toContain('Midnight Records Ltd (“the Label”)');
    expect(agreement.text).toContain('“Night Drive” by Nora Vex, ISRC US-RC1-76-07839');
    expect(agreement.text).toContain('– Sam Writer, writer, 30%');
    expect(agreement.text).toContain('perpetual, worldwide, royalty-free');
    expect(agreement.text).toContain('AI tools were used');
    expect(agreement.signatures.map((s) => [s.name, s.share, s.signedAt])).toEqual([
      ['Nora Vex', 50, null],
      ['Sam Writer', 30, null],
      ['Pia Producer', 20, null],
    ]);
    // The team reads it too; another artist does not.
    expect((await t.call('GET', `/api/submissions/${id}/agreement`, admin)).json().sha256).toBe(agreement.sha256);
    expect((await t.call('GET', `/api/submissions/${id}/agreement`, other)).statusCode).toBe(404);
  });

  it('records the artist’s signature with time, address, user agent and the sha256; asks the co-owners by email; two sign at the same moment', async () => {
    const id = await approvedWith();
    const before = (await t.call('GET', `/api/submissions/${id}/agreement`, artist)).json() as Agreement;
    expect((await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex' })).statusCode).toBe(400);
    expect((await t.call('POST', `/api/submissions/${id}/agreement/sign`, other, { name: 'Nora Vex', consent: true })).statusCode).toBe(404);
    const signed = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true }, { 'user-agent': 'TestBrowser/1.0' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ status: 'partly_signed', sha256: before.sha256 });
    const [own] = await t.db.select().from(agreementSignatures).where(and(eq(agreementSignatures.submissionId, id), eq(agreementSignatures.ownerIndex, 0)));
    expect(own).toMatchObject({ signedName: 'Nora Vex', userAgent: 'TestBrowser/1.0', sha256: before.sha256, signedBy: artist.id, onBehalf: false });
    expect(own!.ip).toBeTruthy();
    expect(own!.signedAt).toBeInstanceOf(Date);
    expect((await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true })).json().code).toBe('already_signed');

    const [sam, pia] = await Promise.all([signingToken('sam.writer@example.com'), signingToken('pia.producer@example.com')]);
    // The outbox keeps the emails with the links hidden; the database only the tokens' hashes.
    const invitations = await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.kind, 'signing_invitation'), eq(outboxEmails.toAddress, 'sam.writer@example.com')));
    expect(JSON.stringify(invitations)).not.toContain(sam);
    expect(JSON.stringify(await t.db.select().from(agreementSignatures))).not.toContain(sam);

    const view = await t.call('GET', `/api/sign/${sam}`, null);
    expect(view.statusCode, view.body).toBe(200);
    expect((view.json() as SigningLinkView).owner).toEqual({ name: 'Sam Writer', role: 'writer', share: 30 });
    expect(view.json().text).toBe(before.text);

    const [a, b] = await Promise.all([
      t.call('POST', `/api/sign/${sam}`, null, { name: 'Sam Writer', consent: true }),
      t.call('POST', `/api/sign/${pia}`, null, { name: 'Pia Producer', consent: true }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const final = (await t.call('GET', `/api/submissions/${id}/agreement`, artist)).json() as Agreement;
    expect(final.status).toBe('signed');
    expect(final.signatures.every((s) => s.signedAt !== null)).toBe(true);
    // One "all signed" per admin, whichever signature came last.
    const allSigned = await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.kind, 'agreement_signed'), eq(outboxEmails.userId, admin.id)));
    expect(allSigned.filter((e) => (e.templateData as { submissionId: string }).submissionId === id)).toHaveLength(1);
    const received = await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.kind, 'agreement_signature_received'), eq(outboxEmails.userId, admin.id)));
    expect(received.filter((e) => (e.templateData as { submissionId: string }).submissionId === id)).toHaveLength(2);

    // Used: 410, for reading and for signing.
    expect((await t.call('GET', `/api/sign/${sam}`, null)).statusCode).toBe(410);
    expect((await t.call('POST', `/api/sign/${sam}`, null, { name: 'Sam Writer', consent: true })).json().code).toBe('signing_link_gone');
    expect((await t.call('GET', `/api/sign/${'x'.repeat(43)}`, null)).statusCode).toBe(404);
    // Once signed, the text never changes, and the owners are frozen.
    expect((await t.db.select().from(agreements).where(eq(agreements.submissionId, id)))[0]!.text).toBe(before.text);
  });

  it('a link past its 30 days → 410', async () => {
    const id = await approvedWith([
      { name: 'Nora Vex', role: 'artist', share: 90 },
      { name: 'Late Owner', email: 'late.owner@example.com', role: 'featured', share: 10 },
    ]);
    await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true });
    const token = await signingToken('late.owner@example.com');
    expect((await t.call('GET', `/api/sign/${token}`, null)).statusCode).toBe(200);
    clockOffsetMs = 31 * DAY;
    try {
      const late = await t.call('POST', `/api/sign/${token}`, null, { name: 'Late Owner', consent: true });
      expect(late.statusCode).toBe(410);
      expect((await t.call('GET', `/api/sign/${token}`, null)).statusCode).toBe(410);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('lets the artist sign for an owner without an email, confirming onBehalf, never for one with an email', async () => {
    const id = await approvedWith([
      { name: 'Nora Vex', role: 'artist', share: 70 },
      { name: 'Old Bandmate', role: 'writer', share: 20 },
      { name: 'Emailed Owner', email: 'emailed.owner@example.com', role: 'producer', share: 10 },
    ]);
    const forEmailed = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true, onBehalf: true, owner: 2 });
    expect(forEmailed.json().code).toBe('nothing_to_sign');
    const res = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true, onBehalf: true });
    expect(res.statusCode, res.body).toBe(200);
    const agreement = res.json() as Agreement;
    expect(agreement.signatures.map((s) => [s.name, s.onBehalf, s.signedAt !== null])).toEqual([
      ['Nora Vex', false, false],
      ['Old Bandmate', true, true],
      ['Emailed Owner', false, false],
    ]);
    const history = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'agreement')));
    expect(history.map((h) => h.toValue)).toEqual(['Old Bandmate (signed on their behalf as Nora Vex)']);
  });

  it('agreement.pdf is the same bytes from the same stored text, hash and signatures, whenever it is drawn', async () => {
    const id = await approvedWith([{ name: 'Nora Vex', role: 'artist', share: 100 }]);
    await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true });
    const first = await t.call('GET', `/api/submissions/${id}/agreement.pdf`, artist);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-disposition']).toBe('attachment; filename="agreement.pdf"');
    clockOffsetMs = 3 * DAY;
    let later;
    try {
      later = await t.call('GET', `/api/submissions/${id}/agreement.pdf`, admin);
    } finally {
      clockOffsetMs = 0;
    }
    expect(later.rawPayload.equals(first.rawPayload)).toBe(true);
    // From the stored rows alone, drawn again here: the same file.
    const [agreement] = await t.db.select().from(agreements).where(eq(agreements.submissionId, id));
    const signatures = await t.db.select().from(agreementSignatures).where(eq(agreementSignatures.submissionId, id));
    const redrawn = await renderAgreementPdf(agreement!, signatures, 'Night Drive', 'Midnight Records Ltd');
    expect(redrawn.equals(first.rawPayload)).toBe(true);
    // A signature changes it: the PDF is of the signatures too.
    const forged = await renderAgreementPdf(agreement!, signatures.map((s) => ({ ...s, signedName: 'Someone Else' })), 'Night Drive', 'Midnight Records Ltd');
    expect(forged.equals(first.rawPayload)).toBe(false);
  });
});

describe('Content ID, the allowlist and the publishing gate', () => {
  it('shows the allowlist step, writes the letter to the distributor, and marks it done in the history', async () => {
    const id = await approvedWith([{ name: 'Nora Vex', role: 'artist', share: 100 }], { contentId: 'yes', distributor: 'DistroKid', isrc: 'USRC17607839' });
    const rights = (await t.call('GET', `/api/admin/submissions/${id}/rights`, admin)).json() as RightsState;
    expect(rights).toMatchObject({ contentId: 'yes', distributor: 'DistroKid', allowlistNeeded: true, allowlistDoneAt: null, missing: ['agreement', 'allowlist'] });
    expect((await t.call('GET', `/api/admin/submissions/${id}/rights`, artist)).statusCode).toBe(403);

    const letter = await t.call('GET', `/api/admin/submissions/${id}/allowlist-letter.pdf`, admin);
    expect(letter.statusCode, letter.body).toBe(200);
    expect(letter.headers['content-type']).toBe('application/pdf');
    expect(letter.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.call('GET', `/api/admin/submissions/${id}/allowlist-letter.pdf`, artist)).statusCode).toBe(403);

    expect((await t.call('POST', `/api/admin/submissions/${id}/allowlist`, admin, { done: 'yes' })).statusCode).toBe(400);
    const done = await t.call('POST', `/api/admin/submissions/${id}/allowlist`, admin, { done: true });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ missing: ['agreement'] });
    expect(done.json().allowlistDoneAt).not.toBeNull();
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row!.allowlistDoneBy).toBe(admin.id);
    const history = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'allowlist')));
    expect(history).toHaveLength(1);
    expect(history[0]!.actorId).toBe(admin.id);
  });

  it('names a channel known only by its configured id by that id once, not as its title too (issue 43)', async () => {
    const date = new Date('2026-03-02T12:00:00Z');
    const facts = { labelName: 'Midnight Records Ltd', distributor: 'DistroKid', songTitle: 'Night Drive', artistName: 'Nora Vex', isrc: null, agreement: null, date };
    const textOf = async (pdf: Buffer) => (await extractText(new Uint8Array(pdf), { mergePages: true })).text;
    const bare = await textOf(await renderAllowlistLetter({ ...facts, channel: { id: 'UCabc123', title: null } }));
    expect(bare.match(/UCabc123/g)).toHaveLength(2); // the id, and inside the URL
    expect(bare).not.toMatch(/Channel: UCabc123/);
    const titled = await textOf(await renderAllowlistLetter({ ...facts, channel: { id: 'UCabc123', title: 'Midnight Records' } }));
    expect(titled).toMatch(/Channel: Midnight Records/);
  });

  it('refuses to record a publication without the rights (409 rights_incomplete, missing listed) unless an admin overrides with a reason', async () => {
    const id = await approvedWith([{ name: 'Nora Vex', role: 'artist', share: 100 }], { contentId: 'unknown' });
    const publication = { videoUrl: 'https://youtu.be/abcdefghijk', publishedAt: new Date().toISOString(), subscriberCount: 1000 };
    const refused = await t.call('PUT', `/api/admin/submissions/${id}/publication`, admin, publication);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'rights_incomplete', missing: ['agreement', 'allowlist'] });
    const youtube = await t.call('POST', `/api/admin/submissions/${id}/youtube`, admin, { objectPath: '/objects/uploads/x', title: 'T', description: '', tags: [], privacyStatus: 'public' });
    expect(youtube.json()).toMatchObject({ code: 'rights_incomplete', missing: ['agreement', 'allowlist'] });

    await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true });
    expect((await t.call('PUT', `/api/admin/submissions/${id}/publication`, admin, publication)).json()).toMatchObject({ missing: ['allowlist'] });
    expect((await t.call('PUT', `/api/admin/submissions/${id}/publication`, admin, { ...publication, override: { reason: '' } })).statusCode).toBe(400);

    const overridden = await t.call('PUT', `/api/admin/submissions/${id}/publication`, admin, { ...publication, override: { reason: 'Distributor confirmed by phone' } });
    expect(overridden.statusCode, overridden.body).toBe(200);
    const history = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'rights_override')));
    expect(history).toMatchObject([{ actorId: admin.id, fromValue: 'allowlist', toValue: 'Distributor confirmed by phone' }]);
  });

  it('records an override only with the publishing it allowed: a publish that fails leaves none', async () => {
    const id = await approvedWith([{ name: 'Nora Vex', role: 'artist', share: 100 }], { contentId: 'unknown' });
    const override = { reason: 'Distributor confirmed by phone' };
    const youtube = await t.call('POST', `/api/admin/submissions/${id}/youtube`, admin, {
      objectPath: '/objects/uploads/not-a-stored-video',
      title: 'T',
      description: '',
      tags: [],
      privacyStatus: 'public',
      override,
    });
    expect(youtube.statusCode).toBeGreaterThanOrEqual(400);
    expect(youtube.json().code).toBe('channel_not_connected');
    const overrides = await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'rights_override')));
    expect(overrides).toHaveLength(0);
  });

  it('lets a song with Content ID "no" and a signed agreement through without an allowlist', async () => {
    const id = await approvedWith([{ name: 'Nora Vex', role: 'artist', share: 100 }], { contentId: 'no' });
    await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true });
    const rights = (await t.call('GET', `/api/admin/submissions/${id}/rights`, admin)).json() as RightsState;
    expect(rights).toMatchObject({ allowlistNeeded: false, missing: [], agreement: { status: 'signed' } });
    const res = await t.call('PUT', `/api/admin/submissions/${id}/publication`, admin, { videoUrl: 'https://youtu.be/abcdefghijk', publishedAt: new Date().toISOString(), subscriberCount: 1000 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.db.select().from(submissionHistory).where(and(eq(submissionHistory.submissionId, id), eq(submissionHistory.field, 'rights_override'))))).toHaveLength(0);
  });
});

describe('the desk’s rights state (issue 43 item 9)', () => {
  it('shows on each row what publishing waits for, the same as the rights step, and filters the list by it', async () => {
    const artistName = `Rights Desk ${Date.now()}`;
    const sole = [{ name: artistName, role: 'artist', share: 100 }];
    const signedBy = async (id: string) => {
      const res = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true });
      expect(res.statusCode, res.body).toBe(200);
    };
    const pendingRes = await t.call('POST', '/api/submissions', artist, song({ artistName, songTitle: 'Still Pending' }));
    expect(pendingRes.statusCode).toBe(201);
    await approvedWith(sole, { artistName, songTitle: 'Unsigned', contentId: 'no' });
    const partly = await approvedWith(
      [
        { name: artistName, role: 'artist', share: 60 },
        { name: 'Sam Writer', email: `sam-${Date.now()}@example.com`, role: 'writer', share: 40 },
      ],
      { artistName, songTitle: 'Partly', contentId: 'no' },
    );
    await signedBy(partly);
    const allowlist = await approvedWith(sole, { artistName, songTitle: 'Allowlist', contentId: 'unknown' });
    await signedBy(allowlist);
    const complete = await approvedWith(sole, { artistName, songTitle: 'Complete', contentId: 'yes' });
    await signedBy(complete);
    expect((await t.call('POST', `/api/admin/submissions/${complete}/allowlist`, admin, { done: true })).statusCode).toBe(200);

    const list = async (qs: string) => {
      const res = await t.call('GET', `/api/admin/submissions?q=${encodeURIComponent(artistName)}${qs}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().submissions as { id: string; songTitle: string; rights: string | null }[]).map((s) => [s.songTitle, s.rights, s.id] as const);
    };
    const all = await list('');
    expect(all.map(([title, rights]) => [title, rights])).toEqual([
      ['Complete', 'complete'],
      ['Allowlist', 'allowlist_pending'],
      ['Partly', 'partly_signed'],
      ['Unsigned', 'unsigned'],
      ['Still Pending', null],
    ]);
    // The badge says what the rights step (and the publishing gate) says is missing first.
    for (const [, rights, id] of all.filter(([, rights]) => rights !== null)) {
      const step = (await t.call('GET', `/api/admin/submissions/${id}/rights`, admin)).json<RightsState>();
      const expected = step.missing.length === 0 ? 'complete' : step.missing[0] === 'allowlist' ? 'allowlist_pending' : step.agreement?.status === 'partly_signed' ? 'partly_signed' : 'unsigned';
      expect(rights).toBe(expected);
    }
    expect((await t.call('GET', `/api/admin/submissions/${complete}`, admin)).json().rights).toBe('complete');
    for (const state of ['unsigned', 'partly_signed', 'allowlist_pending', 'complete'] as const) {
      expect((await list(`&rights=${state}`)).map(([, rights]) => rights)).toEqual([state]);
    }
    // With a filter beyond the status the count is asked of the database, not the counters.
    const counted = await t.call('GET', `/api/admin/submissions?rights=complete&q=${encodeURIComponent(artistName)}&pageSize=1&page=1`, admin);
    expect(counted.json().total).toBe(1);
    const csv = await t.call('GET', `/api/admin/submissions.csv?rights=unsigned&q=${encodeURIComponent(artistName)}`, admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Unsigned');
    expect(csv.body).not.toContain('Complete');
    const refused = await t.call('GET', '/api/admin/submissions?rights=maybe', admin);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('rights must be one of unsigned, partly_signed, allowlist_pending, complete');
  });
});

describe('the account export', () => {
  it('holds the owners and the agreements: text, signatures and the same PDF', async () => {
    const sub = await createSubmissionRow(t.db, other, { status: 'approved', owners: [{ name: 'Other Artist', email: null, role: 'artist', share: 100 }] });
    await t.call('POST', `/api/submissions/${sub.id}/agreement/sign`, other, { name: 'Other Artist', consent: true });
    const pdf = await t.call('GET', `/api/submissions/${sub.id}/agreement.pdf`, other);
    const res = await t.call('GET', '/api/account/export', other);
    expect(res.statusCode).toBe(200);
    const zip = await readZip(res.rawPayload);
    expect(zip.get(`agreements/${sub.id}.pdf`)!.equals(pdf.rawPayload)).toBe(true);
    const account = JSON.parse(zip.get('account.json')!.toString('utf8'));
    expect(account.owners).toEqual([{ submissionId: sub.id, owners: [{ name: 'Other Artist', email: null, role: 'artist', share: 100 }] }]);
    const [agreement] = account.agreements;
    expect(agreement).toMatchObject({ submissionId: sub.id, status: 'signed', path: `agreements/${sub.id}.pdf` });
    expect(agreement.sha256).toBe(createHash('sha256').update(agreement.text, 'utf8').digest('hex'));
    expect(agreement.signatures).toMatchObject([{ ownerName: 'Other Artist', signedName: 'Other Artist', sha256: agreement.sha256 }]);
  });
});

