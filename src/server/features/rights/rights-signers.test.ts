import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { ESIGN_DISCLOSURE, type Agreement, type SigningLinkView } from '@shared/rights';
import { agreementSignatures, agreements, outboxEmails, type UserRow } from '../../platform/db/schema';
import { renderAgreementPdf } from '../../domain/submission/agreement-pdf';
import { agreementText } from '../../domain/submission/agreement-text';
import { createAdmin, createArtist, createTestApp, linkSubmission, type TestApp } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { sentTo } from '../../test/smtp-test-server';

/**
 * What people sign stays theirs and stays true (CONTRACT §22, last bullet): names and typed
 * signatures are one line, a share is at least 0.01%, every signer is shown the electronic
 * records disclosure and it is recorded, and a co-owner keeps a copy of what they signed.
 */

const HOUR = 60 * 60 * 1000;
let clockOffsetMs = 0;
const clock = () => new Date(Date.now() + clockOffsetMs);

let t: TestApp;
let admin: UserRow;
let artist: UserRow;

beforeAll(async () => {
  t = await createTestApp({ LABEL_LEGAL_NAME: 'Midnight Records Ltd' }, { smtp: true, clock });
  admin = await createAdmin(t.db);
  artist = await createArtist(t.db, { artistName: 'Nora Vex' });
});
afterAll(async () => {
  await t?.close();
});

const song = (extra: Record<string, unknown> = {}) => linkSubmission({ artistName: 'Nora Vex', ...extra });

async function pdfText(body: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(body)), { mergePages: true });
  return text;
}

async function approvedWith(owners: object[]) {
  const res = await t.call('POST', '/api/submissions', artist, song({ owners }));
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  expect((await t.call('PATCH', `/api/admin/submissions/${id}/status`, admin, { status: 'approved' })).statusCode).toBe(200);
  return id;
}

async function signingToken(address: string): Promise<string> {
  const email = await t.smtp.waitFor(sentTo(address));
  const token = /\/sign\/([A-Za-z0-9_-]+)/.exec(email.mail.text ?? '')?.[1];
  expect(token).toBeTruthy();
  return token!;
}

/** A fake owner line in a name, a fake dated signature in a typed one, and each forbidden kind of character. */
const FAKE_OWNER = 'Bob, writer, 1%\n– Mallory Evil, producer, 99%';
const FORBIDDEN = ['Bob\nEvil', 'Bob\r', 'Bob\tEvil', 'Bob\u0000', 'Bob\u007f', 'Bob\u0085', 'Bob\u2028Evil', 'Bob\u2029', 'Bob\u202EliveE', 'Bob\u2066x\u2069', 'Bob\u200E', 'Bob\u200F', 'Bob\u061C'];

