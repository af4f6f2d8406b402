import { createHash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { CONTENT_ID_LABELS, ownersOf } from '@shared/rights';
import { uploadIdFromObjectPath } from '@shared/submissions';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { agreements, audioPeaks, submissions, uploads, users, type SubmissionRow, type UploadRow } from '../../platform/db/schema';
import { HttpError, apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { streamingZip } from '../../platform/streaming-zip';
import { toZipEntryName } from '../../platform/zip-entry-name';
import { agreementStatusOf, signaturesOf } from '../../domain/submission/agreement';
import { renderAgreementPdf } from '../../domain/submission/agreement-pdf';
import { allowlistLetterFor } from '../../domain/submission/allowlist-letter';
import { readHistory } from '../../domain/submission/history';
import { needsAllowlist } from '../../domain/submission/rights';
import { buildReleaseXml, type PackagedFile } from './release-xml';

/**
 * The handover packages of CONTRACT §28 (decision 198): `release.zip` for a distributor and
 * `evidence.zip` for a lawyer. Both are ZIPs streamed entry by entry (archiver): a stored file
 * goes from the store through the hashes into the archive and out to the client without ever
 * being held whole, so a 2 GiB video costs the server the same memory as a song.
 */

/** The submission as the team sees it: any artist's, not a draft; else 404. */
export async function deskSubmission(db: Db, id: string): Promise<SubmissionRow> {
  const [row] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.id, id), ne(submissions.status, 'draft')))
    .limit(1);
  if (!row) throw apiError('submission_not_found');
  return row;
}

/** Every recorded change of the submission, oldest first, with who made it and why. */
async function historyOf(db: Db, submissionId: string) {
  const rows = await readHistory(db, submissionId);
  return rows.map(({ entry, actor }) => ({
    id: entry.id,
    field: entry.field,
    fromValue: entry.fromValue,
    toValue: entry.toValue,
    reason: entry.reason,
    createdAt: entry.createdAt.toISOString(),
    actor: actor?.id
      ? { id: actor.id, name: [actor.firstName, actor.lastName].filter(Boolean).join(' ') || null, email: actor.email, role: actor.role }
      : null,
  }));
}

/** Passes bytes through while computing their MD5 and SHA-256. */
class Digests extends Transform {
  private readonly md5 = createHash('md5');
  private readonly sha256 = createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.md5.update(chunk);
    this.sha256.update(chunk);
    this.size += chunk.length;
    callback(null, chunk);
  }

  result(): { md5: string; sha256: string } {
    return { md5: this.md5.digest('hex'), sha256: this.sha256.digest('hex') };
  }
}

/** Keeps an upload's digests: stored bytes never change, so the first computation stays true. */
async function keepDigests(db: Db, uploadId: string, digests: { md5: string; sha256: string }): Promise<void> {
  await db.update(uploads).set(digests).where(eq(uploads.id, uploadId));
}

/** An upload's digests, read from the row or computed by streaming its bytes once (then kept). */
export async function digestsOf(db: Db, storage: ObjectStorage, upload: UploadRow): Promise<{ md5: string; sha256: string }> {
  if (upload.md5 && upload.sha256) return { md5: upload.md5, sha256: upload.sha256 };
  const digests = new Digests();
  await pipeline(await storage.read(objectKey('uploads', upload.id)), digests, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) void chunk;
  });
  const result = digests.result();
  await keepDigests(db, upload.id, result);
  return result;
}

const ZIP_EXTENSION = /\.[A-Za-z0-9]{1,8}$/;

/** The entry name of a stored file: its own name made safe, under `resources/`. */
function entryName(upload: UploadRow, fallback: string): string {
  const name = toZipEntryName(upload.fileName ?? '', fallback);
  return `resources/${ZIP_EXTENSION.test(name) ? name : `${name}${ZIP_EXTENSION.exec(fallback)?.[0] ?? ''}`}`;
}

async function uploadOf(db: Db, objectPath: string | null): Promise<UploadRow | null> {
  const id = objectPath ? uploadIdFromObjectPath(objectPath) : null;
  if (!id) return null;
  const [row] = await db.select().from(uploads).where(and(eq(uploads.id, id), eq(uploads.status, 'stored'))).limit(1);
  return row ?? null;
}

