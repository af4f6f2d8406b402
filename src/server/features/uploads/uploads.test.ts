import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploads, type UserRow } from '../../platform/db/schema';
import {
  id3Mp3Bytes,
  jpegBytes,
  mp3Bytes,
  pngBytes,
  textBytes,
  wavBytes,
  webpBytes,
} from '../../test/file-fixtures';
import { removeUnattachedUploads } from '../../platform/storage/upload-files';
import { createObjectStorage } from '../../platform/storage/create-storage';
import { createAdmin, createArtist, createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { FILE_RULES } from './file-types';
import { errorText } from '@shared/errors';

let t: TestApp;
let artist: UserRow;
let other: UserRow;
let admin: UserRow;
let artistCookie: string;
let otherCookie: string;
let adminCookie: string;
let objectsDir: string;

beforeAll(async () => {
  t = await createTestApp();
  objectsDir = path.join(t.config.dataDir, 'objects');
  artist = await createArtist(t.db);
  other = await createArtist(t.db);
  admin = await createAdmin(t.db);
  artistCookie = await sessionCookie(t.app, t.db, artist);
  otherCookie = await sessionCookie(t.app, t.db, other);
  adminCookie = await sessionCookie(t.app, t.db, admin);
});
afterAll(() => t.close());

async function newUploadUrl(cookie = artistCookie): Promise<URL> {
  const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return new URL(res.json().uploadURL);
}

function putBytes(url: URL, body: Buffer | Readable, cookie = artistCookie, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    headers: { cookie, 'content-type': 'application/octet-stream', origin: TEST_ORIGIN, ...headers },
    payload: body,
  });
}

async function uploaded(bytes: Buffer, cookie = artistCookie): Promise<URL> {
  const url = await newUploadUrl(cookie);
  const res = await putBytes(url, bytes, cookie);
  expect(res.statusCode).toBe(200);
  return url;
}

function normalise(route: string, body: object, cookie = artistCookie) {
  return t.app.inject({ method: 'PUT', url: route, headers: { cookie, origin: TEST_ORIGIN }, payload: body });
}

async function storedMusic(bytes = mp3Bytes(), cookie = artistCookie): Promise<string> {
  const url = await uploaded(bytes, cookie);
  const res = await normalise('/api/music-files', { musicFileURL: url.toString(), fileName: 'song.mp3', fileSize: bytes.length }, cookie);
  expect(res.statusCode).toBe(200);
  return res.json().objectPath;
}

async function storedImage(bytes = pngBytes(), cookie = artistCookie): Promise<string> {
  const url = await uploaded(bytes, cookie);
  const res = await normalise('/api/artwork-files', { artworkFileURL: url.toString(), fileName: 'cover.png' }, cookie);
  expect(res.statusCode).toBe(200);
  return res.json().objectPath;
}

const uploadIdOf = (url: URL | string) => String(url).split('?')[0]!.split('/').pop()!;

/** A body of `size` bytes that arrives in chunks with no Content-Length, as a chunked upload. */
function chunkedBody(size: number, first: Buffer = Buffer.alloc(0)): Readable {
  let sent = 0;
  const chunk = Buffer.alloc(1024 * 1024);
  return new Readable({
    read() {
      if (sent === 0 && first.length) {
        sent += first.length;
        return this.push(first);
      }
      if (sent >= size) return this.push(null);
      const n = Math.min(chunk.length, size - sent);
      sent += n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

describe('POST /api/objects/upload', () => {
  it('needs a signed-in user (401)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload' });
    expect(res.statusCode).toBe(401);
  });

  it('answers a single-use upload URL of this server, bound to the user', async () => {
    const url = await newUploadUrl();
    expect(url.origin).toBe(TEST_ORIGIN);
    expect(url.pathname).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(url)));
    expect(row).toMatchObject({ userId: artist.id, status: 'pending', submissionId: null });
    expect(row!.uploadExpiresAt.getTime()).toBeGreaterThan(Date.now() + 10 * 60 * 1000);
  });
});