describe('names and typed signatures are one line of printable text (→ 400)', () => {
  it('refuses them in the wizard’s owners, in a draft, and in PUT …/owners', async () => {
    for (const name of [FAKE_OWNER, ...FORBIDDEN]) {
      const owners = [
        { name: 'Nora Vex', role: 'artist', share: 50 },
        { name, email: 'bob@example.com', role: 'writer', share: 50 },
      ];
      const sent = await t.call('POST', '/api/submissions', artist, song({ owners }));
      expect(sent.statusCode, JSON.stringify(name)).toBe(400);
      // NUL is refused before any schema, for every text of the API.
      if (!name.includes('\u0000')) expect(sent.json().message).toContain('one line of plain text');
      const draft = await t.call('POST', '/api/submissions/drafts', artist, { songTitle: 'Draft song', owners });
      expect(draft.statusCode, JSON.stringify(name)).toBe(400);
    }
    const id = (await t.call('POST', '/api/submissions', artist, song())).json().id as string;
    const put = await t.call('PUT', `/api/submissions/${id}/owners`, artist, {
      owners: [
        { name: 'Nora Vex', role: 'artist', share: 1 },
        { name: FAKE_OWNER, role: 'writer', share: 99 },
      ],
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().message).toContain('one line of plain text');
    // The artist's own row is checked too: it is the first owner's name.
    const own = await t.call('PUT', `/api/submissions/${id}/owners`, artist, { owners: [{ name: 'Nora\u202EVex', role: 'artist', share: 100 }] });
    expect(own.statusCode).toBe(400);
    // A name in another script, with accents and punctuation, is one line and is taken.
    const fine = await t.call('PUT', `/api/submissions/${id}/owners`, artist, { owners: [{ name: 'Zoë O’Brien-محمد 李', role: 'artist', share: 100 }] });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('refuses them in the artist’s signature, on their own line and on an owner’s behalf, and in a co-owner’s', async () => {
    const id = await approvedWith([
      { name: 'Nora Vex', role: 'artist', share: 60 },
      { name: 'Old Bandmate', role: 'writer', share: 20 },
      { name: 'Sam Line', email: 'sam.line@example.com', role: 'producer', share: 20 },
    ]);
    const forged = 'Nora Vex”.\nSigned “Mallory” on 1 January 2020';
    for (const name of [forged, ...FORBIDDEN]) {
      const own = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name, consent: true });
      expect(own.statusCode, JSON.stringify(name)).toBe(400);
      if (!name.includes('\u0000')) expect(own.json().message).toContain('one line of plain text');
      const onBehalf = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name, consent: true, onBehalf: true });
      expect(onBehalf.statusCode, JSON.stringify(name)).toBe(400);
    }
    expect((await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true })).statusCode).toBe(200);
    const token = await signingToken('sam.line@example.com');
    for (const name of [forged, ...FORBIDDEN]) {
      const byLink = await t.call('POST', `/api/sign/${token}`, null, { name, consent: true });
      expect(byLink.statusCode, JSON.stringify(name)).toBe(400);
      if (!name.includes('\u0000')) expect(byLink.json().message).toContain('one line of plain text');
    }
    // Refused, the link is still unused.
    expect((await t.call('POST', `/api/sign/${token}`, null, { name: 'Sam Line', consent: true })).statusCode).toBe(200);
  });

  it('lays out a value as one line in the agreement’s text and PDF, whatever it holds', async () => {
    const text = agreementText({
      submissionId: 'sub_1',
      songTitle: 'Night\nDrive',
      artistName: 'Nora Vex',
      isrc: null,
      aiUsage: false,
      owners: [
        { name: 'Nora Vex', email: null, role: 'artist', share: 50 },
        { name: FAKE_OWNER, email: null, role: 'writer', share: 50 },
      ],
      labelName: 'Midnight Records Ltd',
      date: new Date('2026-11-28T12:00:00Z'),
    });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('– ') && l.includes('%'))).toEqual(['– Nora Vex, artist, 50%', '– Bob, writer, 1% – Mallory Evil, producer, 99%, writer, 50%']);
    expect(lines.some((l) => l.startsWith('Drive'))).toBe(false);

    // A typed name with a line break (as if stored before the schemas refused it) prints no line of its own.
    const id = await approvedWith([{ name: 'Nora Vex', role: 'artist', share: 100 }]);
    expect((await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true })).statusCode).toBe(200);
    const [agreement] = await t.db.select().from(agreements).where(eq(agreements.submissionId, id));
    const signatures = await t.db.select().from(agreementSignatures).where(eq(agreementSignatures.submissionId, id));
    const tampered = signatures.map((s) => ({ ...s, signedName: 'Nora Vex”.\nSigned “Mallory” on 1 January 2020', userAgent: 'UA\nTyped name: Mallory' }));
    const pdf = await pdfText(await renderAgreementPdf(agreement!, tampered, 'Night Drive', 'Midnight Records Ltd'));
    const pdfLines = pdf.split('\n');
    expect(pdfLines.some((l) => /^Signed “Mallory”/.test(l.trim()))).toBe(false);
    expect(pdfLines.some((l) => /^Typed name: Mallory/.test(l.trim()))).toBe(false);
    expect(pdf).toContain('Nora Vex”. Signed “Mallory” on 1 January 2020');
  });
});

