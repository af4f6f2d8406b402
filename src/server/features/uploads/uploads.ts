import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { messageAttachments, messages, uploads, type UploadRow, type UserRow } from '../../platform/db/schema';
import { apiError, HttpError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import {
  objectKey,
  ObjectNotFoundError,
  ObjectTooLargeError,
  type ObjectStorage,
} from '../../platform/storage/object-storage';
import { OBJECT_ID_PATTERN, objectPathOf } from '@shared/submissions';
import { keysOfUpload } from '../../platform/storage/upload-files';
import { FILE_RULES, isContentTypeOf, sniffContentType, type FileKind } from './file-types';

/** How long an upload URL may be used (CONTRACT §5: short-lived). */
const UPLOAD_URL_TTL_S = 15 * 60;

/**
 * How long a `receiving` or `checking` claim holds without being renewed. A server that dies
 * holding one stops renewing it, so the upload can be tried again within this time.
 */
const LEASE_S = 10;
const LEASE_RENEW_MS = 3000;
const leaseFromNow = () => sql`now() + make_interval(secs => ${LEASE_S})`;

/** A 409 while another request holds the upload's claim; `retryAfterS` is when it lapses. */
export class UploadBusyError extends HttpError {
  constructor(
    code: 'upload_in_progress' | 'upload_being_checked',
    readonly retryAfterS: number,
  ) {
    super(code);
  }
}

const secondsUntil = (date: Date | null) => Math.max(1, Math.ceil(((date?.getTime() ?? 0) - Date.now()) / 1000));

/** The largest body the upload URL accepts: the largest file any route allows. */
const MAX_UPLOAD_BYTES = Math.max(FILE_RULES.music.maxBytes, FILE_RULES.image.maxBytes);

/**
 * The token in a local upload URL: an HMAC of the upload and its user under the server's
 * secret, so the URL cannot be forged or moved to another upload. The PUT must also come from
 * the same signed-in user, and the row's status makes it single-use.
 */
function uploadToken(secret: string, uploadId: string, userId: string): string {
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
  const presigned = await storage.presignUpload(objectKey('incoming', id), UPLOAD_URL_TTL_S);
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
    throw apiError('upload_not_found');
  }
  if (input.declaredLength !== undefined && input.declaredLength > MAX_UPLOAD_BYTES) {
    throw apiError('file_too_large', FILE_RULES.music.tooLarge);
  }
  // Claiming the row is the single-use check: only one request at a time moves it out of
  // `pending`. A claim whose holder died (its lease lapsed) may be taken over: the bytes never
  // arrived, so the URL is as good as unused.
  const [claimed] = await db
    .update(uploads)
    .set({ status: 'receiving', leaseUntil: leaseFromNow() })
    .where(
      and(
        eq(uploads.id, id),
        eq(uploads.userId, user.id),
        gt(uploads.uploadExpiresAt, sql`now()`),
        or(eq(uploads.status, 'pending'), and(eq(uploads.status, 'receiving'), lt(uploads.leaseUntil, sql`now()`))),
      ),
    )
    .returning({ id: uploads.id });
  if (!claimed) {
    const [row] = await db.select().from(uploads).where(and(eq(uploads.id, id), eq(uploads.userId, user.id)));
    if (!row) throw apiError('upload_not_found');
    const expired = row.uploadExpiresAt.getTime() <= Date.now();
    if (row.status === 'receiving' && row.leaseUntil && !expired) {
      throw new UploadBusyError('upload_in_progress', secondsUntil(row.leaseUntil));
    }
    // Expired: the uploader may ask for a fresh URL. Used: the file is already in.
    throw apiError(expired && (row.status === 'pending' || row.status === 'receiving') ? 'upload_url_expired' : 'upload_url_used');
  }

  const renew = setInterval(() => {
    db.update(uploads)
      .set({ leaseUntil: leaseFromNow() })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'receiving')))
      .catch(() => {});
  }, LEASE_RENEW_MS);
  try {
    const { size } = await storage.receive(objectKey('incoming', id), input.body, MAX_UPLOAD_BYTES);
    await db.update(uploads).set({ status: 'stored', size, leaseUntil: null }).where(eq(uploads.id, id));
    return { size };
  } catch (error) {
    if (error instanceof ObjectTooLargeError) {
      await db.delete(uploads).where(eq(uploads.id, id));
      throw apiError('file_too_large', FILE_RULES.music.tooLarge);
    }
    // A broken connection: the URL may be tried again while it is valid.
    await db.update(uploads).set({ status: 'pending', leaseUntil: null }).where(eq(uploads.id, id));
    throw error;
  } finally {
    clearInterval(renew);
  }
}

/**
 * The upload id in what the client holds after uploading: the upload URL it was given (this
 * server's or a presigned S3 one) or an `/objects/uploads/{id}` path.
 */
