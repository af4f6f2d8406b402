import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser } from '@shared/auth';
import { FIRST_PAGE_MODULES, FIRST_PAGE_READS, MAILED_LINK_DOCUMENT, MAILED_LINK_MANIFEST, MAILED_LINK_PAGES, SESSION_IN_PAGE_ID } from '@shared/first-pages';
import { createArtist, createSubmissionRow, createTestApp, sessionCookie, type TestApp } from '../test/helpers';

/** Serving (CONTRACT §15): compression, caching of the build, and which headers go where. */
let t: TestApp;
let clientDir: string;
let cookie: string;
/** What the server writes into a page for a signed-out visitor (decision 144). */
const signedOut = (html: string) => html.replace('</body>', `<script id="${SESSION_IN_PAGE_ID}" type="application/json">null</script></body>`);
/** The session the server wrote into a page. */
const sessionIn = (html: string) => {
  const json = new RegExp(`<script id="${SESSION_IN_PAGE_ID}" type="application/json">(.*?)</script>`).exec(html)?.[1];
  if (json === undefined) throw new Error('the page carries no session');
  return JSON.parse(json) as PublicUser | null;
};
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const page = `<!doctype html><html><head><title>Hub</title><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`;
/** The light document of the pages a link in an email opens (decision 202). */
const mailedLinkPage = page.replace('index-abc123.js', 'mailed-link/mailed-link-abc123.js');
const signModule = MAILED_LINK_PAGES.find((p) => p.route === '/sign/:token')!.module;

beforeAll(async () => {
  // A small build as vite.config.ts leaves it: hashed assets with .br and .gz beside them.
  clientDir = mkdtempSync(path.join(os.tmpdir(), 'hub-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), page);
  writeFileSync(path.join(clientDir, MAILED_LINK_DOCUMENT), mailedLinkPage);
  writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), script);
  writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js.gz'), gzipSync(script));
  // The mailed-link pages' build puts its chunks in a folder of its own under assets.
  mkdirSync(path.join(clientDir, 'assets', 'mailed-link'));
  writeFileSync(path.join(clientDir, 'assets', 'mailed-link', 'mailed-link-abc123.js'), script);
  writeFileSync(path.join(clientDir, 'assets', 'mailed-link', 'mailed-link-abc123.js.br'), brotliCompressSync(script));
  // The build's manifest: the entry shares one chunk with the sign-in page, which has one of its own.
  mkdirSync(path.join(clientDir, '.vite'));
  writeFileSync(
    path.join(clientDir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-abc123.js', isEntry: true, imports: ['_shared-1.js'] },
      '_shared-1.js': { file: 'assets/shared-1.js' },
      [FIRST_PAGE_MODULES['/auth']]: { file: 'assets/auth-page-1.js', isDynamicEntry: true, imports: ['_shared-1.js', '_forms-1.js'] },
      '_forms-1.js': { file: 'assets/forms-1.js', imports: ['_shared-1.js'] },
      // The app has the signing page too (a mailed-link address reached inside it), from its own chunks.
      [signModule]: { file: 'assets/sign-page-app.js', isDynamicEntry: true, imports: ['_shared-1.js', '_forms-1.js'] },
    }),
  );
  // The mailed-link pages' own build (vite.config.ts), with its own manifest: its entry shares one
  // chunk with the signing page, which has a forms chunk too.
  writeFileSync(
    path.join(clientDir, MAILED_LINK_MANIFEST),
    JSON.stringify({
      [MAILED_LINK_DOCUMENT]: { file: 'assets/mailed-link/mailed-link-abc123.js', src: MAILED_LINK_DOCUMENT, isEntry: true, imports: ['_shared-1.js'] },
      '_shared-1.js': { file: 'assets/mailed-link/shared-1.js' },
      '_forms-1.js': { file: 'assets/mailed-link/forms-1.js', imports: ['_shared-1.js'] },
      [signModule]: { file: 'assets/mailed-link/sign-page-1.js', isDynamicEntry: true, imports: ['_shared-1.js', '_forms-1.js'] },
    }),
  );
  t = await createTestApp({}, { client: 'dist', clientDir });
  const artist = await createArtist(t.db);
  for (let i = 0; i < 10; i++) await createSubmissionRow(t.db, artist, { songTitle: `Song number ${i} with a long enough title` });
  cookie = await sessionCookie(t.app, t.db, artist);
});

afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('compression', () => {
  it('compresses a JSON answer of 1 KB or more with brotli when the browser accepts it', async () => {
    const res = await t.app.inject({ url: '/api/submissions', headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString())).toHaveLength(10);
  });

  it('falls back to gzip, and sends small answers as they are', async () => {
    const res = await t.app.inject({ url: '/api/submissions', headers: { cookie, 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toHaveLength(10);
    const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('sends the precompressed file of a hashed asset, cached for a year', async () => {
    for (const url of ['/assets/index-abc123.js', '/assets/mailed-link/mailed-link-abc123.js']) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type'], url).toMatch(/javascript/);
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(script);
    }
    const plain = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});

describe('index.html', () => {
  it('is never cached, at / and at any client route', async () => {
    for (const url of ['/', '/dashboard', '/messages?x=1']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(signedOut(page));
    }
  });

  it('says who is signed in, so the first screen needs no round trip, and never the password hash', async () => {
    const res = await t.app.inject({ url: '/dashboard', headers: { cookie } });
    expect(res.headers['cache-control']).toBe('private, no-store');
    const user = sessionIn(res.body);
    expect(user).toEqual((await t.app.inject({ url: '/api/user', headers: { cookie } })).json());
    expect(res.body).not.toContain('password');
    expect(sessionIn((await t.app.inject({ url: '/dashboard', headers: { cookie: 'sid=forged' } })).body)).toBeNull();
  });

  it('answers a hostile address or cookie with a 4xx or the signed-out page, never a 5xx', async () => {
    for (const [url, headers] of [
      ['/dashboard%00', {}],
      [`/${'a'.repeat(8000)}`, {}],
      ['/%E0%A4%A', {}],
      ['/dashboard', { cookie: `sid=${'x'.repeat(4000)}` }],
      ['/dashboard', { cookie: 'sid=s%3A%00.forged' }],
    ] as const) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, url.slice(0, 40)).toBeLessThan(500);
      if (res.statusCode === 200) expect(sessionIn(res.body)).toBeNull();
    }
  });

  it("names the dashboard's first reads as preload links for a signed-in visit only (decision 210)", async () => {
    const reads = FIRST_PAGE_READS['/dashboard']!;
    expect(reads).toContain('/api/submissions');
    const links = reads.map((read) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${read}">`).join('');
    for (const url of ['/', '/dashboard', '/dashboard?verification=ok']) {
      const signedIn = await t.app.inject({ url, headers: { cookie } });
      expect(signedIn.body.replace(new RegExp(`<script id="${SESSION_IN_PAGE_ID}"[^]*?</script>`), '')).toBe(page.replace('</head>', `${links}</head>`));
      // Each named read is one the signed-in visitor may make.
      for (const read of reads) expect((await t.app.inject({ url: read, headers: { cookie } })).statusCode, read).toBe(200);
      expect((await t.app.inject({ url })).body).toBe(signedOut(page));
    }
    // Other pages name none.
    expect((await t.app.inject({ url: '/messages', headers: { cookie } })).body).not.toContain('rel="preload"');
  });

  it('writes the session so that no text in a profile can close its element', async () => {
    const artist = await createArtist(t.db, { artistName: '</script><script>alert(1)</script>' });
    const res = await t.app.inject({ url: '/dashboard', headers: { cookie: await sessionCookie(t.app, t.db, artist) } });
    expect(res.body).not.toContain('</script><script>alert(1)');
    expect(sessionIn(res.body)?.artistName).toBe('</script><script>alert(1)</script>');
  });

  it("names a first page's own chunks as modulepreload links, not the entry's", async () => {
    for (const url of ['/auth', '/auth?error=google_failed']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(
        signedOut(page).replace(
          '</head>',
          '<link rel="modulepreload" crossorigin href="/assets/auth-page-1.js"><link rel="modulepreload" crossorigin href="/assets/forms-1.js"></head>',
        ),
      );
    }
  });
});

describe('security headers', () => {
  it('puts the page policies (CSP, framing, cross-origin) on HTML', async () => {
    const res = await t.app.inject({ url: '/dashboard' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('leaves them off JSON and scripts, which keep nosniff', async () => {
    for (const res of [
      await t.app.inject({ url: '/api/user', headers: { cookie } }),
      await t.app.inject({ url: '/api/nothing-here' }),
      await t.app.inject({ url: '/assets/index-abc123.js' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res.headers['referrer-policy']).toBeUndefined();
    }
  });

  it("answers the addresses of a link in an email with the light document, naming its page's own chunks (decision 202)", async () => {
    const signPage = signedOut(mailedLinkPage).replace(
      '</head>',
      '<link rel="modulepreload" crossorigin href="/assets/mailed-link/sign-page-1.js"><link rel="modulepreload" crossorigin href="/assets/mailed-link/forms-1.js"></head>',
    );
    expect((await t.app.inject({ url: '/sign/a-token-from-an-email' })).body).toBe(signPage);
    // The other mailed-link pages' modules are not in its build's manifest: the document as built.
    for (const url of ['/payee/a-token-from-an-email', '/payee/return', '/unsubscribe?token=x']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(signedOut(mailedLinkPage));
    }
    // Who is signed in is written in as on any page; other addresses, even close ones, get the app.
    expect(sessionIn((await t.app.inject({ url: '/unsubscribe', headers: { cookie } })).body)).not.toBeNull();
    for (const url of ['/sign', '/sign/', '/sign/a/b', '/payee', '/unsubscribe/x', '/signs/a']) expect((await t.app.inject({ url })).body, url).toBe(signedOut(page));
  });
});