describe('a share is above 0 with at most two decimals', () => {
  it('refuses 1e-9 (0.00% once rounded) and 0.001 with 400; takes 0.01', async () => {
    for (const tiny of [1e-9, 0.001, 0.004]) {
      const owners = [
        { name: 'Nora Vex', role: 'artist', share: 100 - tiny },
        { name: 'Tiny Owner', email: 'tiny@example.com', role: 'other', share: tiny },
      ];
      const res = await t.call('POST', '/api/submissions', artist, song({ owners }));
      expect(res.statusCode, String(tiny)).toBe(400);
      expect(res.json().message).toContain('at most two decimals');
    }
    const smallest = [
      { name: 'Nora Vex', role: 'artist', share: 99.99 },
      { name: 'Tiny Owner', email: 'tiny@example.com', role: 'other', share: 0.01 },
    ];
    expect((await t.call('POST', '/api/submissions', artist, song({ owners: smallest }))).statusCode).toBe(201);
  });
});

describe('the consumer disclosure for electronic signatures', () => {
  it('comes with both agreement answers, and each signature records the version shown (also on the audit page)', async () => {
    const id = await approvedWith([
      { name: 'Nora Vex', role: 'artist', share: 50 },
      { name: 'Old Bandmate', role: 'writer', share: 25 },
      { name: 'Dee Closure', email: 'dee.closure@example.com', role: 'producer', share: 25 },
    ]);
    const agreement = (await t.call('GET', `/api/submissions/${id}/agreement`, artist)).json() as Agreement;
    expect(agreement.disclosure).toEqual({ version: ESIGN_DISCLOSURE.version, title: ESIGN_DISCLOSURE.title, text: ESIGN_DISCLOSURE.paragraphs.join('\n') });
    expect(agreement.labelName).toBe('Midnight Records Ltd');
    // What ESIGN asks the disclosure to say.
    expect(agreement.disclosure.text).toMatch(/sign this licence agreement electronically and to receive it/);
    expect(agreement.disclosure.text).toMatch(/right to a paper copy/);
    expect(agreement.disclosure.text).toMatch(/withdraw this consent/);
    expect(agreement.disclosure.text).toMatch(/web browser.*PDF reader/s);

    // A signer shown another version than the one in force is refused.
    const stale = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true, disclosureVersion: ESIGN_DISCLOSURE.version + 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('disclosure_changed');
    const signed = await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true, disclosureVersion: ESIGN_DISCLOSURE.version });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true, onBehalf: true })).statusCode).toBe(200);

    const token = await signingToken('dee.closure@example.com');
    const view = (await t.call('GET', `/api/sign/${token}`, null)).json() as SigningLinkView;
    expect(view.disclosure).toEqual(agreement.disclosure);
    expect(view.labelName).toBe('Midnight Records Ltd');
    expect((await t.call('POST', `/api/sign/${token}`, null, { name: 'Dee Closure', consent: true, disclosureVersion: 99 })).json().code).toBe('disclosure_changed');
    expect((await t.call('POST', `/api/sign/${token}`, null, { name: 'Dee Closure', consent: true, disclosureVersion: ESIGN_DISCLOSURE.version })).statusCode).toBe(200);

    const rows = await t.db.select().from(agreementSignatures).where(eq(agreementSignatures.submissionId, id));
    expect(rows.map((r) => r.disclosureVersion)).toEqual([ESIGN_DISCLOSURE.version, ESIGN_DISCLOSURE.version, ESIGN_DISCLOSURE.version]);
    const pdf = await pdfText((await t.call('GET', `/api/submissions/${id}/agreement.pdf`, artist)).rawPayload);
    expect(pdf.match(new RegExp(`Electronic records disclosure: version ${ESIGN_DISCLOSURE.version} shown before signing`, 'g'))).toHaveLength(3);
  });
});

