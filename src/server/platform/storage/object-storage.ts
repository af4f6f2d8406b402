import type { IncomingMessage } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { DataStore } from '@tus/utils';
import { OBJECT_ID_PATTERN } from '@shared/submissions';

/**
 * Object storage behind one complete interface (docs/architecture.md, third parties): local disk under
 * DATA_DIR/objects by default, any S3-compatible store when S3_* are set. The configuration
 * picks the driver once (`createObjectStorage`); nothing else knows which one it is.
 *
 * Keys are never built from raw user input: every key is `<area>/<id>` with an id that matched
 * OBJECT_ID_PATTERN, checked again by each driver before it touches the store.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** Origins outside this server that browsers send bytes to or fetch them from (CSP connect-src). */
  readonly browserOrigins: string[];
  /**
   * A URL the browser can PUT the bytes of `key` to directly, or undefined when they come
   * through this server (which then calls `receive`).
   */
  presignUpload(key: string, expiresInSeconds: number): Promise<string | undefined>;
  /**
   * Streams `body` into `key`; more than `maxBytes` → ObjectTooLargeError and nothing is kept.
   * A partial write is never visible under `key`, and whatever it left behind is removed by
   * `delete([key])`, also after a crash.
   */
  receive(key: string, body: Readable, maxBytes: number): Promise<{ size: number }>;
  /** Size of the complete object, or null when there is none. */
  check(key: string): Promise<{ size: number } | null>;
  /** The object's bytes (`end` inclusive), or ObjectNotFoundError. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * Answers a browser's GET for the object: a redirect to the store, or the bytes with Range
   * (206), ETag and If-None-Match (304) handled. ObjectNotFoundError when it is missing,
   * RangeNotSatisfiableError for a Range outside it; a malformed Range is ignored (RFC 9110 §14.2).
   * With `contentDisposition` the bytes come with that header wherever they are served from (a
   * presigned S3 URL carries it too), so a browser saves them to disk under that name.
   */
  serve(key: string, request: IncomingMessage, options: ServeOptions): Promise<Served>;
  /**
   * Moves an object to another key within the store (a rename or a server-side copy); whatever a
   * resumable upload kept beside `from` is removed with it.
   */
  move(from: string, to: string): Promise<void>;
  /**
   * Removes the objects, with anything a resumable or interrupted upload left beside them;
   * keys that do not exist are ignored.
   */
  delete(keys: string[]): Promise<void>;
  /**
   * Where resumable (tus) uploads keep their bytes while they arrive: a tus DataStore whose
   * upload ids are object keys, so a finished upload is the object under that key.
   */
  readonly resumable: DataStore;
}

export interface ServeOptions {
  contentType: string;
  expiresInSeconds: number;
  /** Unset: `dispositionOf(contentType)`, so no stored file opens as a document. */
  contentDisposition?: string | undefined;
}

/**
 * Files the artist sent open as downloads (CONTRACT §23): a stored file is answered as an
 * attachment, so a PDF or any document never opens (and never runs its script) in the product's
 * origin; images, audio and video may play inline (SVG, which can hold script, is not one of them).
 */
export function dispositionOf(contentType: string): string {
  return /^(audio|video)\/|^image\/(?!svg)/i.test(contentType) ? 'inline' : 'attachment';
}

/**
 * Sent with every stored file served from this origin: the file is a sandboxed document without
 * scripts, forms or plugins of this origin, whatever it is and however it is opened.
 */
export const STORED_FILE_CSP = 'sandbox';

/** How a download is answered. */
export type Served =
  | { redirect: string }
  | { statusCode: number; headers: Record<string, string | number>; stream: Readable };

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No object ${key}`);
  }
}

/** No range of the request's Range header starts inside the object: a 416 naming its size. */
export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super(`No requested range lies within the object's ${size} bytes`);
  }
}

export class ObjectTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The object is larger than ${limit} bytes`);
  }
}

/**
 * Where an upload's bytes live: `incoming/` until the normalisation routes have checked them,
 * then `uploads/`. With S3 the presigned PUT URL stays valid for its whole lifetime, so moving
 * the checked bytes away from the key that URL writes to is what makes them tamper-proof.
 */
export const OBJECT_AREAS = ['incoming', 'uploads'] as const;
type ObjectArea = (typeof OBJECT_AREAS)[number];

export function objectKey(area: ObjectArea, id: string): string {
  if (!OBJECT_ID_PATTERN.test(id)) throw new Error('Invalid object id');
  return `${area}/${id}`;
}

/** Every driver calls this before using a key: no other shape can reach the store. */
export function assertValidKey(key: string): void {
  const [area = '', id = '', ...rest] = key.split('/');
  const valid = rest.length === 0 && (OBJECT_AREAS as readonly string[]).includes(area) && OBJECT_ID_PATTERN.test(id);
  if (!valid) throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
}

/** Passes bytes through and fails with ObjectTooLargeError as soon as more than `limit` went by. */
export class ByteLimit extends Transform {
  bytes = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      callback(new ObjectTooLargeError(this.limit));
      return;
    }
    callback(null, chunk);
  }
}
