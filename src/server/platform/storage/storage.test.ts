import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectStorage } from './local-storage';
import { objectKey, ObjectNotFoundError, ObjectTooLargeError, type ObjectStorage } from './object-storage';
import { S3ObjectStorage } from './s3-storage';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { waitFor } from '../../test/kit';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A body of `size` bytes that arrives in chunks, with no length known in advance. */
function chunkedBody(size: number, chunk = 64 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(chunk, size - sent);
      sent += n;
      this.push(Buffer.alloc(n, 0x61));
    },
  });
}

let counter = 0;
const freshId = () => `contract-${Date.now()}-${counter++}`;

let localRoot: string;
let s3: TestS3Server;
beforeAll(async () => {
  localRoot = mkdtempSync(path.join(os.tmpdir(), 'hub-objects-'));
  s3 = await startS3Server();
});
afterAll(async () => {
  rmSync(localRoot, { recursive: true, force: true });
  await s3.close();
});

// The same contract for both drivers: what the upload routes rely on.
describe.each([
  ['local', () => new LocalObjectStorage(localRoot)],
  ['s3', () => new S3ObjectStorage(s3.options)],
])('%s object storage', (_name, make: () => ObjectStorage) => {
  let storage: ObjectStorage;
  beforeAll(() => {
    storage = make();
  });

  it('stores a streamed body, reports its size, reads it whole and by range', async () => {
    const key = objectKey('uploads', freshId());
    const { size } = await storage.receive(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]), 1024);
    expect(size).toBe(11);
    expect(await storage.check(key)).toEqual({ size: 11 });
    expect(await text(await storage.read(key))).toBe('hello world');
    expect(await text(await storage.read(key, { start: 6, end: 10 }))).toBe('world');
  });

  it('streams a multi-megabyte body of unknown length', async () => {
    const key = objectKey('uploads', freshId());
    const size = 6 * 1024 * 1024 + 123;
    expect(await storage.receive(key, chunkedBody(size), 10 * 1024 * 1024)).toEqual({ size });
    expect(await storage.check(key)).toEqual({ size });
  });

  it('refuses a body over the limit while streaming and keeps nothing', async () => {
    const key = objectKey('uploads', freshId());
    await expect(storage.receive(key, chunkedBody(300 * 1024), 256 * 1024)).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await storage.check(key)).toBeNull();
  });

  it('moves an object to another key', async () => {
    const id = freshId();
    await storage.receive(objectKey('incoming', id), Readable.from([Buffer.from('bytes')]), 1024);
    await storage.move(objectKey('incoming', id), objectKey('uploads', id));
    expect(await storage.check(objectKey('incoming', id))).toBeNull();
    expect(await text(await storage.read(objectKey('uploads', id)))).toBe('bytes');
  });

  it('answers missing objects: head null, read and move ObjectNotFoundError, delete quietly', async () => {
    const key = objectKey('uploads', freshId());
    expect(await storage.check(key)).toBeNull();
    await expect(storage.read(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.move(key, objectKey('incoming', freshId()))).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.delete([key])).resolves.toBeUndefined();
  });

  it('deletes objects', async () => {
    const keys = [objectKey('uploads', freshId()), objectKey('incoming', freshId())];
    for (const key of keys) await storage.receive(key, Readable.from([Buffer.from('x')]), 10);
    await storage.delete(keys);
    for (const key of keys) expect(await storage.check(key)).toBeNull();
  });

  it.each(['../etc/passwd', 'uploads/../../etc/passwd', 'uploads/a/b', '/uploads/abc', 'other/abc', 'uploads/'])(
    'refuses the key %j',
    async (key) => {
      await expect(storage.check(key)).rejects.toThrow(/Invalid object key/);
      await expect(storage.receive(key, Readable.from([Buffer.from('x')]), 10)).rejects.toThrow(/Invalid object key/);
      await expect(storage.delete([key])).rejects.toThrow(/Invalid object key/);
    },
  );
});