describe('PUT to the upload URL (local storage)', () => {
  it('stores the raw bytes, whatever the Content-Type, and reports their size', async () => {
    const url = await newUploadUrl();
    const res = await putBytes(url, mp3Bytes(), artistCookie, { 'content-type': 'audio/mpeg' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ size: mp3Bytes().length });
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(url)));
    expect(row).toMatchObject({ status: 'stored', size: mp3Bytes().length, contentType: null });
  });

  it('is single-use: a second PUT is refused (403)', async () => {
    const url = await uploaded(pngBytes());
    const again = await putBytes(url, textBytes());
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toBe(errorText('upload_url_used'));
    expect(again.json().code).toBe('upload_url_used');
  });

  it('refuses an expired upload URL (403)', async () => {
    const url = await newUploadUrl();
    await t.db.update(uploads).set({ uploadExpiresAt: new Date(Date.now() - 1000) }).where(eq(uploads.id, uploadIdOf(url)));
    const res = await putBytes(url, pngBytes());
    expect(res.statusCode).toBe(403);
    // The uploader retries this one with a fresh URL (src/shared/errors.ts).
    expect(res.json().code).toBe('upload_url_expired');
  });

  it('refuses the URL of another user (404) and signed-out requests (401)', async () => {
    const url = await newUploadUrl();
    expect((await putBytes(url, pngBytes(), otherCookie)).statusCode).toBe(404);
    const signedOut = await t.app.inject({ method: 'PUT', url: url.pathname + url.search, payload: pngBytes() });
    expect(signedOut.statusCode).toBe(401);
    // Still usable by its owner afterwards.
    expect((await putBytes(url, pngBytes())).statusCode).toBe(200);
  });

  it('refuses a wrong or missing token (404)', async () => {
    const url = await newUploadUrl();
    const forged = new URL(url);
    forged.searchParams.set('token', 'x'.repeat(43));
    expect((await putBytes(forged, pngBytes())).statusCode).toBe(404);
    expect((await putBytes(new URL(url.pathname, TEST_ORIGIN), pngBytes())).statusCode).toBe(404);
  });

  it('refuses a declared Content-Length over 100 MB before reading (413)', async () => {
    const url = await newUploadUrl();
    const res = await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { cookie: artistCookie, 'content-type': 'audio/mpeg', 'content-length': String(FILE_RULES.music.maxBytes + 1) },
      payload: Readable.from([mp3Bytes()]),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(FILE_RULES.music.tooLarge);
  });

  it('stops a body of unannounced length at 100 MB while streaming (413) and keeps nothing', async () => {
    const url = await newUploadUrl();
    const res = await putBytes(url, chunkedBody(FILE_RULES.music.maxBytes + 1, mp3Bytes()));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(FILE_RULES.music.tooLarge);
    expect(await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(url)))).toEqual([]);
    expect(existsSync(path.join(objectsDir, 'incoming', uploadIdOf(url)))).toBe(false);
    expect(readdirSync(path.join(objectsDir, 'tmp'))).toEqual([]);
  });
});

