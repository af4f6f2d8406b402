import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IN_PAGE_ID } from '@shared/first-pages';
import { createArtist, createTestApp, sessionCookie, type TestApp } from '../test/helpers';
import { COMPRESS_THRESHOLD_BYTES, preferredEncoding } from './compressed-document';

/**
 * CONTRACT §15: pages are text of 1 KB or more, so they are compressed, also now that each is
 * made for its request (it carries the session, decision 144).
 */
let t: TestApp;
let clientDir: string;
let cookie: string;
// As large as the real index.html (2.4 KB): its head lists the fonts, styles and preloads.
const page = `<!doctype html><html><head><title>Hub</title>${'<link rel="modulepreload" href="/assets/chunk-0123456789.js">'.repeat(40)}</head><body><div id="root"></div></body></html>`;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(os.tmpdir(), 'hub-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), page);
  t = await createTestApp({}, { client: 'dist', clientDir });
  cookie = await sessionCookie(t.app, t.db, await createArtist(t.db, { artistName: 'Compressed Artist' }));
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('pages', () => {
  it('are sent with brotli at / and /auth, signed out and signed in, carrying the session', async () => {
    expect(Buffer.byteLength(page)).toBeGreaterThanOrEqual(COMPRESS_THRESHOLD_BYTES);
    for (const url of ['/', '/auth', '/dashboard']) {
      for (const headers of [{}, { cookie }]) {
        const res = await t.app.inject({ url, headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], url).toBe('br');
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(page) / 2);
        const html = brotliDecompressSync(res.rawPayload).toString();
        expect(html).toContain(`<script id="${SESSION_IN_PAGE_ID}"`);
        expect(html.includes('Compressed Artist')).toBe('cookie' in headers);
      }
    }
  });

  it('fall back to gzip, and go as they are to a client that accepts neither', async () => {
    const gzip = await t.app.inject({ url: '/auth', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain('<div id="root">');
    const plain = await t.app.inject({ url: '/auth', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root">');
  });

  it('choose the encoding by Accept-Encoding and its q-values', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
  });
});
