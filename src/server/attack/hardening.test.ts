import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@shared/errors';
import { CLOSE_TOO_MANY_SOCKETS } from '@shared/live-events';
import { MAX_SOCKETS_PER_SESSION } from '../platform/realtime/hub';
import { pngBytes, videoHeaderBytes } from '../test/file-fixtures';
import { createAdmin, createArtist, createSubmissionRow, createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../test/helpers';
import { uploadDeliverable } from '../test/production-fixtures';
import { startS3Server, type TestS3Server } from '../test/s3-server';
import { waitFor } from '../test/kit';
import { openSocket, type TestSocket } from '../test/test-sockets';

/**
 * Issue 22: what an outside probe found in the resumable uploads, the file downloads, the
 * request bodies, the ZIP names and the live socket. Over real HTTP where the finding lives on
 * a socket (slow bodies, tus, WebSockets).
 */

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  origin: string,
  method: string,
  pathname: string,
  options: { cookie?: string; headers?: Record<string, string | number>; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${pathname}`, {
      method,
      headers: { origin: TEST_ORIGIN, ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The API's error shape (CONTRACT §2): JSON `{message, code}` with a known code, never plain text. */
function expectApiError(answer: Answer, status: number, code?: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as { message: unknown; code: unknown };
  expect(typeof body.message).toBe('string');
  expect(ERROR_CODES).toContain(body.code);
  if (code) expect(body.code).toBe(code);
}

const TUS = { 'tus-resumable': '1.0.0' };
const OCTETS = 'application/offset+octet-stream';
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

describe.each(['local', 's3'] as const)('resumable uploads on %s storage', (driver) => {
  let s3: TestS3Server | undefined;
  let t: TestApp;
  let origin: string;
  let cookie: string;
  let victimCookie: string;

  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3Server();
    t = await createTestApp(s3?.env ?? {});
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    cookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
    victimCookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  async function create(size: number, as: string, headers: Record<string, string> = {}) {
    const res = await request(origin, 'POST', '/api/video-uploads', { cookie: as, headers: { ...TUS, 'upload-length': size, ...headers } });
    expect(res.status, res.body).toBe(201);
    const pathname = new URL(res.headers.location!).pathname;
    return { pathname, id: pathname.split('/').pop()! };
  }

  const patch = (pathname: string, as: string, offset: number, body: Buffer) =>
    request(origin, 'PATCH', pathname, {
      cookie: as,
      headers: { ...TUS, 'upload-offset': offset, 'content-type': OCTETS, 'content-length': body.length },
      body,
    });

  it('finding 1: acts only on the upload the guard checked, whatever the query string says', async () => {
    const own = await create(1000, cookie);
    const victim = await create(2000, victimCookie, { 'upload-metadata': metadata({ filename: 'victim-secret.mp4' }) });
    expect((await patch(victim.pathname, victimCookie, 0, Buffer.alloc(10, 1))).status).toBe(204);

    for (const confused of [`${own.pathname}?x=/${victim.id}`, `${own.pathname}?x=/${victim.id}/`, `${own.pathname}?a=1&b=/incoming/${victim.id}`]) {
      // HEAD tells the caller about their own upload, never the victim's.
      const head = await request(origin, 'HEAD', confused, { cookie, headers: TUS });
      expect(head.status).toBe(200);
      expect(head.headers['upload-offset']).toBe('0');
      expect(head.headers['upload-length']).toBe('1000');
      expect(head.headers['upload-metadata'] ?? '').not.toContain(Buffer.from('victim-secret.mp4').toString('base64'));

      // PATCH at the victim's offset: a conflict with the caller's own upload, nothing written to the victim's.
      const write = await patch(confused, cookie, 10, Buffer.from('EVIL'));
      expectApiError(write, 409, 'upload_offset_conflict');
    }
    const victimHead = await request(origin, 'HEAD', victim.pathname, { cookie: victimCookie, headers: TUS });
    expect(victimHead.headers['upload-offset']).toBe('10');

    // A PATCH that does write lands in the caller's own upload.
    expect((await patch(`${own.pathname}?x=/${victim.id}`, cookie, 0, Buffer.alloc(5, 2))).status).toBe(204);
    expect((await request(origin, 'HEAD', own.pathname, { cookie, headers: TUS })).headers['upload-offset']).toBe('5');
    expect((await request(origin, 'HEAD', victim.pathname, { cookie: victimCookie, headers: TUS })).headers['upload-offset']).toBe('10');

    // DELETE through a confused URL removes the caller's own upload only.
    expect((await request(origin, 'DELETE', `${own.pathname}?x=/${victim.id}`, { cookie, headers: TUS })).status).toBe(204);
    expect((await request(origin, 'HEAD', victim.pathname, { cookie: victimCookie, headers: TUS })).status).toBe(200);
  });

  it('finding 8: answers every refusal as JSON {message, code} with a 4xx, Upload-Concat included', async () => {
    for (const concat of ['partial', 'final;/api/video-uploads/x /api/video-uploads/y']) {
      const res = await request(origin, 'POST', '/api/video-uploads', { cookie, headers: { ...TUS, 'upload-length': 10, 'upload-concat': concat } });
      expectApiError(res, 400, 'upload_concat_not_supported');
    }
    expectApiError(await request(origin, 'POST', '/api/video-uploads', { cookie, headers: { 'upload-length': 10 } }), 412, 'tus_version_unsupported');
    expectApiError(await request(origin, 'POST', '/api/video-uploads', { cookie, headers: { ...TUS, 'upload-defer-length': 1 } }), 400);
    expectApiError(
      await request(origin, 'POST', '/api/video-uploads', { cookie, headers: { ...TUS, 'upload-length': 10, 'upload-metadata': 'no base64 here,,' } }),
      400,
      'invalid_upload_header',
    );
    expectApiError(await request(origin, 'POST', '/api/video-uploads', { cookie, headers: { ...TUS, 'upload-length': '1e3' } }), 400);

    const upload = await create(100, cookie);
    expectApiError(await patch(upload.pathname, cookie, 50, Buffer.alloc(10)), 409, 'upload_offset_conflict');
    expectApiError(await patch(upload.pathname, cookie, 0, Buffer.alloc(150)), 413, 'file_too_large');
    expectApiError(
      await request(origin, 'PATCH', upload.pathname, { cookie, headers: { ...TUS, 'upload-offset': 'abc', 'content-type': OCTETS }, body: Buffer.alloc(1) }),
      400,
      'invalid_upload_header',
    );
    expectApiError(
      await request(origin, 'PATCH', upload.pathname, { cookie, headers: { ...TUS, 'upload-offset': 0, 'content-type': 'text/plain' }, body: Buffer.alloc(1) }),
      415,
    );
    expectApiError(
      await request(origin, 'PATCH', upload.pathname, { cookie, headers: { ...TUS, 'content-type': OCTETS }, body: Buffer.alloc(1) }),
      400,
      'invalid_upload_header',
    );
    expectApiError(
      await request(origin, 'PATCH', upload.pathname, { cookie, headers: { ...TUS, 'upload-offset': 0, 'content-type': OCTETS, 'upload-length': 200 }, body: Buffer.alloc(1) }),
      400,
    );
    const unknown = `/api/video-uploads/${'0'.repeat(8)}-0000-0000-0000-000000000000`;
    expectApiError(await patch(unknown, cookie, 0, Buffer.alloc(1)), 404, 'upload_not_found');
    // A HEAD answer has no body; its status and the protocol's header still say what happened.
    const head = await request(origin, 'HEAD', unknown, { cookie, headers: TUS });
    expect(head.status).toBe(404);
    expect(head.headers['tus-resumable']).toBe('1.0.0');
  });

  it('finding 10: removes what tus kept beside a finished upload once it is checked and recorded', async () => {
    const video = Buffer.concat([videoHeaderBytes(), Buffer.alloc(4000, 3)]);
    const upload = await create(video.length, cookie, { 'upload-metadata': metadata({ filename: 'clip.mp4' }) });
    expect((await patch(upload.pathname, cookie, 0, video)).status).toBe(204);
    const checked = await t.app.inject({
      method: 'PUT',
      url: '/api/video-files',
      headers: { cookie, origin: TEST_ORIGIN },
      payload: { videoFileURL: `${TEST_ORIGIN}${upload.pathname}`, fileName: 'clip.mp4', fileSize: video.length },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    if (driver === 'local') {
      const incoming = path.join(t.config.dataDir, 'objects', 'incoming');
      expect(existsSync(path.join(incoming, `${upload.id}.json`))).toBe(false);
      expect(existsSync(path.join(incoming, upload.id))).toBe(false);
      expect(existsSync(path.join(t.config.dataDir, 'objects', 'uploads', upload.id))).toBe(true);
    } else {
      const client = new S3Client({
        region: s3!.options.region,
        endpoint: s3!.options.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      for (const key of [`incoming/${upload.id}.info`, `incoming/${upload.id}`]) {
        await expect(client.send(new HeadObjectCommand({ Bucket: s3!.options.bucket, Key: key }))).rejects.toMatchObject({
          $metadata: { httpStatusCode: 404 },
        });
      }
      client.destroy();
    }
  });
});

describe('the rest of the surface (local storage)', () => {
  const logLines: { level: number; msg?: string; err?: { message?: string } }[] = [];
  let t: TestApp;
  let origin: string;
  let cookie: string;
  let adminCookie: string;

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        // Short, so that a slow body is cut within the test's time; production uses BODY_PROGRESS.
        bodyProgress: { windowMs: 500, minBytes: 4096 },
        logger: {
          level: 'info',
          stream: new Writable({
            write(chunk: Buffer, _encoding, done) {
              for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as (typeof logLines)[number]);
              done();
            },
          }),
        },
      },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    cookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
    adminCookie = await sessionCookie(t.app, t.db, await createAdmin(t.db));
  }, 60_000);
  afterAll(() => t?.close());

  /** Opens a raw connection, sends `head`, then one byte every `everyMs`; resolves with how long the server kept it. */
  function dripBody(head: string, everyMs: number, giveUpMs: number): Promise<{ closedAfterMs: number | null }> {
    return new Promise((resolve) => {
      const { port } = t.app.server.address() as AddressInfo;
      const socket = net.connect(port, '127.0.0.1');
      const started = Date.now();
      let drip: ReturnType<typeof setInterval> | undefined;
      const finish = (closedAfterMs: number | null) => {
        clearInterval(drip);
        clearTimeout(giveUp);
        socket.destroy();
        resolve({ closedAfterMs });
      };
      const giveUp = setTimeout(() => finish(null), giveUpMs);
      socket.on('close', () => finish(Date.now() - started));
      socket.on('error', () => {});
      socket.on('connect', () => {
        socket.write(head);
        drip = setInterval(() => socket.write('x'), everyMs);
      });
    });
  }

  it('finding 6: cuts a request body that arrives a byte at a time, JSON or upload', async () => {
    const json = await dripBody(
      `POST /api/login HTTP/1.1\r\nHost: localhost\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      100,
      6000,
    );
    expect(json.closedAfterMs).not.toBeNull();
    expect(json.closedAfterMs!).toBeLessThan(3000);

    const created = await request(origin, 'POST', '/api/video-uploads', { cookie, headers: { ...TUS, 'upload-length': 1000 } });
    const pathname = new URL(created.headers.location!).pathname;
    const tus = await dripBody(
      `PATCH ${pathname} HTTP/1.1\r\nHost: localhost\r\nOrigin: ${TEST_ORIGIN}\r\nCookie: ${cookie}\r\nTus-Resumable: 1.0.0\r\n` +
        `Upload-Offset: 0\r\nContent-Type: ${OCTETS}\r\nContent-Length: 1000\r\n\r\n`,
      100,
      6000,
    );
    expect(tus.closedAfterMs).not.toBeNull();
    expect(tus.closedAfterMs!).toBeLessThan(3000);
  });

  it('finding 6: lets a large upload through that keeps sending, for many times the window', async () => {
    const size = 6 * 1024 * 1024;
    const video = Buffer.concat([videoHeaderBytes(), Buffer.alloc(size - 32, 9)]);
    const created = await request(origin, 'POST', '/api/video-uploads', { cookie, headers: { ...TUS, 'upload-length': video.length } });
    const pathname = new URL(created.headers.location!).pathname;
    // 64 KiB every 40 ms: about 1.6 MB/s, so the body takes ~4 s, eight windows.
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${origin}${pathname}`, {
        method: 'PATCH',
        headers: { origin: TEST_ORIGIN, cookie, ...TUS, 'upload-offset': 0, 'content-type': OCTETS, 'content-length': video.length },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      let sent = 0;
      const timer = setInterval(() => {
        const end = Math.min(video.length, sent + 64 * 1024);
        req.write(video.subarray(sent, end));
        sent = end;
        if (sent === video.length) {
          clearInterval(timer);
          req.end();
        }
      }, 40);
    });
    expect(answer).toBe(204);
    const head = await request(origin, 'HEAD', pathname, { cookie, headers: TUS });
    expect(head.headers['upload-offset']).toBe(String(video.length));
  }, 30_000);

  async function storedPng(): Promise<{ objectPath: string; size: number }> {
    const issued = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie, origin: TEST_ORIGIN } });
    const url = new URL(issued.json().uploadURL);
    const bytes = pngBytes();
    await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { cookie, origin: TEST_ORIGIN, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    const checked = await t.app.inject({
      method: 'PUT',
      url: '/api/artwork-files',
      headers: { cookie, origin: TEST_ORIGIN },
      payload: { artworkFileURL: url.toString(), fileName: 'cover.png' },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    return { objectPath: checked.json().objectPath as string, size: bytes.length };
  }

  it('finding 7: an unsatisfiable Range is 416 with Content-Range bytes */size; a malformed one is ignored', async () => {
    const { objectPath, size } = await storedPng();
    for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, 'bytes=-0']) {
      const res = await request(origin, 'GET', objectPath, { cookie, headers: { range } });
      expectApiError(res, 416, 'range_not_satisfiable');
      expect(res.headers['content-range'], range).toBe(`bytes */${size}`);
    }
    for (const range of ['bytes=abc', 'bytes=5-2', 'bytes=--1', 'bytes=1-2-3', 'bytes=', 'bytes=0x10-']) {
      const res = await request(origin, 'GET', objectPath, { cookie, headers: { range } });
      expect(res.status, range).toBe(200);
      expect(res.headers['content-length'], range).toBe(String(size));
    }
    const satisfiable = await request(origin, 'GET', objectPath, { cookie, headers: { range: 'bytes=1-3' } });
    expect(satisfiable.status).toBe(206);
    expect(satisfiable.headers['content-range']).toBe(`bytes 1-3/${size}`);
  });

  it('finding 10: ZIP entry names of deliverables carry no control characters, quotes or path separators', async () => {
    const artist = await createArtist(t.db);
    const artistCookie = await sessionCookie(t.app, t.db, artist);
    const submission = await createSubmissionRow(t.db, artist, { pricingTier: 'professional', status: 'approved', paymentStatus: 'succeeded' });
    const names = ['evil\r\nX-Injected: 1.png', 'say "hi"\t.png', '../..\\up/../x.png', "it's fine.png"];
    const objectPaths: string[] = [];
    for (const name of names) {
      const res = await uploadDeliverable(t.app, adminCookie, pngBytes(), name);
      expect(res.statusCode, res.body).toBe(200);
      objectPaths.push(res.json().objectPath as string);
    }
    const delivered = await t.app.inject({
      method: 'POST',
      url: `/api/admin/submissions/${submission.id}/deliverables`,
      headers: { cookie: adminCookie, origin: TEST_ORIGIN },
      payload: { objectPaths },
    });
    expect(delivered.statusCode, delivered.body).toBe(201);
    const zip = await t.app.inject({ url: `/api/submissions/${submission.id}/deliverables.zip`, headers: { cookie: artistCookie } });
    expect(zip.statusCode).toBe(200);
    const entries = await zipEntryNames(zip.rawPayload);
    expect(entries).toHaveLength(names.length);
    for (const entry of entries) {
      // eslint-disable-next-line no-control-regex -- control characters are what is looked for
      expect(entry).not.toMatch(/[\u0000-\u001f\u007f"/\\]/);
      expect(entry.startsWith('.')).toBe(false);
    }
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries).toContain("it's fine.png");

    // Finding 7 on the other file route: a delivered file answers an unsatisfiable Range with 416 too.
    const [file] = (delivered.json() as { files: { url: string; size: number }[] }).files;
    const ranged = await request(origin, 'GET', file!.url, { cookie: artistCookie, headers: { range: `bytes=${file!.size}-` } });
    expectApiError(ranged, 416, 'range_not_satisfiable');
    expect(ranged.headers['content-range']).toBe(`bytes */${file!.size}`);
  });

  it('finding 11: caps the sockets of one session, refusing the extra one with a clear close code', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `ws://127.0.0.1:${port}/ws`;
    const sessionSockets: TestSocket[] = [];
    try {
      for (let i = 0; i < MAX_SOCKETS_PER_SESSION; i++) {
        const socket = await openSocket(url, { cookie, origin: TEST_ORIGIN });
        sessionSockets.push(socket);
        await socket.waitFor((e) => e.type === 'ready');
      }
      const extra = await openSocket(url, { cookie, origin: TEST_ORIGIN });
      sessionSockets.push(extra);
      const closed = await new Promise<number>((resolve) => extra.ws.once('close', (code) => resolve(code)));
      expect(closed).toBe(CLOSE_TOO_MANY_SOCKETS);
      expect(extra.events.map((e) => e.type)).not.toContain('ready');
      // Another session of the same user is not refused; the session's first sockets stay open
      // (looked at after that socket's whole handshake, which the server answered after the refusal).
      const sameUser = await openSocket(url, { cookie: adminCookie, origin: TEST_ORIGIN });
      sessionSockets.push(sameUser);
      await sameUser.waitFor((e) => e.type === 'ready');
      expect(sessionSockets.slice(0, MAX_SOCKETS_PER_SESSION).every((s) => s.ws.readyState === s.ws.OPEN)).toBe(true);
    } finally {
      await Promise.all(sessionSockets.map((s) => s.close()));
    }
  });

  it('finding 11: logs a too-large frame as the client’s fault (info), not as a server error', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const socket = await openSocket(`ws://127.0.0.1:${port}/ws`, { cookie: adminCookie, origin: TEST_ORIGIN });
    await socket.waitFor((e) => e.type === 'ready');
    const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    socket.ws.send('x'.repeat(70 * 1024));
    expect(await closed).toBe(1009);
    const lines = await waitFor(() => {
      const found = logLines.filter((line) => JSON.stringify(line).includes('Max payload size exceeded'));
      return found.length > 0 && found;
    }, { what: 'the log line of the too-large frame' });
    for (const line of lines) expect(line.level).toBeLessThan(50);
    expect(logLines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

function zipEntryNames(buffer: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: false, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