function uploadIdFromUrl(value: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(value, 'http://upload.invalid').pathname;
  } catch {
    return null;
  }
  const id = /\/(?:api\/uploads|api\/video-uploads|objects\/uploads|incoming)\/([^/]+)$/.exec(pathname)?.[1];
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
  if (!id) throw apiError('not_an_upload');
  const mine = and(eq(uploads.id, id), eq(uploads.userId, input.user.id));
  let [row] = await db.select().from(uploads).where(mine);
  if (!row) throw apiError('upload_not_found');
  if (row.contentType !== null) return checkedBefore(row, input.kind);
  if (row.status === 'receiving' && row.leaseUntil === null) row = await settleResumableUpload(db, storage, row);

  // One conditional state change decides who checks the bytes: two checks of the same upload
  // at the same moment (say as artwork and as music) would otherwise both act on them, and one
  // could delete the bytes the other has just answered for.
  const [claimed] = await db
    .update(uploads)
    .set({ status: 'checking', leaseUntil: leaseFromNow() })
    .where(
      and(
        mine,
        isNull(uploads.contentType),
        or(
          inArray(uploads.status, ['pending', 'stored']),
          and(eq(uploads.status, 'checking'), lt(uploads.leaseUntil, sql`now()`)),
        ),
      ),
    )
    .returning();
  if (!claimed) {
    const [now] = await db.select().from(uploads).where(mine);
    if (!now) throw apiError('upload_not_found');
    if (now.contentType !== null) return checkedBefore(now, input.kind);
    if (now.status === 'checking') throw new UploadBusyError('upload_being_checked', secondsUntil(now.leaseUntil));
    throw apiError('upload_not_received');
  }
  const release = () =>
    db
      .update(uploads)
      .set({ status: row.status === 'checking' ? 'pending' : row.status, leaseUntil: null })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'checking')));

  const incoming = objectKey('incoming', id);
  const stored = await storage.check(incoming);
  if (!stored) {
    await release();
    throw apiError('upload_not_received');
  }
  if (stored.size > rule.maxBytes) {
    await discardUpload(db, storage, id);
    throw apiError('file_too_large', rule.tooLarge);
  }
  const contentType = await sniffContentType(input.kind, stored.size, (start, end) => readBytes(storage, incoming, start, end));
  if (!contentType) {
    await discardUpload(db, storage, id);
    throw apiError('file_type_not_allowed', rule.wrongType);
  }

  try {
    await storage.move(incoming, objectKey('uploads', id));
  } catch (error) {
    await release();
    if (error instanceof ObjectNotFoundError) throw apiError('upload_not_received');
    throw error;
  }
  await db
    .update(uploads)
    .set({
      status: 'stored',
      leaseUntil: null,
      size: stored.size,
      contentType,
      fileName: input.fileName?.trim().slice(0, 500) || null,
    })
    .where(and(eq(uploads.id, id), eq(uploads.status, 'checking')));
  return objectPathOf(id);
}

/**
 * A resumable upload stays `receiving` until its bytes are checked; whether they all arrived
 * is what the tus store knows. Marks it `stored` when they have, so the check may claim it.
 */
async function settleResumableUpload(db: Db, storage: ObjectStorage, row: UploadRow): Promise<UploadRow> {
  try {
    const upload = await storage.resumable.getUpload(objectKey('incoming', row.id));
    if (upload.size === undefined || upload.offset !== upload.size) return row;
  } catch {
    return row; // No resumable upload under that key.
  }
  const [settled] = await db
    .update(uploads)
    .set({ status: 'stored' })
    .where(and(eq(uploads.id, row.id), eq(uploads.status, 'receiving'), isNull(uploads.leaseUntil)))
    .returning();
  return settled ?? row;
}

/** An upload checked before (the client may normalise the same file twice): the recorded facts decide. */
function checkedBefore(row: UploadRow, kind: FileKind): string {
  const rule = FILE_RULES[kind];
  if (!isContentTypeOf(kind, row.contentType)) throw apiError('file_type_not_allowed', rule.wrongType);
  if ((row.size ?? 0) > rule.maxBytes) throw apiError('file_too_large', rule.tooLarge);
  return objectPathOf(row.id);
}

async function discardUpload(db: Db, storage: ObjectStorage, id: string): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, id));
  await storage.delete(keysOfUpload(id));
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
  if (!OBJECT_ID_PATTERN.test(id)) throw apiError('file_not_found');
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  if (!row || row.contentType === null) throw apiError('file_not_found');
  if (row.userId === user.id || user.role === 'admin') return row;
  // A file the team attached to a message in this artist's conversation (CONTRACT §18).
  const [attached] = await db
    .select({ id: messageAttachments.uploadId })
    .from(messageAttachments)
    .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
    .where(and(eq(messageAttachments.uploadId, row.id), eq(messages.artistId, user.id)))
    .limit(1);
  if (!attached) throw apiError('file_not_found');
  return row;
}
