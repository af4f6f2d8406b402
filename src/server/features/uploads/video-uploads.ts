import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Server as TusServer } from '@tus/server';
import { ERRORS, Metadata, TUS_RESUMABLE } from '@tus/utils';
import { and, eq, sql } from 'drizzle-orm';
import { FILE_LIMITS, OBJECT_ID_PATTERN, RESUMABLE_UPLOADS_PATH } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { uploads, type UserRow } from '../../platform/db/schema';
import { apiError, HttpError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { FILE_RULES } from './file-types';
import { holdCheckedChunk, readUploadChecksum, TUS_CHECKSUM_ALGORITHMS, type HeldChunk } from './upload-checksum';

/**
 * Resumable uploads of finished videos (CONTRACT §12, decision 071) with the tus protocol:
 * `POST /api/video-uploads` (Upload-Length ≤ 2 GiB) creates one and answers its URL,
 * `HEAD` tells how many bytes arrived, `PATCH` continues from there, `DELETE` abandons it.
 * The bytes go through the storage driver's tus store straight to `incoming/<id>`, where
 * `PUT /api/video-files` checks them like every other upload.
 *
 * tus never sees the client's URL (decision 147): it is handed a request built here, for the
 * id the router matched and `answer` checked, so the guard and the handler cannot disagree
 * about which upload is meant. Its refusals come back in the API's `{message, code}`.
 */
const VIDEO_UPLOADS_PATH = RESUMABLE_UPLOADS_PATH;

/** How long a resumable upload may take from creation to its last byte. */
const VIDEO_UPLOAD_TTL_S = 12 * 60 * 60;

const OFFSET_OCTET_STREAM = 'application/offset+octet-stream';

/** What of the client's request tus is given: the protocol's headers and the body's framing. */
const TUS_REQUEST_HEADERS = ['tus-resumable', 'upload-length', 'upload-offset', 'upload-metadata', 'content-type', 'content-length'];
/** What of tus's answer goes back; its `Access-Control-*` have no place on a same-origin API. */
const TUS_RESPONSE_HEADERS = ['tus-resumable', 'upload-offset', 'upload-length', 'upload-metadata', 'location', 'cache-control'];

/**
 * What `OPTIONS` announces (CONTRACT §23 "tus, whole"): the protocol's version, the extensions
 * this server speaks (the protocol says every one MUST be listed), the checksum algorithms and
 * the largest upload.
 */
export const TUS_CAPABILITIES: Record<string, string> = {
  'tus-resumable': TUS_RESUMABLE,
  'tus-version': TUS_RESUMABLE,
  'tus-extension': 'creation,termination,checksum,expiration',
  'tus-checksum-algorithm': TUS_CHECKSUM_ALGORITHMS.join(','),
  'tus-max-size': String(FILE_LIMITS.videoBytes),
};

/** One request handed to tus: who asks, the only upload it may act on, and how tus refused it. */
interface TusCall {
  user: UserRow;
  key: string | undefined;
  refusal?: unknown;
  /** When the upload being created stops taking bytes. */
  expiresAt?: Date;
}

/** A successful tus answer; refusals are thrown as HttpErrors. */
interface TusAnswer {
  status: number;
  headers: Record<string, string>;
}

interface VideoUploads {
  /**
   * Answers a tus request of `user` (the router matched it, `requireUser` ran) for the upload
   * `id` the route matched (none on POST): checks the protocol's headers and the user's right to
   * the upload, answers a DELETE itself, and lets tus act on that upload and no other.
   */
  answer(input: { user: UserRow; method: string; id: string | undefined; headers: IncomingHttpHeaders; body: Readable }): Promise<TusAnswer>;
}

export function createVideoUploads(db: Db, storage: ObjectStorage, publicUrl: URL): VideoUploads {
  const calls = new WeakMap<Request, TusCall>();
  const tus = new TusServer({
    path: VIDEO_UPLOADS_PATH,
    datastore: storage.resumable,
    maxSize: FILE_LIMITS.videoBytes,
    respectForwardedHeaders: false,
    // tus ids are the object keys (`incoming/<id>`); URLs carry only the id.
    generateUrl: (_req, { id }) => new URL(`${VIDEO_UPLOADS_PATH}/${id.slice('incoming/'.length)}`, publicUrl).toString(),
    // The checked id, never a part of a URL.
    getFileIdFromRequest: (req) => calls.get(req)?.key,
    namingFunction: async (req) => {
      const call = calls.get(req);
      if (!call) throw apiError('unauthorized');
      const id = newId();
      call.expiresAt = new Date(Date.now() + VIDEO_UPLOAD_TTL_S * 1000);
      // `receiving` with no lease: tus locks the upload while a PATCH writes to it.
      await db.insert(uploads).values({ id, userId: call.user.id, status: 'receiving', uploadExpiresAt: call.expiresAt });
      return objectKey('incoming', id);
    },
    // Kept for `answer`, which refuses in the API's shape; what tus would write is never sent.
    onResponseError: (req, error) => {
      const call = calls.get(req);
      if (call) call.refusal = error;
      return undefined;
    },
  });

  /**
   * Refuses what tus would refuse in plain text, and what this server does not offer; 'tus'
   * with the upload's expiry (unknown before POST creates it) when tus is to answer.
   */
  async function authorize(user: UserRow, method: string, headers: IncomingHttpHeaders, id: string | undefined): Promise<'done' | { expiresAt?: Date }> {
    checkProtocolHeaders(method, headers);
    if (method === 'POST') {
      if (id !== undefined) throw apiError('upload_not_found');
      const length = Number(headerOf(headers, 'upload-length'));
      if (length <= 0) throw apiError('upload_length_required');
      if (length > FILE_LIMITS.videoBytes) throw apiError('file_too_large', FILE_RULES.video.tooLarge);
      return {};
    }
    if (id === undefined || !OBJECT_ID_PATTERN.test(id)) throw apiError('upload_not_found');
    const [row] = await db
      .select()
      .from(uploads)
      .where(and(eq(uploads.id, id), eq(uploads.userId, user.id), sql`${uploads.leaseUntil} is null`));
    // Someone else's upload, or one that is not resumable, is simply not found.
    if (!row || row.submissionId !== null) throw apiError('upload_not_found');
    if (method === 'DELETE') {
      if (row.contentType !== null) throw apiError('upload_url_used');
      await db.delete(uploads).where(eq(uploads.id, id));
      await storage.delete([objectKey('incoming', id)]);
      return 'done';
    }
    // Single use: once checked (or expired) the URL takes no more bytes.
    const open = row.contentType === null && row.status === 'receiving' && row.uploadExpiresAt > new Date();
    if (method === 'PATCH' && !open) throw apiError('upload_url_used');
    if (method === 'HEAD' && row.contentType !== null) throw apiError('upload_url_used');
    return { expiresAt: row.uploadExpiresAt };
  }

  return {
    async answer({ user, method, id, headers, body }) {
      const allowed = await authorize(user, method, headers, id);
      if (allowed === 'done') return { status: 204, headers: { 'tus-resumable': TUS_RESUMABLE } };
      const checksum = readUploadChecksum(headerOf(headers, 'upload-checksum'));
      // A chunk with a checksum reaches the upload only once it matched (checksum extension).
      const held: HeldChunk | undefined = checksum && (method === 'PATCH' || method === 'POST') ? await holdCheckedChunk(body, checksum) : undefined;
      try {
        return await handOver(user, method, id, headers, held?.body ?? body, allowed.expiresAt);
      } finally {
        await held?.release();
      }
    },
  };

  /** Hands the request to tus for the upload checked, and answers what tus said. */
  async function handOver(user: UserRow, method: string, id: string | undefined, headers: IncomingHttpHeaders, body: Readable, knownExpiry: Date | undefined): Promise<TusAnswer> {
    const forwarded = new Headers();
    for (const name of TUS_REQUEST_HEADERS) {
      const value = headerOf(headers, name);
      if (value !== undefined) forwarded.set(name, value);
    }
    const request = new Request(new URL(id === undefined ? VIDEO_UPLOADS_PATH : `${VIDEO_UPLOADS_PATH}/${id}`, publicUrl), {
      method,
      headers: forwarded,
      body: method === 'PATCH' || method === 'POST' ? bytesOf(body) : null,
      duplex: 'half',
    } as RequestInit);
    const call: TusCall = { user, key: id === undefined ? undefined : objectKey('incoming', id) };
    calls.set(request, call);
    const response = await tus.handleWeb(request);
    if (response.status >= 400) {
      throw refusalOf(call.refusal ?? { status_code: response.status, body: await response.text() });
    }
    const answered: Record<string, string> = {};
    for (const name of TUS_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) answered[name] = value;
    }
    // Expiration extension: the client learns when the URL stops taking bytes (RFC 9110 date).
    const expiresAt = call.expiresAt ?? knownExpiry;
    if (expiresAt) answered['upload-expires'] = expiresAt.toUTCString();
    return { status: response.status, headers: answered };
  }
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A count of bytes as tus writes it: digits, no sign, no leading zero, no exponent. */
const isByteCount = (value: string) => /^(0|[1-9]\d{0,15})$/.test(value) && Number.isSafeInteger(Number(value));

/**
 * The protocol's headers, checked before tus sees them, so that every refusal is `{message, code}`
 * (tus answers these in plain text). Parallel uploads (Upload-Concat) and a length given later
 * (Upload-Defer-Length) are extensions this server does not list: a client error, 400.
 */
function checkProtocolHeaders(method: string, headers: IncomingHttpHeaders): void {
  if (headerOf(headers, 'tus-resumable') !== TUS_RESUMABLE) {
    throw new HttpError('tus_version_unsupported', undefined, undefined, { 'tus-version': TUS_RESUMABLE });
  }
  if (headerOf(headers, 'upload-concat') !== undefined) throw apiError('upload_concat_not_supported');
  if (headerOf(headers, 'upload-defer-length') !== undefined) throw apiError('upload_length_required');
  const length = headerOf(headers, 'upload-length');
  if (method === 'POST' && (length === undefined || !isByteCount(length))) throw apiError('upload_length_required');
  if (method !== 'POST' && length !== undefined) {
    throw apiError('invalid_upload_header', 'Upload-Length is given once, when the upload is created');
  }
  const offset = headerOf(headers, 'upload-offset');
  if ((method === 'PATCH' || offset !== undefined) && (offset === undefined || !isByteCount(offset))) {
    throw apiError('invalid_upload_header', 'Upload-Offset must give the byte offset this body starts at');
  }
  if (method === 'PATCH' && headerOf(headers, 'content-type') !== OFFSET_OCTET_STREAM) {
    throw apiError('unsupported_media_type', `The bytes of an upload are sent as ${OFFSET_OCTET_STREAM}`);
  }
  const metadata = headerOf(headers, 'upload-metadata');
  if (metadata !== undefined) {
    try {
      Metadata.parse(metadata);
    } catch {
      throw apiError('invalid_upload_header', 'Upload-Metadata must be comma-separated pairs of a key and a base64 value');
    }
  }
}

/** How many bytes of a request body wait for tus before the socket is paused. */
const BODY_QUEUE_BYTES = 1024 * 1024;

/**
 * The request's bytes for tus, ending (not failing) when the client goes away: tus keeps what
 * arrived, and the client resumes from there after a HEAD. One hop from the Node stream to the
 * web stream tus reads (it turns it back into a Node stream itself): a PassThrough before
 * `Readable.toWeb` cost a second copy through the stream machinery for every 64 KiB, about a
 * fifth of a second of CPU per GiB (issue 27, decision 164).
 */
function bytesOf(body: Readable): ReadableStream<Uint8Array> {
  let done = false;
  let onData: (chunk: Buffer) => void = () => undefined;
  const stop = () => {
    done = true;
    body.off('data', onData);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const end = () => {
          if (done) return;
          stop();
          controller.close();
        };
        onData = (chunk) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) body.pause();
        };
        body.on('data', onData);
        body.once('end', end);
        body.once('error', end);
        body.once('close', end);
      },
      pull() {
        if (!done) body.resume();
      },
      // tus stopped reading (it refused the rest): the body is left paused, as an unpiped one was.
      cancel: stop,
    },
    { highWaterMark: BODY_QUEUE_BYTES, size: (chunk) => chunk.byteLength },
  );
}

