import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LIMITS } from '@shared/submissions';
import { uploads } from '../../platform/db/schema';
import { RATE_LIMITS } from '../../platform/rate-limits';
import { videoHeaderBytes } from '../../test/file-fixtures';
import { createArtist, createTestApp, secondInstance, sessionCookie, type TestApp } from '../../test/helpers';

/**
 * CONTRACT §23 "tus, whole": the protocol's discovery (OPTIONS), `Tus-Resumable` on every
 * answer, the checksum and expiration extensions; and tus-js-client (the protocol's reference
 * client, nobody here wrote it) resuming after an abort and after the server restarted.
 */
const KB = 1024;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

let t: TestApp;
let origin: string;
let port: number;
let cookie: string;
let restarted: { app: FastifyInstance; close(): Promise<void> } | undefined;

beforeAll(async () => {
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The public URL is the one the client reaches, so the upload URLs tus answers are usable as given.
  t = await createTestApp({ PUBLIC_URL: origin });
  await t.app.listen({ port, host: '127.0.0.1' });
  cookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
});
afterAll(async () => {
  await restarted?.close();
  await t.close();
});

const headers = (extra: Record<string, string> = {}) => ({ cookie, origin, 'tus-resumable': '1.0.0', ...extra });

async function create(size: number): Promise<string> {
  const res = await fetch(`${origin}/api/video-uploads`, { method: 'POST', headers: headers({ 'upload-length': String(size) }) });
  expect(res.status).toBe(201);
  return res.headers.get('location')!;
}

const patch = (url: string, offset: number, body: Buffer, extra: Record<string, string> = {}) =>
  fetch(url, {
    method: 'PATCH',
    headers: headers({ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...extra }),
    body: new Uint8Array(body),
  });

const offsetOf = async (url: string) => Number((await fetch(url, { method: 'HEAD', headers: headers() })).headers.get('upload-offset'));
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('base64');

describe('tus, whole', () => {
  it('OPTIONS announces the version, the extensions, the checksum algorithms and the largest upload, signed in or not', async () => {
    const created = await create(100);
    for (const url of [`${origin}/api/video-uploads`, created]) {
      const res = await fetch(url, { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('tus-resumable')).toBe('1.0.0');
      expect(res.headers.get('tus-version')).toBe('1.0.0');
      expect(res.headers.get('tus-extension')!.split(',')).toEqual(expect.arrayContaining(['creation', 'termination', 'checksum', 'expiration']));
      expect(res.headers.get('tus-checksum-algorithm')!.split(',')).toContain('sha1');
      expect(res.headers.get('tus-max-size')).toBe(String(FILE_LIMITS.videoBytes));
    }
  });

  it('says Tus-Resumable on refusals too: 401 signed out, 403 on a used URL, 412 on a wrong version', async () => {
    const created = await create(10);
    const signedOut = await fetch(created, { method: 'HEAD', headers: { origin, 'tus-resumable': '1.0.0' } });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get('tus-resumable')).toBe('1.0.0');
    const id = new URL(created).pathname.split('/').pop()!;
    await t.db.update(uploads).set({ uploadExpiresAt: new Date(Date.now() - 1000) }).where(eq(uploads.id, id));
    const expired = await patch(created, 0, Buffer.alloc(10));
    expect(expired.status).toBe(403);
    expect(expired.headers.get('tus-resumable')).toBe('1.0.0');
    const wrongVersion = await fetch(created, { method: 'HEAD', headers: headers({ 'tus-resumable': '0.2.2' }) });
    expect(wrongVersion.status).toBe(412);
    expect(wrongVersion.headers.get('tus-resumable')).toBe('1.0.0');
  });

  it('says Tus-Resumable on every other refusal: a foreign Origin (403), a size past the limit (413), an unknown upload (404), a wrong offset (409), too many uploads (429)', async () => {
    const created = await create(10);
    const foreign = { ...headers(), origin: 'https://evil.example' };
    const refusals: [string, Response, number][] = [
      ['POST from a foreign origin', await fetch(`${origin}/api/video-uploads`, { method: 'POST', headers: { ...foreign, 'upload-length': '10' } }), 403],
      ['PATCH from a foreign origin', await fetch(created, { method: 'PATCH', headers: { ...foreign, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: new Uint8Array(10) }), 403],
      ['DELETE from a foreign origin', await fetch(created, { method: 'DELETE', headers: foreign }), 403],
      ['an Upload-Length past the limit', await fetch(`${origin}/api/video-uploads`, { method: 'POST', headers: headers({ 'upload-length': String(FILE_LIMITS.videoBytes + 1) }) }), 413],
      ['an unknown upload', await fetch(`${origin}/api/video-uploads/${'x'.repeat(21)}`, { method: 'HEAD', headers: headers() }), 404],
      ['a wrong offset', await patch(created, 5, Buffer.alloc(5)), 409],
    ];
    for (const [what, res, status] of refusals) {
      expect(res.status, what).toBe(status);
      expect(res.headers.get('tus-resumable'), what).toBe('1.0.0');
    }
    // The user's own limit of uploads started: the answers past it are refusals of an upload endpoint too.
    const other = await sessionCookie(t.app, t.db, await createArtist(t.db));
    let limited: Response | undefined;
    for (let i = 0; i <= RATE_LIMITS.videoUploads.max && !limited; i++) {
      const res = await fetch(`${origin}/api/video-uploads`, { method: 'POST', headers: { ...headers({ 'upload-length': '1' }), cookie: other } });
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(limited!.headers.get('tus-resumable')).toBe('1.0.0');
  });

  it('a chunk whose Upload-Checksum does not match → 460, discarded, the offset unchanged; a matching one is kept', async () => {
    const created = await create(20 * KB);
    const first = randomBytes(10 * KB);
    expect((await patch(created, 0, first, { 'upload-checksum': `sha1 ${sha1(first)}` })).status).toBe(204);
    const second = randomBytes(10 * KB);
    const wrong = await patch(created, first.length, second, { 'upload-checksum': `sha1 ${sha1(first)}` });
    expect(wrong.status).toBe(460);
    expect(await wrong.json()).toMatchObject({ code: 'upload_checksum_mismatch' });
    expect(await offsetOf(created)).toBe(first.length);
    const unknown = await patch(created, first.length, second, { 'upload-checksum': `crc99 ${sha1(second)}` });
    expect(unknown.status).toBe(400);
    expect(await offsetOf(created)).toBe(first.length);
    const right = await patch(created, first.length, second, { 'upload-checksum': `sha1 ${sha1(second)}` });
    expect(right.status).toBe(204);
    expect(Number(right.headers.get('upload-offset'))).toBe(20 * KB);
  });

  it('announces when the upload URL expires (Upload-Expires), at creation and on every PATCH', async () => {
    const res = await fetch(`${origin}/api/video-uploads`, { method: 'POST', headers: headers({ 'upload-length': '100' }) });
    const expires = Date.parse(res.headers.get('upload-expires')!);
    const id = new URL(res.headers.get('location')!).pathname.split('/').pop()!;
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, id));
    expect(expires).toBe(Math.floor(row!.uploadExpiresAt.getTime() / 1000) * 1000);
    expect(expires).toBeGreaterThan(Date.now());
    const patched = await patch(res.headers.get('location')!, 0, Buffer.alloc(50));
    expect(Date.parse(patched.headers.get('upload-expires')!)).toBe(expires);
  });
});

