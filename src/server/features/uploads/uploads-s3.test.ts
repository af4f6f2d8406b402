import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads, type UserRow } from '../../platform/db/schema';
import { objectKey } from '../../platform/storage/object-storage';
import { S3ObjectStorage } from '../../platform/storage/s3-storage';
import { mp3Bytes, pngBytes, textBytes } from '../../test/file-fixtures';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { createAdmin, createArtist, createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { FILE_RULES } from './file-types';

// The whole upload flow with S3_* set, against a local S3-compatible server (s3rver).
let s3: TestS3Server;
let t: TestApp;
let store: S3ObjectStorage;
let artist: UserRow;
let cookie: string;
let otherCookie: string;
let adminCookie: string;

beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp(s3.env);
  store = new S3ObjectStorage(s3.options);
  artist = await createArtist(t.db);
  cookie = await sessionCookie(t.app, t.db, artist);
  otherCookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
  adminCookie = await sessionCookie(t.app, t.db, await createAdmin(t.db));
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

async function presignedUpload(bytes: Buffer): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  const { uploadURL } = res.json() as { uploadURL: string };
  const put = await fetch(uploadURL, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream' } });
  expect(put.status).toBe(200);
  return uploadURL;
}

const normalise = (route: string, payload: object, as = cookie) =>
  t.app.inject({ method: 'PUT', url: route, headers: { cookie: as, origin: TEST_ORIGIN }, payload });

describe('uploads with S3 storage', () => {
  it('hands out a presigned PUT URL to the bucket’s incoming/ area', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
    const url = new URL(res.json().uploadURL);
    expect(url.origin).toBe(s3.options.endpoint);
    expect(url.pathname).toMatch(/^\/test-uploads\/incoming\/[0-9a-f-]{36}$/);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('checks the bytes, moves them out of reach of the upload URL, and serves them by presigned redirect', async () => {
    const uploadURL = await presignedUpload(mp3Bytes());
    const res = await normalise('/api/music-files', { musicFileURL: uploadURL, fileName: 'track.mp3' });
    expect(res.statusCode).toBe(200);
    const { objectPath } = res.json() as { objectPath: string };
    const id = objectPath.split('/').pop()!;
    expect(await store.check(objectKey('incoming', id))).toBeNull();
    expect(await store.check(objectKey('uploads', id))).toEqual({ size: mp3Bytes().length });
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, id));
    expect(row).toMatchObject({ status: 'stored', contentType: 'audio/mpeg', size: mp3Bytes().length, fileName: 'track.mp3' });

    const redirect = await t.app.inject({ url: objectPath, headers: { cookie } });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers['cache-control']).toBe('private, no-store');
    const location = String(redirect.headers.location);
    expect(location.startsWith(`${s3.options.endpoint}/test-uploads/uploads/${id}?`)).toBe(true);

    const bytes = await fetch(location);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await bytes.arrayBuffer()).equals(mp3Bytes())).toBe(true);
    const range = await fetch(location, { headers: { range: 'bytes=0-3' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(mp3Bytes().subarray(0, 4))).toBe(true);

    // ?download= travels in the presigned URL: the bucket answers with the attachment's name.
    const named = await t.app.inject({ url: `${objectPath}?download=night-drive_nora-vex_music`, headers: { cookie: adminCookie } });
    expect(named.statusCode).toBe(302);
    const attachment = await fetch(String(named.headers.location));
    expect(attachment.status).toBe(200);
    expect(attachment.headers.get('content-disposition')).toBe('attachment; filename="night-drive_nora-vex_music.mp3"');
    expect(Buffer.from(await attachment.arrayBuffer()).equals(mp3Bytes())).toBe(true);
    // Without it the audio plays in place (CONTRACT §23: media may play inline).
    expect((await fetch(location)).headers.get('content-disposition')).toBe('inline');

    expect((await t.app.inject({ url: objectPath, headers: { cookie: adminCookie } })).statusCode).toBe(302);
    expect((await t.app.inject({ url: objectPath, headers: { cookie: otherCookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: objectPath })).statusCode).toBe(401);
  });

  it('refuses a text file renamed .mp3 (415) and deletes it from the bucket', async () => {
    const uploadURL = await presignedUpload(textBytes());
    const id = new URL(uploadURL).pathname.split('/').pop()!;
    const res = await normalise('/api/music-files', { musicFileURL: uploadURL, fileName: 'song.mp3' });
    expect(res.statusCode).toBe(415);
    expect(await store.check(objectKey('incoming', id))).toBeNull();
  });

  it('measures the size with HeadObject: an image over 10 MB is refused (413)', async () => {
    const uploadURL = await presignedUpload(Buffer.concat([pngBytes(), Buffer.alloc(FILE_RULES.image.maxBytes)]));
    const res = await normalise('/api/artwork-files', { artworkFileURL: uploadURL });
    expect(res.statusCode).toBe(413);
  });

  it('refuses another user’s upload (404) and one whose bytes never arrived (400)', async () => {
    const uploadURL = await presignedUpload(pngBytes());
    expect((await normalise('/api/artwork-files', { artworkFileURL: uploadURL }, otherCookie)).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
    expect((await normalise('/api/artwork-files', { artworkFileURL: res.json().uploadURL })).statusCode).toBe(400);
  });

  it('has no server upload route: the bytes never pass through this server', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/uploads/abc?token=x', headers: { cookie }, payload: 'x' });
    expect(res.statusCode).toBe(404);
  });
});