/** tus's refusal in the API's shape; anything that is not a refusal stays an error (500, logged). */
function refusalOf(error: unknown): Error {
  if (error instanceof Error) return error;
  switch (error) {
    case ERRORS.FILE_NOT_FOUND:
    case ERRORS.FILE_NO_LONGER_EXISTS:
      return apiError('upload_not_found');
    case ERRORS.INVALID_OFFSET:
      return apiError('upload_offset_conflict');
    case ERRORS.ERR_SIZE_EXCEEDED:
      return apiError('file_too_large', 'The bytes sent go past the Upload-Length given when the upload was created');
    case ERRORS.ERR_MAX_SIZE_EXCEEDED:
      return apiError('file_too_large', FILE_RULES.video.tooLarge);
    // Another request holds the upload (or took it over from this one): the client asks HEAD and resumes.
    case ERRORS.ERR_LOCK_TIMEOUT:
    case ERRORS.ABORTED:
      return apiError('upload_in_progress');
    case ERRORS.INVALID_TERMINATION:
      return apiError('upload_url_used');
    case ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION:
      return apiError('upload_concat_not_supported');
    case ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION:
      return apiError('upload_length_required');
  }
  const { status_code: status, body } = error as { status_code?: number; body?: string };
  const text = (body ?? '').trim() || 'The upload request was refused';
  if (status === undefined || status >= 500) return new Error(`tus failed: ${text}`);
  if (status === 404 || status === 410) return apiError('upload_not_found');
  if (status === 409) return apiError('upload_offset_conflict');
  if (status === 413) return apiError('file_too_large', text);
  return apiError('invalid_upload_header', text);
}
