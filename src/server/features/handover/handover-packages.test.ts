import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import contentDisposition from 'content-disposition';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../../test/kit';
import { agreementSignatures, submissionHistory, uploads, youtubeChannels, type UserRow } from '../../platform/db/schema';
import { mp3Bytes, pngBytes } from '../../test/file-fixtures';
import { createAdmin, createArtist, createTestApp, linkSubmission, type TestApp } from '../../test/helpers';
import { ERN_NAMESPACE } from './release-xml';

/**
 * CONTRACT §28's release package and evidence pack: the admin's ZIPs of a submission, the ERN 4.3
 * message parsed with a real XML parser and checked element by element (no ERN 4.3 schema is
 * published on the npm registry), each file's MD5 checked against its bytes.
 */
let t: TestApp;
let admin: UserRow;
let artist: UserRow;
let other: UserRow;

beforeAll(async () => {
  t = await createTestApp({ LABEL_LEGAL_NAME: 'Midnight Records Ltd', DDEX_PARTY_ID: 'PADPIDA2026112801' });
  admin = await createAdmin(t.db);
  artist = await createArtist(t.db, { artistName: 'Nora Vex', firstName: 'Nora', lastName: 'Vex' });
  other = await createArtist(t.db);
});
afterAll(async () => {
  await t?.close();
});