describe('local object storage', () => {
  it('leaves no temporary file behind after a refused body', async () => {
    const storage = new LocalObjectStorage(localRoot);
    const key = objectKey('uploads', freshId());
    await expect(storage.receive(key, chunkedBody(2048), 1024)).rejects.toBeInstanceOf(ObjectTooLargeError);
    // Only this write's file: the shared folder may still hold another test's write being cleaned up.
    expect(readdirSync(path.join(localRoot, 'tmp'))).not.toContain(key.replace('/', '~'));
  });

  it('has no presigned upload URL: the bytes come through this server', async () => {
    const storage = new LocalObjectStorage(localRoot);
    expect(await storage.presignUpload(objectKey('incoming', freshId()), 60)).toBeUndefined();
  });

  it('removes the temporary file a crashed write left, with its key', async () => {
    const storage = new LocalObjectStorage(localRoot);
    const key = objectKey('incoming', freshId());
    // What a kill -9 halfway through `receive` leaves behind.
    const body = new PassThrough();
    const writing = storage.receive(key, body, 1024 * 1024);
    body.write(Buffer.alloc(1000));
    await waitFor(() => readdirSync(path.join(localRoot, 'tmp')).includes(key.replace('/', '~')), { what: 'the temporary file' });
    await storage.delete([key]);
    expect(readdirSync(path.join(localRoot, 'tmp'))).not.toContain(key.replace('/', '~'));
    body.destroy();
    await writing.catch(() => {});
  });

  it('serves the bytes itself, with its Content-Type, Range and an ETag', async () => {
    const storage = new LocalObjectStorage(localRoot);
    const key = objectKey('uploads', freshId());
    await storage.receive(key, Readable.from([Buffer.from('served bytes')]), 1024);
    const request = (headers: Record<string, string>) => Object.assign(Readable.from([]), { headers, method: 'GET', url: '/' });
    const whole = await storage.serve(key, request({}) as never, { contentType: 'audio/mpeg', expiresInSeconds: 60 });
    if ('redirect' in whole) throw new Error('expected the bytes');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(await text(whole.stream)).toBe('served bytes');
    const part = await storage.serve(key, request({ range: 'bytes=7-' }) as never, { contentType: 'audio/mpeg', expiresInSeconds: 60 });
    if ('redirect' in part) throw new Error('expected the bytes');
    expect(part.statusCode).toBe(206);
    expect(await text(part.stream)).toBe('bytes');
    expect(whole.headers.ETag).toBeTruthy();
    await expect(storage.serve(objectKey('uploads', freshId()), request({}) as never, { contentType: 'x/y', expiresInSeconds: 1 })).rejects.toBeInstanceOf(ObjectNotFoundError);
  });
});

describe('S3 object storage presigned URLs', () => {
  it('lets a client PUT to a presigned URL and GET ranges and ETags from a presigned URL', async () => {
    const storage = new S3ObjectStorage(s3.options);
    const key = objectKey('incoming', freshId());
    const putUrl = await storage.presignUpload(key, 60);
    expect(putUrl).toContain('X-Amz-Signature=');
    const put = await fetch(putUrl, { method: 'PUT', body: 'presigned bytes' });
    expect(put.status).toBe(200);
    expect(await storage.check(key)).toEqual({ size: 15 });

    const served = await storage.serve(key, {} as never, { contentType: 'audio/mpeg', expiresInSeconds: 60 });
    if (!('redirect' in served)) throw new Error('expected a presigned redirect');
    const getUrl = served.redirect;
    const whole = await fetch(getUrl);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(await whole.text()).toBe('presigned bytes');
    const etag = whole.headers.get('etag')!;
    expect(etag).toBeTruthy();

    const partial = await fetch(getUrl, { headers: { range: 'bytes=10-' } });
    expect(partial.status).toBe(206);
    expect(await partial.text()).toBe('bytes');
    const again = await fetch(getUrl, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});
