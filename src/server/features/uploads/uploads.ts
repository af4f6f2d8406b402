import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { uploads, type UploadRow, type UserRow } from '../../platform/db/schema';
import { badRequest, HttpError, notFound } from '../../platform/errors';
import { newId } from '../../platform/ids';
import {
  OBJECT_ID_PATTERN,
  objectKey,
  ObjectNotFoundError,
  ObjectTooLargeError,
  type ObjectStorage,
} from '../../platform/storage/object-storage';
import { keysOfUpload, objectPathOf } from '../../platform/storage/upload-files';
import { FILE_RULES, isContentTypeOf, sniffContentType, type FileKind } from './file-types';

/** How long an upload URL may be used (CONTRACT §5: short-lived). */
export const UPLOAD_URL_TTL_S = 15 * 60;

export const UPLOAD_MESSAGES = {
  notFound: 'Upload not found',
  urlUsed: 'This upload URL has expired or was already used',
  inProgress: 'This file is already being uploaded',
  notUploaded: 'The file has not been uploaded yet',
  notAnUpload: 'Not a file uploaded to this site',
  fileNotFound: 'File not found',
} as const;

/** The largest body the upload URL accepts: the largest file any route allows. */
export const MAX_UPLOAD_BYTES = Math.max(FILE_RULES.music.maxBytes, FILE_RULES.image.maxBytes);

/**
 * The token in a local upload URL: an HMAC of the upload and its user under the server's
 * secret, so the URL cannot be forged or moved to another upload. The PUT must also come from
 * the same signed-in user, and the row's status makes it single-use.
 */
export function uploadToken(secret: string, uploadId: string, userId: string): string {
  return createHmac('sha256', secret).update(`upload:${uploadId}:${userId}`).digest('base64url');
}