const OWNERS = [
  { name: 'Nora Vex', role: 'artist', share: 50 },
  { name: 'Sam Writer', role: 'writer', share: 30 },
  { name: 'Pia Producer', role: 'producer', share: 20 },
];

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An uploaded track with artwork, three owners, approved; its agreement made (unsigned). */
async function approvedUpload(extra: Record<string, unknown> = {}) {
  const musicFileUrl = await t.uploadFile('music', artist);
  const artworkUrl = await t.uploadFile('image', artist);
  const res = await t.call(
    'POST',
    '/api/submissions',
    artist,
    linkSubmission({
      submissionMethod: 'upload',
      musicUrl: undefined,
      musicFileUrl,
      artworkUrl,
      artistName: 'Nora Vex',
      songTitle: 'Glass & <Neon> "Nights"',
      genre: 'Synthwave',
      owners: OWNERS,
      contentId: 'yes',
      distributor: 'DistroKid',
      isrc: 'GB-ABC-26-00042',
      ...extra,
    }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  const approved = await t.call('PATCH', `/api/admin/submissions/${id}/status`, admin, { status: 'approved' });
  expect(approved.statusCode, approved.body).toBe(200);
  expect((await t.call('GET', `/api/submissions/${id}/agreement`, artist)).statusCode).toBe(200);
  return id;
}

/** Every owner signs (as the signing routes record it: name, time, address, agent, the text's hash). */
async function signAll(id: string) {
  const rows = await t.db.select().from(agreementSignatures).where(eq(agreementSignatures.submissionId, id));
  for (const row of rows) {
    await t.db
      .update(agreementSignatures)
      .set({ signedName: row.ownerName, signedAt: new Date(), ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (Macintosh)', sha256: 'a'.repeat(64), disclosureVersion: 1 })
      .where(eq(agreementSignatures.id, row.id));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed XML is walked by element name
type Xml = Record<string, any>;
const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

describe('GET /api/admin/submissions/{id}/release.zip', () => {
  it('is refused with 409 rights_incomplete until every owner signed; only admins reach it', async () => {
    const id = await approvedUpload();
    const refused = await t.call('GET', `/api/admin/submissions/${id}/release.zip`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'rights_incomplete', missing: ['agreement'] });
    await signAll(id);
    expect((await t.call('GET', `/api/admin/submissions/${id}/release.zip`, null)).statusCode).toBe(401);
    expect((await t.call('GET', `/api/admin/submissions/${id}/release.zip`, artist)).statusCode).toBe(403);
    expect((await t.call('GET', `/api/admin/submissions/${id}/release.zip`, other)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/admin/submissions/not-an-id/release.zip', admin)).statusCode).toBe(404);
  });

  it('holds release.xml (ERN 4.3: label, one recording with ISRC and every owner, the artwork, one release, MD5s), the files and agreement.pdf', async () => {
    const id = await approvedUpload();
    await signAll(id);
    const res = await t.call('GET', `/api/admin/submissions/${id}/release.zip`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const disposition = contentDisposition.parse(String(res.headers['content-disposition']));
    expect(disposition).toEqual({ type: 'attachment', parameters: { filename: 'Glass & <Neon> "Nights" - release.zip' } });
    const zip = await readZip(res.rawPayload);
    expect([...zip.keys()].sort()).toEqual(['agreement.pdf', 'release.xml', 'resources/cover.png', 'resources/night.mp3']);
    expect(zip.get('resources/night.mp3')!.equals(mp3Bytes())).toBe(true);
    expect(zip.get('resources/cover.png')!.equals(pngBytes())).toBe(true);
    expect(zip.get('agreement.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');

    const xml = zip.get('release.xml')!.toString('utf8');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: false, parseTagValue: false }).parse(xml);
    const message = parsed['ern:NewReleaseMessage'];
    expect(message, xml).toBeDefined();
    expect(message['@_xmlns:ern']).toBe(ERN_NAMESPACE);
    // The label as sender, with its DPID.
    expect(message.MessageHeader.MessageSender.PartyId).toBe('PADPIDA2026112801');
    expect(message.MessageHeader.MessageSender.PartyName.FullName).toBe('Midnight Records Ltd');
    expect(message.MessageHeader.MessageId).toMatch(/\S/);
    expect(Number.isNaN(Date.parse(message.MessageHeader.MessageCreatedDateTime))).toBe(false);

    const parties = asArray<{ PartyReference: string; PartyName: { FullName: string } }>(message.PartyList.Party);
    const partyName = (ref: string) => parties.find((p) => p.PartyReference === ref)?.PartyName.FullName;

    // One SoundRecording: ISRC without dashes, the title (escaped and read back intact), display artist, every owner with a role.
    const recordings = asArray<Xml>(message.ResourceList.SoundRecording);
    expect(recordings).toHaveLength(1);
    const recording = recordings[0]!;
    expect(recording.SoundRecordingEdition.ResourceId.ISRC).toBe('GBABC2600042');
    expect(recording.DisplayTitleText).toBe('Glass & <Neon> "Nights"');
    expect(recording.DisplayTitle.TitleText).toBe('Glass & <Neon> "Nights"');
    expect(recording.DisplayArtistName).toBe('Nora Vex');
    expect(partyName(asArray<Xml>(recording.DisplayArtist)[0]!.ArtistPartyReference)).toBe('Nora Vex');
    const contributors = asArray<{ ContributorPartyReference: string; Role: string }>(recording.Contributor).map((c) => [partyName(c.ContributorPartyReference), c.Role]);
    expect(contributors).toEqual([
      ['Nora Vex', 'Artist'],
      ['Sam Writer', 'ComposerLyricist'],
      ['Pia Producer', 'Producer'],
    ]);
    const audioFile = recording.SoundRecordingEdition.TechnicalDetails.DeliveryFile.File;
    expect(audioFile.URI).toBe('resources/night.mp3');
    expect(audioFile.HashSum).toEqual({ Algorithm: 'MD5', HashSumValue: md5(mp3Bytes()) });
    expect(recording.Duration).toMatch(/^PT\d+M\d+S$/);

    // The artwork as an Image, with its MD5.
    const images = asArray<Xml>(message.ResourceList.Image);
    expect(images).toHaveLength(1);
    expect(images[0]!.Type).toBe('FrontCoverImage');
    expect(images[0]!.TechnicalDetails.File.URI).toBe('resources/cover.png');
    expect(images[0]!.TechnicalDetails.File.HashSum.HashSumValue).toBe(md5(pngBytes()));

    // One Release of the track, the label as its label.
    const releases = asArray<Xml>(message.ReleaseList.Release);
    expect(releases).toHaveLength(1);
    const release = releases[0]!;
    expect(release.ReleaseType).toBe('Single');
    expect(partyName(release.ReleaseLabelReference)).toBe('Midnight Records Ltd');
    expect(release.DisplayTitleText).toBe('Glass & <Neon> "Nights"');
    expect(release.ResourceGroup.ResourceGroup.ResourceGroupContentItem.ReleaseResourceReference).toBe(recording.ResourceReference);
    expect(release.ResourceGroup.LinkedReleaseResourceReference).toBe(images[0]!.ResourceReference);
    expect(release.Genre.GenreText).toBe('Synthwave');

    // The digests are kept on the uploads, so the evidence pack reads them without reading the bytes again.
    const kept = await t.db.select({ md5: uploads.md5, sha256: uploads.sha256 }).from(uploads).where(eq(uploads.submissionId, id));
    expect(kept.map((k) => k.md5).sort()).toEqual([md5(mp3Bytes()), md5(pngBytes())].sort());
  });

  it('answers a missing stored file with an archive that ends in error, never a ZIP that silently lacks it', async () => {
    const id = await approvedUpload();
    await signAll(id);
    const [music] = await t.db.select().from(uploads).where(eq(uploads.submissionId, id)).limit(1);
    // Remove its bytes from the store.
    const { createObjectStorage } = await import('../../platform/storage/create-storage');
    await createObjectStorage(t.config).delete([`uploads/${music!.id}`]);
    const res = await t.call('GET', `/api/admin/submissions/${id}/release.zip`, admin);
    await expect(readZip(res.rawPayload)).rejects.toThrow();
  });
});

describe('GET /api/admin/submissions/{id}/evidence.zip', () => {
  it('holds the agreement, signatures with audit data, the rights answers, every file with its sha256 and uploader, and the history', async () => {
    const id = await approvedUpload({ aiUsage: true });
    await signAll(id);
    const res = await t.call('GET', `/api/admin/submissions/${id}/evidence.zip`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/evidence\.zip/);
    const zip = await readZip(res.rawPayload);
    expect([...zip.keys()].sort()).toEqual(['agreement.pdf', 'files.json', 'history.json', 'rights.json', 'signatures.json']);

    const signatures = JSON.parse(zip.get('signatures.json')!.toString());
    expect(signatures.agreement.status).toBe('signed');
    expect(signatures.agreement.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(signatures.signatures).toHaveLength(3);
    expect(signatures.signatures[1]).toMatchObject({ ownerName: 'Sam Writer', role: 'writer', share: 30, ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (Macintosh)', disclosureVersion: 1 });

    const rights = JSON.parse(zip.get('rights.json')!.toString());
    expect(rights).toMatchObject({ contentId: 'yes', distributor: 'DistroKid', isrc: 'GBABC2600042', aiUsage: true, allowlistNeeded: true });
    expect(rights.owners.map((o: { name: string }) => o.name)).toEqual(['Nora Vex', 'Sam Writer', 'Pia Producer']);

    const { files } = JSON.parse(zip.get('files.json')!.toString());
    expect(files.map((f: { fileName: string }) => f.fileName).sort()).toEqual(['cover.png', 'night.mp3']);
    const music = files.find((f: { fileName: string }) => f.fileName === 'night.mp3');
    expect(music).toMatchObject({ size: mp3Bytes().length, sha256: sha256(mp3Bytes()), uploader: { id: artist.id, name: 'Nora Vex', role: 'user' } });
    expect(Number.isNaN(Date.parse(music.uploadedAt))).toBe(false);

    const history = JSON.parse(zip.get('history.json')!.toString());
    const rows = await t.db.select().from(submissionHistory).where(eq(submissionHistory.submissionId, id));
    expect(history.history).toHaveLength(rows.length);
    expect(history.history.some((h: { toValue?: string; to?: string }) => JSON.stringify(h).includes('approved'))).toBe(true);
  });

  it('carries the allowlist letter when the channel is known, and only admins reach it', async () => {
    const id = await approvedUpload();
    expect((await t.call('GET', `/api/admin/submissions/${id}/evidence.zip`, artist)).statusCode).toBe(403);
    expect((await t.call('GET', `/api/admin/submissions/${id}/evidence.zip`, null)).statusCode).toBe(401);
    // Unsigned: the pack still answers (a dispute may come before every owner signed), without the letter here (no channel).
    const res = await t.call('GET', `/api/admin/submissions/${id}/evidence.zip`, admin);
    expect(res.statusCode).toBe(200);
    const zip = await readZip(res.rawPayload);
    expect(zip.has('allowlist-letter.pdf')).toBe(false);
    expect(JSON.parse(zip.get('signatures.json')!.toString()).agreement.status).toBe('unsigned');

    await t.db.insert(youtubeChannels).values({ channelId: 'UCmidnight', title: 'Midnight Records', refreshToken: 'v1.sealed' });
    const withChannel = await readZip((await t.call('GET', `/api/admin/submissions/${id}/evidence.zip`, admin)).rawPayload);
    expect(withChannel.get('allowlist-letter.pdf')!.subarray(0, 5).toString()).toBe('%PDF-');
    await t.db.delete(youtubeChannels);
  });
});