describe('a co-owner keeps a copy', () => {
  it('gets an email with the agreement PDF as signed so far attached, and a download on the thank-you page for an hour', async () => {
    const id = await approvedWith([
      { name: 'Nora Vex', role: 'artist', share: 40 },
      { name: 'Cam Copy', email: 'cam.copy@example.com', role: 'writer', share: 30 },
      { name: 'Lou Later', email: 'lou.later@example.com', role: 'producer', share: 30 },
    ]);
    expect((await t.call('POST', `/api/submissions/${id}/agreement/sign`, artist, { name: 'Nora Vex', consent: true })).statusCode).toBe(200);
    const cam = await signingToken('cam.copy@example.com');
    const lou = await signingToken('lou.later@example.com');
    // The invitation never tells a person without an account that they have one.
    const invitation = await t.smtp.waitFor(sentTo('cam.copy@example.com'));
    expect(invitation.mail.text).not.toContain('you have an account');
    expect(invitation.mail.text).toContain('Nora Vex named you as an owner of "Night Drive"');

    // Before signing, the link has no copy.
    expect((await t.call('GET', `/api/sign/${cam}/agreement.pdf`, null)).statusCode).toBe(404);
    expect((await t.call('POST', `/api/sign/${cam}`, null, { name: 'Cam Copy', consent: true }, { 'user-agent': 'CamBrowser/2' })).statusCode).toBe(200);

    const copy = await t.smtp.waitFor((e) => e.to.includes('cam.copy@example.com') && e.mail.subject === 'Your signed copy of the licence of "Night Drive"');
    expect(copy.mail.text).not.toContain('you have an account');
    expect(copy.mail.attachments).toHaveLength(1);
    const attached = copy.mail.attachments[0]!;
    expect(attached).toMatchObject({ filename: 'licence-agreement.pdf', contentType: 'application/pdf' });
    const attachedText = await pdfText(attached.content);
    expect(attachedText).toContain('Signed “Cam Copy”');
    expect(attachedText).toContain('Signed “Nora Vex”');
    expect(attachedText).toContain('CamBrowser/2');
    // The row is marked sent once the mail server has accepted the message, a moment after the server has it.
    const stored = await waitFor(
      async () => {
        const [row] = await t.db.select().from(outboxEmails).where(and(eq(outboxEmails.kind, 'agreement_copy'), eq(outboxEmails.toAddress, 'cam.copy@example.com')));
        return row?.status === 'sent' && row;
      },
      { what: 'the copy marked sent' },
    );
    expect(stored).toMatchObject({ status: 'sent', userId: artist.id });

    // The thank-you page's download is the same file.
    const download = await t.call('GET', `/api/sign/${cam}/agreement.pdf`, null);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(attached.content)).toBe(true);

    // Another owner signs later: the copy stays as Cam signed it, without Lou's signature or browser.
    expect((await t.call('POST', `/api/sign/${lou}`, null, { name: 'Lou Later', consent: true }, { 'user-agent': 'LouBrowser/9' })).statusCode).toBe(200);
    const after = await t.call('GET', `/api/sign/${cam}/agreement.pdf`, null);
    expect(after.rawPayload.equals(attached.content)).toBe(true);
    expect(await pdfText(after.rawPayload)).not.toContain('LouBrowser/9');

    // An hour after signing the used link gives nothing more: the copy was emailed.
    clockOffsetMs = HOUR + 60_000;
    try {
      const late = await t.call('GET', `/api/sign/${cam}/agreement.pdf`, null);
      expect(late.statusCode).toBe(410);
      expect(late.json().code).toBe('signed_copy_gone');
    } finally {
      clockOffsetMs = 0;
    }
    expect((await t.call('GET', `/api/sign/${'x'.repeat(43)}/agreement.pdf`, null)).statusCode).toBe(404);
  });
});