describe('PUT /api/music-files', () => {
  it.each([
    ['an MP3', mp3Bytes(), 'audio/mpeg'],
    ['an MP3 behind a large ID3 tag', id3Mp3Bytes(200_000), 'audio/mpeg'],
    ['a WAV', wavBytes(), 'audio/wav'],
  ])('accepts %s, recording its sniffed type, size and name', async (_name, bytes, contentType) => {
    const url = await uploaded(bytes);
    const res = await normalise('/api/music-files', { musicFileURL: url.toString(), fileName: 'My Song.mp3', fileSize: 1, authProvider: 'local' });
    expect(res.statusCode).toBe(200);
    const id = uploadIdOf(url);
    expect(res.json()).toEqual({ objectPath: `/objects/uploads/${id}` });
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, id));
    expect(row).toMatchObject({ status: 'stored', contentType, size: bytes.length, fileName: 'My Song.mp3' });
    expect(existsSync(path.join(objectsDir, 'uploads', id))).toBe(true);
    expect(existsSync(path.join(objectsDir, 'incoming', id))).toBe(false);
  });

  it('accepts the objectPath form too, and answers the same path again', async () => {
    const objectPath = await storedMusic();
    const res = await normalise('/api/music-files', { musicFileURL: objectPath });
    expect(res.json()).toEqual({ objectPath });
  });

  it('refuses a text file renamed .mp3 (415) and removes it', async () => {
    const url = await uploaded(textBytes());
    const res = await normalise('/api/music-files', { musicFileURL: url.toString(), fileName: 'song.mp3' });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(FILE_RULES.music.wrongType);
    expect(await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(url)))).toEqual([]);
    expect(existsSync(path.join(objectsDir, 'incoming', uploadIdOf(url)))).toBe(false);
  });

  it('refuses an image sent as music (415)', async () => {
    const url = await uploaded(pngBytes());
    expect((await normalise('/api/music-files', { musicFileURL: url.toString() })).statusCode).toBe(415);
  });

  it('refuses an already checked file of the wrong kind (415)', async () => {
    const objectPath = await storedImage();
    expect((await normalise('/api/music-files', { musicFileURL: objectPath })).statusCode).toBe(415);
  });

  it('refuses another user’s upload (404), one not uploaded yet (400), and a foreign URL (400)', async () => {
    const theirs = await uploaded(mp3Bytes(), otherCookie);
    expect((await normalise('/api/music-files', { musicFileURL: theirs.toString() })).statusCode).toBe(404);

    const empty = await newUploadUrl();
    const notYet = await normalise('/api/music-files', { musicFileURL: empty.toString() });
    expect(notYet.statusCode).toBe(400);
    expect(notYet.json().message).toBe(errorText('upload_not_received'));

    const foreign = await normalise('/api/music-files', { musicFileURL: 'https://example.com/song.mp3' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(errorText('not_an_upload'));
  });

  it('validates the body (400) and needs a signed-in user (401)', async () => {
    const res = await normalise('/api/music-files', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('musicFileURL');
    const signedOut = await t.app.inject({ method: 'PUT', url: '/api/music-files', payload: { musicFileURL: 'x' } });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe('PUT /api/artwork-files, /api/reference-files, /api/character-files', () => {
  it.each([
    ['PNG', pngBytes(), 'image/png'],
    ['JPEG', jpegBytes(), 'image/jpeg'],
    ['WEBP', webpBytes(), 'image/webp'],
  ])('accepts a %s artwork', async (_name, bytes, contentType) => {
    const url = await uploaded(bytes);
    const res = await normalise('/api/artwork-files', { artworkFileURL: url.toString(), fileName: 'cover' });
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(url)));
    expect(row!.contentType).toBe(contentType);
  });

  it('refuses an image over 10 MB (413) and removes it', async () => {
    const url = await uploaded(Buffer.concat([pngBytes(), Buffer.alloc(FILE_RULES.image.maxBytes)]));
    const res = await normalise('/api/artwork-files', { artworkFileURL: url.toString() });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(FILE_RULES.image.tooLarge);
    expect(await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(url)))).toEqual([]);
  });

  it('refuses audio as artwork (415)', async () => {
    const url = await uploaded(mp3Bytes());
    const res = await normalise('/api/artwork-files', { artworkFileURL: url.toString() });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(FILE_RULES.image.wrongType);
  });

  it.each([
    ['/api/reference-files', 'referenceFileURLs'],
    ['/api/character-files', 'characterFileURLs'],
  ])('%s answers objectPaths in order', async (route, field) => {
    const urls = [await uploaded(pngBytes()), await uploaded(jpegBytes()), await uploaded(webpBytes())];
    const res = await normalise(route, { [field]: urls.map(String), authProvider: 'local' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ objectPaths: urls.map((u) => `/objects/uploads/${uploadIdOf(u)}`) });
  });

  it.each([
    ['/api/reference-files', 'referenceFileURLs'],
    ['/api/character-files', 'characterFileURLs'],
  ])('%s keeps the files\u2019 names, so a resumed draft lists them by name', async (route, field) => {
    const urls = [await uploaded(pngBytes()), await uploaded(jpegBytes())];
    const res = await normalise(route, { [field]: urls.map(String), fileNames: ['mood board.png', 'face.jpg'] });
    expect(res.statusCode).toBe(200);
    const rows = await Promise.all(urls.map(async (u) => (await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(u))))[0]!.fileName));
    expect(rows).toEqual(['mood board.png', 'face.jpg']);
  });

  it.each([
    ['/api/reference-files', 'referenceFileURLs'],
    ['/api/character-files', 'characterFileURLs'],
  ])('%s names the file that is not an image (415)', async (route, field) => {
    const urls = [await uploaded(pngBytes()), await uploaded(textBytes())];
    const res = await normalise(route, { [field]: urls.map(String) });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: FILE_RULES.image.wrongType,
      code: 'file_type_not_allowed',
      errors: [{ path: `${field}.1`, message: FILE_RULES.image.wrongType }],
    });
  });

  it('refuses more than 12 files (400)', async () => {
    const res = await normalise('/api/character-files', { characterFileURLs: Array(13).fill('/objects/uploads/x') });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('At most 12 character images');
  });
});

