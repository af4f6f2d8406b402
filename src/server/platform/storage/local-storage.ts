import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import send from '@fastify/send';
import { FileStore } from '@tus/file-store';
import { ERRORS, isPathInsideDirectory } from '@tus/utils';
import {
  assertValidKey,
  ByteLimit,
  dispositionOf,
  STORED_FILE_CSP,
  ObjectNotFoundError,
  RangeNotSatisfiableError,
  type ObjectStorage,
  type Served,
  type ServeOptions,
} from './object-storage';

/** Chunk size for reading and writing files: large chunks mean few system calls per megabyte. */
const FILE_CHUNK_BYTES = 1024 * 1024;

/** How many bytes of a resumable upload may wait for the disk while one write is under way. */
const RESUMABLE_WRITE_QUEUE_BYTES = 1024 * 1024;

/**
 * tus's FileStore with a queue in front of the file (issue 27, decision 165). tus's own `write`
 * pipes through a counting Transform into a write stream with the default 16 KiB mark: every
 * 64 KiB chunk off the socket filled it, so the whole chain from the socket down waited for that
 * one write to come back from the thread pool before the next chunk moved — the server's thread
 * sat idle half the upload. With 1 MiB allowed to wait, chunks that arrive during a write go to
 * the disk together in one `writev` (no copy into bigger buffers, which cost more system time,
 * decision 164), and the socket keeps being read meanwhile. The bytes, their offset and the
 * refusal on a failed write are tus's.
 */
class ResumableFileStore extends FileStore {
  constructor(private readonly root: string) {
    super({ directory: root });
  }

  override async write(readable: Readable, fileId: string, offset: number): Promise<number> {
    const file = path.join(this.root, fileId);
    if (!isPathInsideDirectory(this.root, file)) throw ERRORS.FILE_NOT_FOUND;
    const writable = createWriteStream(file, { flags: 'r+', start: offset, highWaterMark: RESUMABLE_WRITE_QUEUE_BYTES });
    try {
      await pipeline(readable, writable);
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    return offset + writable.bytesWritten;
  }
}

/**
 * Files on local disk under `root` (DATA_DIR/objects). Writes go to `root/tmp` first and are
 * renamed into place, so a reader never sees half a file. The temporary file is named after its
 * key, so one interrupted by a crash is found and removed with its upload (`delete`), and a
 * retried upload simply starts it again.
 */
export class LocalObjectStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  readonly browserOrigins: string[] = [];
  readonly resumable: ResumableFileStore;
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
    // tus keeps an upload's bytes at root/<key> and its description at root/<key>.json.
    this.resumable = new ResumableFileStore(root);
  }

  /** The file of a key; the key's shape (checked here) keeps it inside `root`. */
  private pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, key);
  }

  /** Where the bytes of `key` are written before they are renamed into place. */
  private tmpPathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.tmpDir, key.replace('/', '~'));
  }

  async presignUpload(_key: string, _expiresInSeconds: number): Promise<undefined> {
    return undefined;
  }

  async receive(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const tmp = this.tmpPathOf(key);
    await mkdir(this.tmpDir, { recursive: true });
    await mkdir(path.dirname(target), { recursive: true });
    const limit = new ByteLimit(maxBytes);
    // The caller holds the upload's claim, so an old temporary file is a crashed attempt's.
    const file = createWriteStream(tmp, { flags: 'w', mode: 0o600, highWaterMark: FILE_CHUNK_BYTES });
    try {
      await pipeline(body, limit, file);
      await rename(tmp, target);
      return { size: limit.bytes };
    } catch (error) {
      // A body refused early can fail the pipeline while the file is still being opened; the
      // open then creates the file after an immediate rm. Wait for the stream to close first.
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async check(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream({ ...range, highWaterMark: FILE_CHUNK_BYTES });
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  /** @fastify/send answers Range (206/416), ETag and If-None-Match (304), and never leaves `root`. */
  async serve(key: string, request: IncomingMessage, options: ServeOptions): Promise<Served> {
    assertValidKey(key);
    const result = await send(withoutMalformedRange(request), `/${key}`, {
      root: this.root,
      etag: true,
      lastModified: true,
      cacheControl: false,
      dotfiles: 'deny',
      index: false,
      highWaterMark: FILE_CHUNK_BYTES,
    });
    if (result.type === 'error' && result.statusCode === 416) {
      throw new RangeNotSatisfiableError(Number(/\/(\d+)$/.exec(String(result.headers['Content-Range']))?.[1] ?? 0));
    }
    if (result.type === 'error') throw new ObjectNotFoundError(key);
    const headers = { ...(result.headers as Record<string, string | number>) };
    if (result.statusCode === 200 || result.statusCode === 206) {
      headers['content-type'] = options.contentType;
      headers['content-disposition'] = options.contentDisposition ?? dispositionOf(options.contentType);
      headers['content-security-policy'] = STORED_FILE_CSP;
    }
    return { statusCode: result.statusCode, headers, stream: result.stream };
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(this.pathOf(from), target);
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(from);
      throw error;
    }
    // What a resumable upload kept beside the bytes (tus's `.json`) describes an object no longer there.
    await this.delete([from]);
  }

  async delete(keys: string[]): Promise<void> {
    const files = keys.flatMap((key) => [this.pathOf(key), `${this.pathOf(key)}.json`, this.tmpPathOf(key)]);
    await Promise.all(files.map((file) => rm(file, { force: true })));
  }
}

/** One range-spec of RFC 9110 §14.1.1: `first-last`, `first-` or `-suffix`, with last ≥ first. */
const RANGE_SPEC = /^(?:(\d+)-(\d*)|-\d+)$/;

/**
 * The request as @fastify/send should see it: a `bytes` Range that is not a well-formed range set
 * is ignored (RFC 9110 §14.2), where send would answer 416 to some and read others its own way
 * (`bytes=1-2-3` as 1–2). Only well-formed ranges reach it, to be served (206) or refused (416).
 */
function withoutMalformedRange(request: IncomingMessage): IncomingMessage {
  const range = request.headers.range;
  if (range === undefined || !/^ *bytes=/.test(range)) return request;
  const specs = range
    .slice(range.indexOf('=') + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  const wellFormed =
    specs.length > 0 &&
    specs.every((spec) => {
      const match = RANGE_SPEC.exec(spec);
      return match !== null && (match[2] === undefined || match[2] === '' || BigInt(match[2]) >= BigInt(match[1]!));
    });
  if (wellFormed) return request;
  const { range: _ignored, ...headers } = request.headers;
  return { method: request.method, headers } as IncomingMessage;
}

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';