const labelNameOf = (config: Config) => config.billing.legalName ?? config.publicUrl.hostname;

/** The agreement as its PDF (with its audit page); 409 `rights_incomplete` until every owner signed. */
async function signedAgreementPdf(db: Db, submission: SubmissionRow, config: Config): Promise<Buffer> {
  const [agreement] = await db.select().from(agreements).where(eq(agreements.submissionId, submission.id));
  const signatures = agreement ? await signaturesOf(db, submission.id) : [];
  if (!agreement || agreementStatusOf(signatures) !== 'signed') {
    throw new HttpError('rights_incomplete', 'The release package waits for the signed licence agreement', undefined, undefined, {
      missing: ['agreement'],
    });
  }
  return renderAgreementPdf(agreement, signatures, submission.songTitle, config.billing.legalName);
}

/**
 * GET /api/admin/submissions/{id}/release.zip: `resources/` with the music (or video) file and
 * the artwork, `agreement.pdf`, and `release.xml` last — the message names each file with the
 * MD5 computed as that file went into the archive, so every byte is read from the store once.
 * Checks (the signed agreement) happen before the first byte is answered.
 */
export async function releasePackage(
  deps: { db: Db; storage: ObjectStorage; config: Config },
  submission: SubmissionRow,
  onError: (error: Error) => void,
): Promise<Readable> {
  const { db, storage, config } = deps;
  const agreementPdf = await signedAgreementPdf(db, submission, config);
  const isVideo = submission.submissionType === 'video';
  const main = await uploadOf(db, isVideo ? submission.videoFileUrl : submission.musicFileUrl);
  const artwork = await uploadOf(db, submission.artworkUrl);
  const [peaks] = main
    ? await db.select({ durationSeconds: audioPeaks.durationSeconds }).from(audioPeaks).where(eq(audioPeaks.uploadId, main.id)).limit(1)
    : [];
  const zip = streamingZip(onError);
  zip.run(async () => {
    const packaged = async (upload: UploadRow, fallback: string): Promise<PackagedFile> => {
      const name = entryName(upload, fallback);
      const digests = new Digests();
      const body = await storage.read(objectKey('uploads', upload.id));
      body.once('error', (error) => digests.destroy(error));
      await zip.append(body.pipe(digests), name, true);
      const result = digests.result();
      if (!upload.md5 || !upload.sha256) await keepDigests(db, upload.id, result);
      return { uri: name, md5: result.md5, contentType: upload.contentType ?? 'application/octet-stream' };
    };
    const mainFile = main ? await packaged(main, isVideo ? 'video.mp4' : 'music.mp3') : null;
    const artworkFile = artwork ? await packaged(artwork, 'artwork.jpg') : null;
    await zip.append(agreementPdf, 'agreement.pdf', false);
    const xml = buildReleaseXml({
      messageId: newId(),
      createdAt: new Date(),
      labelName: labelNameOf(config),
      senderDpid: config.ddexPartyId,
      submissionId: submission.id,
      songTitle: submission.songTitle,
      artistName: submission.artistName,
      isrc: submission.isrc,
      genre: submission.genre,
      releaseDate: submission.releaseDate,
      owners: ownersOf(submission),
      main: mainFile ? { ...mainFile, kind: isVideo ? 'video' : 'audio', durationSeconds: peaks?.durationSeconds ?? null } : null,
      artwork: artworkFile,
    });
    await zip.append(xml, 'release.xml', false);
  });
  return zip.stream;
}

/**
 * GET /api/admin/submissions/{id}/evidence.zip: what a Content ID dispute or an ownership claim
 * needs (decision 198). `agreement.pdf` (when there is an agreement), `signatures.json` (each
 * owner's signature with its audit data), `allowlist-letter.pdf` (when the allowlist step
 * applies and the channel is known), `rights.json` (the rights answers), `files.json` (every
 * uploaded file with its SHA-256, time and uploader) and `history.json`. The stored files
 * themselves are not in it: their hashes prove which bytes they were.
 */