describe('GET /objects/uploads/{id}', () => {
  let objectPath: string;
  beforeAll(async () => {
    objectPath = await storedImage();
  });

  it('serves the bytes to their uploader with type, length, ETag and Accept-Ranges', async () => {
    const res = await t.app.inject({ url: objectPath, headers: { cookie: artistCookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(pngBytes().length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(pngBytes())).toBe(true);
  });

  it('answers a Range with 206 and the slice', async () => {
    const res = await t.app.inject({ url: objectPath, headers: { cookie: artistCookie, range: 'bytes=1-3' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 1-3/${pngBytes().length}`);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.payload).toBe('PNG');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await t.app.inject({ url: objectPath, headers: { cookie: artistCookie } });
    const res = await t.app.inject({ url: objectPath, headers: { cookie: artistCookie, 'if-none-match': String(first.headers.etag) } });
    expect(res.statusCode).toBe(304);
    expect(res.payload).toBe('');
  });

  it('sends the file as an attachment under a planned name with ?download=, the extension from its checked type', async () => {
    const res = await t.app.inject({ url: `${objectPath}?download=night-drive_nora-vex_artwork`, headers: { cookie: adminCookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="night-drive_nora-vex_artwork.png"');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(pngBytes())).toBe(true);
    // Without it an image is shown in place, as the players and thumbnails need (CONTRACT §23: media may play inline).
    expect((await t.app.inject({ url: objectPath, headers: { cookie: adminCookie } })).headers['content-disposition']).toBe('inline');
  });

  it('refuses a download name that is not a plain planned name (400), and still hides the file from others', async () => {
    for (const name of ['', '../x', 'a"b', 'a b', 'A', 'x'.repeat(151), 'name.exe']) {
      const res = await t.app.inject({ url: `${objectPath}?download=${encodeURIComponent(name)}`, headers: { cookie: adminCookie } });
      expect(res.statusCode, name).toBe(400);
      expect(res.headers['content-disposition']).toBeUndefined();
    }
    expect((await t.app.inject({ url: `${objectPath}?download=x`, headers: { cookie: otherCookie } })).statusCode).toBe(404);
  });

  it('serves admins too', async () => {
    const res = await t.app.inject({ url: objectPath, headers: { cookie: adminCookie } });
    expect(res.statusCode).toBe(200);
  });

  it('hides it from other artists (404) and signed-out visitors (401)', async () => {
    expect((await t.app.inject({ url: objectPath, headers: { cookie: otherCookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: objectPath })).statusCode).toBe(401);
  });

  it('does not serve bytes that were never checked (404)', async () => {
    const url = await uploaded(textBytes());
    const res = await t.app.inject({ url: `/objects/uploads/${uploadIdOf(url)}`, headers: { cookie: artistCookie } });
    expect(res.statusCode).toBe(404);
  });

  it.each([
    '/objects/uploads/..%2F..%2Fetc%2Fpasswd',
    '/objects/uploads/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd',
    '/objects/uploads/../../etc/passwd',
    '/objects/uploads/%2e%2e%2f%2e%2e%2fsession-secret',
    '/objects/uploads/..%5C..%5Csession-secret',
    '/objects/uploads/' + 'a'.repeat(65),
    '/objects/uploads/nope',
  ])('answers 404 to %s', async (url) => {
    const res = await t.app.inject({ url, headers: { cookie: adminCookie } });
    expect(res.statusCode).toBe(404);
    expect(res.payload).not.toContain('root:');
  });
});

describe('unattached uploads', () => {
  it('are removed, rows and bytes, once older than 24 hours; younger ones stay', async () => {
    const staleUrl = await uploaded(pngBytes());
    const stalePath = await storedImage();
    const freshPath = await storedImage();
    const staleIds = [uploadIdOf(staleUrl), uploadIdOf(stalePath)];
    for (const id of staleIds) {
      await t.db.update(uploads).set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(uploads.id, id));
    }
    const removed = await removeUnattachedUploads(t.db, createObjectStorage(t.config));
    expect(removed).toBeGreaterThanOrEqual(2);
    for (const id of staleIds) {
      expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toEqual([]);
      expect(existsSync(path.join(objectsDir, 'incoming', id))).toBe(false);
      expect(existsSync(path.join(objectsDir, 'uploads', id))).toBe(false);
    }
    const freshId = uploadIdOf(freshPath);
    expect(await t.db.select().from(uploads).where(eq(uploads.id, freshId))).toHaveLength(1);
    expect(existsSync(path.join(objectsDir, 'uploads', freshId))).toBe(true);
  });

  it('removes the bytes before the row: a sweep cut short leaves the row, which leads the next sweep to the bytes', async () => {
    const id = uploadIdOf(await storedImage());
    await t.db.update(uploads).set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(uploads.id, id));
    const storage = createObjectStorage(t.config);
    const rowOf = () => t.db.select().from(uploads).where(eq(uploads.id, id));
    const bytesOf = path.join(objectsDir, 'uploads', id);

    // The store fails (or the process dies) before any byte is removed: the row stays with its bytes.
    const unreachable = Object.assign(Object.create(storage) as typeof storage, {
      delete: () => Promise.reject(new Error('store unreachable')),
    });
    await expect(removeUnattachedUploads(t.db, unreachable)).rejects.toThrow('store unreachable');
    expect(await rowOf()).toHaveLength(1);
    expect(existsSync(bytesOf)).toBe(true);

    // Cut short after the bytes went: the row stays, so the next sweep still finds the upload.
    const cutShort = Object.assign(Object.create(storage) as typeof storage, {
      delete: async (keys: string[]) => {
        await storage.delete(keys);
        throw new Error('killed after the bytes');
      },
    });
    await expect(removeUnattachedUploads(t.db, cutShort)).rejects.toThrow('killed after the bytes');
    expect(await rowOf()).toHaveLength(1);
    expect(existsSync(bytesOf)).toBe(false);

    // Removing bytes already gone is no error: the next sweep finishes the job.
    expect(await removeUnattachedUploads(t.db, storage)).toBeGreaterThanOrEqual(1);
    expect(await rowOf()).toEqual([]);
  });

  it('is one of the app’s periodic jobs', async () => {
    const objectPath = await storedImage();
    const id = uploadIdOf(objectPath);
    await t.db.update(uploads).set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(uploads.id, id));
    await t.app.jobs.run('maintenance.remove-unattached-uploads');
    expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toEqual([]);
  });
});

// Issue 9, finding 7: a kill -9 during an upload left its temporary file forever and the URL
// answering 409 until it expired. (The real kill -9 is in uploads-crash.test.ts, next to this file.)
describe('uploads interrupted by a crash', () => {
  const tmpFileOf = (id: string) => path.join(objectsDir, 'tmp', `incoming~${id}`);

  /** What a server killed halfway through a PUT leaves: a claimed row and a partial temporary file. */
  async function crashedMidUpload(url: URL, leaseLapsed: boolean): Promise<string> {
    const id = uploadIdOf(url);
    await t.db
      .update(uploads)
      .set({ status: 'receiving', leaseUntil: new Date(Date.now() + (leaseLapsed ? -1000 : 60_000)) })
      .where(eq(uploads.id, id));
    mkdirSync(path.join(objectsDir, 'tmp'), { recursive: true });
    writeFileSync(tmpFileOf(id), Buffer.alloc(4096, 7));
    return id;
  }

  it('can be retried once the dead server’s claim lapses, not 409 until the URL expires', async () => {
    const url = await newUploadUrl();
    const id = await crashedMidUpload(url, true);
    const res = await putBytes(url, mp3Bytes());
    expect(res.statusCode).toBe(200);
    expect(existsSync(tmpFileOf(id))).toBe(false);
    const res2 = await normalise('/api/music-files', { musicFileURL: url.toString(), fileName: 'song.mp3' });
    expect(res2.statusCode).toBe(200);
  });

  it('answers 409 with Retry-After while a live upload holds the URL', async () => {
    const url = await newUploadUrl();
    const body = new PassThrough();
    const first = putBytes(url, body);
    body.write(mp3Bytes());
    await vi.waitFor(async () => {
      const [row] = await t.db.select().from(uploads).where(eq(uploads.id, uploadIdOf(url)));
      expect(row!.status).toBe('receiving');
    });
    const second = await putBytes(url, pngBytes());
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('upload_in_progress');
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(10);
    body.end();
    expect((await first).statusCode).toBe(200);
  });

  it('leaves no temporary file once the sweep removes the abandoned upload’s row', async () => {
    const url = await newUploadUrl();
    const id = await crashedMidUpload(url, false);
    await t.db.update(uploads).set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000) }).where(eq(uploads.id, id));
    await removeUnattachedUploads(t.db, createObjectStorage(t.config));
    expect(await t.db.select().from(uploads).where(eq(uploads.id, id))).toEqual([]);
    expect(existsSync(tmpFileOf(id))).toBe(false);
  });
});

// Issue 9, finding 8: normalising one upload as artwork and as music at the same moment
// answered 200 with an objectPath whose file the other request then deleted.
describe('one upload normalised as two kinds at the same moment', () => {
  it.each([
    ['a PNG', pngBytes],
    ['an MP3', mp3Bytes],
  ])('%s: each objectPath answered can be downloaded; the other request gets a clear 4xx', async (_name, bytes) => {
    for (let round = 0; round < 8; round++) {
      const url = await uploaded(bytes());
      const answers = await Promise.all([
        normalise('/api/artwork-files', { artworkFileURL: url.toString(), fileName: 'x' }),
        normalise('/api/music-files', { musicFileURL: url.toString(), fileName: 'x' }),
      ]);
      const ok = answers.filter((res) => res.statusCode === 200);
      expect(ok.length).toBeLessThanOrEqual(1);
      for (const res of answers) {
        if (res.statusCode === 200) {
          const download = await t.app.inject({ url: res.json().objectPath, headers: { cookie: artistCookie } });
          expect(download.statusCode).toBe(200);
        } else {
          expect([404, 409, 415]).toContain(res.statusCode);
          expect(typeof res.json().message).toBe('string');
        }
      }
    }
  });
});
