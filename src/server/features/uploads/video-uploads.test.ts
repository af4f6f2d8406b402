import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LIMITS } from '@shared/submissions';
import { uploads, type UserRow } from '../../platform/db/schema';
import { createObjectStorage } from '../../platform/storage/create-storage';
import { textBytes, videoHeaderBytes, webmHeaderBytes } from '../../test/file-fixtures';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { removeUnattachedUploads } from '../../platform/storage/upload-files';
import { createArtist, createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { waitFor } from '../../test/kit';
import { FILE_RULES } from './file-types';

const MB = 1024 * 1024;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

// Resumable video uploads (tus) over real HTTP, on local disk and on S3 (s3rver), because what
// they are for — a connection that drops halfway — only exists on a real socket.
describe.each(['local', 's3'] as const)('resumable video uploads on %s storage', (driver) => {
  let s3: TestS3Server | undefined;
  let t: TestApp;
  let origin: string;
  let artist: UserRow;
  let cookie: string;
  let otherCookie: string;

  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3Server();
    t = await createTestApp(s3?.env ?? {});
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    artist = await createArtist(t.db);
    cookie = await sessionCookie(t.app, t.db, artist);
    otherCookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  /** One HTTP request; `drop` ends the connection after that many body bytes were written. */
  function request(
    method: string,
    pathname: string,
    options: { headers?: Record<string, string | number>; body?: Buffer; drop?: number; as?: string } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${origin}${pathname}`, {
        method,
        headers: { cookie: options.as ?? cookie, origin: TEST_ORIGIN, 'tus-resumable': '1.0.0', ...options.headers },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      if (options.drop !== undefined) {
        req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
        req.write(options.body!.subarray(0, options.drop), () => setTimeout(() => req.destroy(), 300));
        return;
      }
      req.on('error', reject);
      req.end(options.body);
    });
  }

  async function create(size: number, as = cookie): Promise<Answer & { path: string }> {
    const res = await request('POST', '/api/video-uploads', { as, headers: { 'upload-length': size } });
    return { ...res, path: res.headers.location ? new URL(res.headers.location).pathname : '' };
  }

  const patch = (pathname: string, offset: number, body: Buffer, drop?: number) =>
    request('PATCH', pathname, {
      headers: { 'upload-offset': offset, 'content-type': 'application/offset+octet-stream', 'content-length': body.length },
      body,
      drop,
    });

  /** The offset the server reports once the dropped request has been wound up (it may hold a lock briefly). */
  async function settledOffset(pathname: string): Promise<number> {
    const head = await waitFor(
      async () => {
        const answer = await request('HEAD', pathname);
        return answer.status === 200 && answer;
      },
      { timeoutMs: 5_000, what: 'the upload to be unlocked' },
    );
    return Number(head.headers['upload-offset']);
  }

  const normalise = (videoFileURL: string, as = cookie) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/video-files',
      headers: { cookie: as, origin: TEST_ORIGIN },
      payload: { videoFileURL, fileName: 'My Video.mp4', fileSize: 1 },
    });

  async function download(objectPath: string): Promise<Buffer> {
    const res = await fetch(`${origin}${objectPath}`, { headers: { cookie }, redirect: 'follow' });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  it('survives a connection dropped at 50%: the upload continues where it stopped', async () => {
    const video = Buffer.concat([videoHeaderBytes(), randomBytes(24 * MB - 32)]);
    const created = await create(video.length);
    expect(created.status).toBe(201);
    expect(created.path).toMatch(/^\/api\/video-uploads\/[0-9a-f-]{36}$/);

    const dropped = await patch(created.path, 0, video, video.length / 2);
    expect(dropped.status).toBe(0);
    const offset = await settledOffset(created.path);
    // What arrived is kept (on S3, whole parts plus the remainder tus keeps beside them).
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(video.length / 2);

    const rest = await patch(created.path, offset, video.subarray(offset));
    expect(rest.status).toBe(204);
    expect(Number(rest.headers['upload-offset'])).toBe(video.length);

    const res = await normalise(`${TEST_ORIGIN}${created.path}`);
    expect(res.statusCode).toBe(200);
    const { objectPath } = res.json() as { objectPath: string };
    const id = created.path.split('/').pop()!;
    expect(objectPath).toBe(`/objects/uploads/${id}`);
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, id));
    expect(row).toMatchObject({ userId: artist.id, status: 'stored', contentType: 'video/mp4', size: video.length, fileName: 'My Video.mp4' });
    expect(sha(await download(objectPath))).toBe(sha(video));

    // Single use: once checked, the upload URL takes no more bytes and tells nothing.
    expect((await patch(created.path, video.length, Buffer.from('x'))).status).toBe(403);
    expect((await request('HEAD', created.path)).status).toBe(403);
  });

  it.each([
    ['a MOV', videoHeaderBytes('qt  '), 'video/quicktime'],
    ['a WebM', webmHeaderBytes(), 'video/webm'],
  ])('accepts %s by its bytes', async (_name, header, contentType) => {
    const video = Buffer.concat([header, Buffer.alloc(1000, 1)]);
    const created = await create(video.length);
    expect((await patch(created.path, 0, video)).status).toBe(204);
    const res = await normalise(`${TEST_ORIGIN}${created.path}`);
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, created.path.split('/').pop()!));
    expect(row!.contentType).toBe(contentType);
  });

  it('refuses bytes that are not a video (415) and removes them', async () => {
    const created = await create(textBytes().length);
    expect((await patch(created.path, 0, textBytes())).status).toBe(204);
    const res = await normalise(`${TEST_ORIGIN}${created.path}`);
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(FILE_RULES.video.wrongType);
    const id = created.path.split('/').pop()!;
    expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toEqual([]);
    expect((await request('HEAD', created.path)).status).toBe(404);
  });

  it('answers 400 for a video whose bytes have not all arrived', async () => {
    const video = Buffer.concat([videoHeaderBytes(), Buffer.alloc(2000)]);
    const created = await create(video.length);
    expect((await patch(created.path, 0, video.subarray(0, 1000))).status).toBe(204);
    const res = await normalise(`${TEST_ORIGIN}${created.path}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('upload_not_received');
  });

  it('is bound to its user: others get 404, signed-out visitors 401', async () => {
    const created = await create(1000);
    expect((await request('HEAD', created.path, { as: otherCookie })).status).toBe(404);
    expect((await patch(created.path, 0, Buffer.alloc(10))).status).toBe(204);
    const theirs = await request('PATCH', created.path, {
      as: otherCookie,
      headers: { 'upload-offset': 10, 'content-type': 'application/offset+octet-stream' },
      body: Buffer.alloc(10),
    });
    expect(theirs.status).toBe(404);
    expect((await normalise(`${TEST_ORIGIN}${created.path}`, otherCookie)).statusCode).toBe(404);
    expect((await request('HEAD', created.path, { as: '' })).status).toBe(401);
    expect((await request('POST', '/api/video-uploads', { as: '', headers: { 'upload-length': 10 } })).status).toBe(401);
  });

  it('refuses more than 2 GiB before any byte (413), and a missing length (400)', async () => {
    const tooBig = await create(FILE_LIMITS.videoBytes + 1);
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body)).toEqual({ message: FILE_RULES.video.tooLarge, code: 'file_too_large' });
    const noLength = await request('POST', '/api/video-uploads');
    expect(noLength.status).toBe(400);
    expect(JSON.parse(noLength.body).code).toBe('upload_length_required');
  });

  it('can be abandoned (DELETE), and an unattached one is swept after 24 hours with what tus kept', async () => {
    const abandoned = await create(1000);
    expect((await request('DELETE', abandoned.path)).status).toBe(204);
    expect((await request('HEAD', abandoned.path)).status).toBe(404);

    const stale = await create(100 * 1024);
    expect((await patch(stale.path, 0, Buffer.alloc(50 * 1024))).status).toBe(204);
    const id = stale.path.split('/').pop()!;
    await t.db.update(uploads).set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(uploads.id, id));
    await removeUnattachedUploads(t.db, createObjectStorage(t.config));
    expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toEqual([]);
    if (driver === 'local') {
      const objects = path.join(t.config.dataDir, 'objects', 'incoming');
      expect(existsSync(path.join(objects, id))).toBe(false);
      expect(existsSync(path.join(objects, `${id}.json`))).toBe(false);
    } else {
      await expect(createObjectStorage(t.config).resumable.getUpload(`incoming/${id}`)).rejects.toBeTruthy();
    }
  });
});