describe('tus-js-client', () => {
  const video = Buffer.concat([videoHeaderBytes(), randomBytes(3 * 1024 * KB)]);

  /** Uploads `video` with tus-js-client; `stopAt` aborts once that many bytes were confirmed. */
  function upload(options: { uploadUrl?: string; stopAt?: number }): Promise<{ url: string; finished: boolean }> {
    return new Promise((resolve, reject) => {
      const client: tus.Upload = new tus.Upload(video, {
        endpoint: `${origin}/api/video-uploads`,
        uploadUrl: options.uploadUrl ?? null,
        chunkSize: 256 * KB,
        retryDelays: [],
        headers: { cookie, origin },
        metadata: { filename: 'clip.mp4' },
        onChunkComplete: (_chunk, accepted) => {
          if (options.stopAt !== undefined && accepted >= options.stopAt) {
            void client.abort().then(() => resolve({ url: client.url!, finished: false }));
          }
        },
        onSuccess: () => resolve({ url: client.url!, finished: true }),
        onError: reject,
      });
      client.start();
    });
  }

  const videoFileOf = async (app: FastifyInstance, url: string) => {
    const res = await app.inject({ method: 'PUT', url: '/api/video-files', headers: { cookie, origin }, payload: { videoFileURL: url, fileName: 'clip.mp4', fileSize: 1 } });
    expect(res.statusCode).toBe(200);
    const download = await app.inject({ url: (res.json() as { objectPath: string }).objectPath, headers: { cookie } });
    return download.rawPayload;
  };

  it('resumes after an abort from the bytes the server has, byte for byte', async () => {
    const aborted = await upload({ stopAt: video.length / 3 });
    expect(aborted.finished).toBe(false);
    const kept = await offsetOf(aborted.url);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(video.length);
    const resumed = await upload({ uploadUrl: aborted.url });
    expect(resumed).toEqual({ url: aborted.url, finished: true });
    expect((await videoFileOf(t.app, aborted.url)).equals(video)).toBe(true);
  });

  it('resumes after the server restarted, byte for byte', async () => {
    const aborted = await upload({ stopAt: video.length / 2 });
    const kept = await offsetOf(aborted.url);
    expect(kept).toBeGreaterThan(0);
    // The server stops; another one starts on the same database, files and address.
    await t.app.close();
    restarted = await secondInstance(t);
    await restarted.app.listen({ port, host: '127.0.0.1' });
    expect(await offsetOf(aborted.url)).toBe(kept);
    const resumed = await upload({ uploadUrl: aborted.url });
    expect(resumed.finished).toBe(true);
    expect((await videoFileOf(restarted.app, aborted.url)).equals(video)).toBe(true);
  });
});