function tokenMatches(secret: string, uploadId: string, userId: string, token: string): boolean {
  const expected = Buffer.from(uploadToken(secret, uploadId, userId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** POST /api/objects/upload: a row for the coming file and the URL its bytes go to. */
export async function issueUploadUrl(
  db: Db,
  storage: ObjectStorage,
  options: { userId: string; publicUrl: URL; secret: string },
): Promise<string> {
  const id = newId();
  await db.insert(uploads).values({
    id,
    userId: options.userId,
    uploadExpiresAt: new Date(Date.now() + UPLOAD_URL_TTL_S * 1000),
  });
  const presigned = await storage.presignPut(objectKey('incoming', id), UPLOAD_URL_TTL_S);
  if (presigned) return presigned;
  const url = new URL(`/api/uploads/${id}`, options.publicUrl);
  url.searchParams.set('token', uploadToken(options.secret, id, options.userId));
  return url.toString();
}

/**
 * PUT /api/uploads/{id} (local storage): streams the body into the store, never holding more
 * than a chunk in memory, and stops at MAX_UPLOAD_BYTES (413, partial file removed).
 */
export async function receiveUpload(
  db: Db,
  storage: ObjectStorage,
  input: { id: string; token: string; user: UserRow; secret: string; body: Readable; declaredLength: number | undefined },
): Promise<{ size: number }> {
  const { id, user } = input;
  // Someone else's URL (or a forged one) is simply not found: never reveal another user's uploads.
  if (!OBJECT_ID_PATTERN.test(id) || !tokenMatches(input.secret, id, user.id, input.token)) {
    throw notFound(UPLOAD_MESSAGES.notFound);
  }
  if (input.declaredLength !== undefined && input.declaredLength > MAX_UPLOAD_BYTES) {
    throw new HttpError(413, FILE_RULES.music.tooLarge);
  }
  // Claiming the row is the single-use check: only one request ever moves it out of `pending`.
  const [claimed] = await db
    .update(uploads)
    .set({ status: 'receiving' })
    .where(
      and(
        eq(uploads.id, id),
        eq(uploads.userId, user.id),
        eq(uploads.status, 'pending'),
        gt(uploads.uploadExpiresAt, sql`now()`),
      ),
    )
    .returning({ id: uploads.id });
  if (!claimed) {
    const [row] = await db.select().from(uploads).where(and(eq(uploads.id, id), eq(uploads.userId, user.id)));
    if (!row) throw notFound(UPLOAD_MESSAGES.notFound);
    if (row.status === 'receiving') throw new HttpError(409, UPLOAD_MESSAGES.inProgress);
    throw new HttpError(403, UPLOAD_MESSAGES.urlUsed);
  }

  try {
    const { size } = await storage.put(objectKey('incoming', id), input.body, MAX_UPLOAD_BYTES);
    await db.update(uploads).set({ status: 'stored', size }).where(eq(uploads.id, id));
    return { size };
  } catch (error) {
    if (error instanceof ObjectTooLargeError) {
      await db.delete(uploads).where(eq(uploads.id, id));
      throw new HttpError(413, FILE_RULES.music.tooLarge);
    }
    // A broken connection: the URL may be tried again while it is valid.
    await db.update(uploads).set({ status: 'pending' }).where(eq(uploads.id, id));
    throw error;
  }
}

/**
 * The upload id in what the client holds after uploading: the upload URL it was given (this
 * server's or a presigned S3 one) or an `/objects/uploads/{id}` path.
 */
export function uploadIdFromUrl(value: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(value, 'http://upload.invalid').pathname;
  } catch {
    return null;
  }
  const id = /\/(?:api\/uploads|objects\/uploads|incoming)\/([^/]+)$/.exec(pathname)?.[1];
  return id && OBJECT_ID_PATTERN.test(id) ? id : null;
}

/**
 * The normalisation routes (CONTRACT §5): the upload exists and is the caller's (404), its
 * bytes arrived (400), fit the size limit (413) and are of an allowed type judged from their
 * content (415). Rejected bytes are removed at once. The checked bytes move to `uploads/`,
 * out of reach of the upload URL, and the upload answers as `/objects/uploads/{id}`.
 */
export async function normaliseUpload(
  db: Db,
  storage: ObjectStorage,
  input: { user: UserRow; url: string; kind: FileKind; fileName?: string | undefined },
): Promise<string> {
  const rule = FILE_RULES[input.kind];
  const id = uploadIdFromUrl(input.url);
  if (!id) throw badRequest(UPLOAD_MESSAGES.notAnUpload);
  const [row] = await db.select().from(uploads).where(and(eq(uploads.id, id), eq(uploads.userId, input.user.id)));
  if (!row) throw notFound(UPLOAD_MESSAGES.notFound);

  if (row.contentType !== null) {
    // Checked before (the client may normalise the same file twice): the recorded facts decide.
    if (!isContentTypeOf(input.kind, row.contentType)) throw new HttpError(415, rule.wrongType);
    if ((row.size ?? 0) > rule.maxBytes) throw new HttpError(413, rule.tooLarge);
    return objectPathOf(id);
  }

  const incoming = objectKey('incoming', id);
  const stored = row.status === 'receiving' ? null : await storage.head(incoming);
  if (!stored) throw badRequest(UPLOAD_MESSAGES.notUploaded);
  if (stored.size > rule.maxBytes) {
    await discardUpload(db, storage, row);
    throw new HttpError(413, rule.tooLarge);
  }
  const contentType = await sniffContentType(input.kind, stored.size, (start, end) => readBytes(storage, incoming, start, end));
  if (!contentType) {
    await discardUpload(db, storage, row);
    throw new HttpError(415, rule.wrongType);
  }

  try {
    await storage.move(incoming, objectKey('uploads', id));
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw badRequest(UPLOAD_MESSAGES.notUploaded);
    throw error;
  }
  await db
    .update(uploads)
    .set({ status: 'stored', size: stored.size, contentType, fileName: input.fileName?.trim().slice(0, 500) || null })
    .where(and(eq(uploads.id, id), isNull(uploads.contentType)));
  return objectPathOf(id);
}

async function discardUpload(db: Db, storage: ObjectStorage, row: UploadRow): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, row.id));
  await storage.delete(keysOfUpload(row.id));
}

async function readBytes(storage: ObjectStorage, key: string, start: number, end: number): Promise<Buffer> {
  const stream = await storage.read(key, { start, end });
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * An upload the user may download (GET /objects/uploads/{id}): checked bytes, and the user is
 * its uploader or an admin. Anything else is "not found".
 */
export async function findDownloadableUpload(db: Db, user: UserRow, id: string): Promise<UploadRow> {
  if (!OBJECT_ID_PATTERN.test(id)) throw notFound(UPLOAD_MESSAGES.fileNotFound);
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  if (!row || row.contentType === null || (row.userId !== user.id && user.role !== 'admin')) {
    throw notFound(UPLOAD_MESSAGES.fileNotFound);
  }
  return row;
}