export async function evidencePack(
  deps: { db: Db; storage: ObjectStorage; config: Config },
  submission: SubmissionRow,
  onError: (error: Error) => void,
): Promise<Readable> {
  const { db, storage, config } = deps;
  const labelName = config.billing.legalName;
  const [agreement] = await db.select().from(agreements).where(eq(agreements.submissionId, submission.id));
  const signatures = agreement ? await signaturesOf(db, submission.id) : [];
  const agreementPdf = agreement ? await renderAgreementPdf(agreement, signatures, submission.songTitle, labelName) : null;

  const letter = needsAllowlist(submission.contentId)
    ? await allowlistLetterFor(db, submission, { labelName, configuredChannelId: config.production.youtube?.channelId, agreement, signatures, date: new Date() })
    : null;

  const files = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.submissionId, submission.id), eq(uploads.status, 'stored'), isNotNull(uploads.size)))
    .orderBy(asc(uploads.createdAt), asc(uploads.id));
  const uploaderIds = [...new Set(files.map((f) => f.userId))];
  const uploaders = uploaderIds.length
    ? await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: users.role }).from(users).where(inArray(users.id, uploaderIds))
    : [];
  const uploaderOf = new Map(uploaders.map((u) => [u.id, u]));
  const history = await historyOf(db, submission.id);

  const zip = streamingZip(onError);
  zip.run(async () => {
    if (agreementPdf) await zip.append(agreementPdf, 'agreement.pdf', false);
    const signed = {
      submissionId: submission.id,
      songTitle: submission.songTitle,
      agreement: agreement
        ? { version: agreement.version, sha256: agreement.sha256, createdAt: agreement.createdAt.toISOString(), status: agreementStatusOf(signatures) }
        : null,
      signatures: signatures.map((s) => ({
        ownerName: s.ownerName,
        ownerEmail: s.ownerEmail,
        role: s.role,
        share: Number(s.share),
        signedName: s.signedName,
        signedAt: s.signedAt?.toISOString() ?? null,
        signedThrough: s.signedAt === null ? null : s.signedBy === null ? 'signing_link' : s.onBehalf ? 'artist_on_behalf' : 'artist',
        onBehalf: s.onBehalf,
        ip: s.ip,
        userAgent: s.userAgent,
        documentSha256: s.sha256,
        disclosureVersion: s.disclosureVersion,
      })),
    };
    await zip.append(JSON.stringify(signed, null, 2), 'signatures.json', false);
    if (letter) await zip.append(letter, 'allowlist-letter.pdf', false);
    const rights = {
      contentId: submission.contentId,
      contentIdAnswer: CONTENT_ID_LABELS[submission.contentId],
      distributor: submission.distributor,
      isrc: submission.isrc,
      aiUsage: submission.aiUsage,
      owners: ownersOf(submission),
      allowlistNeeded: needsAllowlist(submission.contentId),
      allowlistDoneAt: submission.allowlistDoneAt?.toISOString() ?? null,
      termsHash: submission.termsHash,
      termsAcceptedAt: submission.termsAcceptedAt?.toISOString() ?? null,
    };
    await zip.append(JSON.stringify(rights, null, 2), 'rights.json', false);
    const listed = [];
    for (const file of files) {
      const { sha256 } = await digestsOf(db, storage, file);
      const uploader = uploaderOf.get(file.userId);
      listed.push({
        id: file.id,
        fileName: file.fileName,
        size: file.size,
        contentType: file.contentType,
        sha256,
        uploadedAt: file.createdAt.toISOString(),
        uploader: uploader
          ? { id: uploader.id, name: [uploader.firstName, uploader.lastName].filter(Boolean).join(' ') || null, email: uploader.email, role: uploader.role }
          : { id: file.userId },
      });
    }
    await zip.append(JSON.stringify({ files: listed }, null, 2), 'files.json', false);
    await zip.append(JSON.stringify({ submissionId: submission.id, history }, null, 2), 'history.json', false);
  });
  return zip.stream;
}
