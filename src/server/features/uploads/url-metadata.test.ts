import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '@shared/submission-schemas';
import { createArtist, createTestApp, sessionCookie, TEST_ORIGIN, type TestApp } from '../../test/helpers';
import { safeFetchText, type FetchText } from './safe-fetch';
import { fallbackMetadata, fetchUrlMetadata, parseHtmlMetadata, parseOEmbed, youtubeVideoId } from './url-metadata';

describe('fallback metadata (derived from the link alone)', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
  ])('gives YouTube’s thumbnail for %s', (url, id) => {
    expect(youtubeVideoId(url)).toBe(id);
    expect(fallbackMetadata(url)).toEqual({ title: 'YouTube video', thumbnail: `https://img.youtube.com/vi/${id}/hqdefault.jpg` });
  });

  it.each([
    ['https://soundcloud.com/night-artist/dark-waves_remix', 'Dark waves remix'],
    ['https://example.com/music/My%20New%20Song.mp3', 'My New Song'],
    ['https://www.example.com/', 'example.com'],
    ['https://www.youtube.com/watch?v=short', 'Watch'],
  ])('titles %s as %j with no thumbnail', (url, title) => {
    expect(fallbackMetadata(url)).toEqual({ title, thumbnail: null });
  });
});

describe('parsing', () => {
  it('reads OpenGraph tags in any attribute order, decoding entities and resolving the image', () => {
    const html = `<!doctype html><html><head>
      <title>Fallback &amp; title</title>
      <meta content="Night &amp; Day &#8211; Live" property="og:title">
      <meta property='og:image' content='/covers/night.jpg?size=large&amp;v=2' />
      <meta name="twitter:title" content="ignored">
    </head><body></body></html>`;
    expect(parseHtmlMetadata(html, 'https://music.example.com/tracks/42')).toEqual({
      title: 'Night & Day – Live',
      thumbnail: 'https://music.example.com/covers/night.jpg?size=large&v=2',
    });
  });

  it('falls back to Twitter tags, then <title>, and ignores non-http images', () => {
    expect(parseHtmlMetadata('<meta name="twitter:title" content="Tw"><meta name="twitter:image" content="javascript:alert(1)">', 'https://a.example/')).toEqual({
      title: 'Tw',
      thumbnail: null,
    });
    expect(parseHtmlMetadata('<title>\n  Just   a title </title>', 'https://a.example/')).toEqual({ title: 'Just a title', thumbnail: null });
    expect(parseHtmlMetadata('<p>nothing</p>', 'https://a.example/')).toEqual({ title: undefined, thumbnail: null });
    // Parsed as HTML, not matched as text: a tag in a comment or a script is not one.
    const hidden = '<!-- <meta property="og:title" content="Commented out"> --><script>const t = \'<meta property="og:title" content="In a script">\';</script><title>The real one</title>';
    expect(parseHtmlMetadata(hidden, 'https://a.example/')).toEqual({ title: 'The real one', thumbnail: null });
  });

  it('reads oEmbed JSON and survives junk', () => {
    expect(parseOEmbed('{"title":"Song","thumbnail_url":"https://i.example/t.jpg"}')).toEqual({ title: 'Song', thumbnail: 'https://i.example/t.jpg' });
    expect(parseOEmbed('not json')).toEqual({});
  });
});

describe('fetchUrlMetadata', () => {
  const page = (body: string, url: string, contentType = 'text/html; charset=utf-8') => ({ url, status: 200, contentType, body, truncated: false });

  it('asks YouTube’s oEmbed endpoint first', async () => {
    const asked: string[] = [];
    const fetchText: FetchText = async (url) => {
      asked.push(url);
      return page('{"title":"Official Video","thumbnail_url":"https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"}', url, 'application/json');
    };
    const result = await fetchUrlMetadata('https://youtu.be/dQw4w9WgXcQ', fetchText);
    expect(result).toEqual({ title: 'Official Video', thumbnail: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg' });
    expect(asked).toEqual([`https://www.youtube.com/oembed?format=json&url=${encodeURIComponent('https://youtu.be/dQw4w9WgXcQ')}`]);
  });

  it('uses SoundCloud’s oEmbed, then the page when oEmbed fails', async () => {
    const asked: string[] = [];
    const fetchText: FetchText = async (url) => {
      asked.push(url);
      if (url.startsWith('https://soundcloud.com/oembed')) throw new Error('down');
      return page('<meta property="og:title" content="Dark Waves"><meta property="og:image" content="https://i1.sndcdn.com/a.jpg">', url);
    };
    expect(await fetchUrlMetadata('https://soundcloud.com/a/dark-waves', fetchText)).toEqual({ title: 'Dark Waves', thumbnail: 'https://i1.sndcdn.com/a.jpg' });
    expect(asked).toHaveLength(2);
  });

  it('falls back when the page is not HTML, fails, or takes longer than the timeout', async () => {
    const notHtml: FetchText = async (url) => page('{}', url, 'application/json');
    expect(await fetchUrlMetadata('https://example.com/my-song', notHtml)).toEqual({ title: 'My song', thumbnail: null });

    const slow: FetchText = (_url, { signal }) =>
      new Promise((_resolve, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const started = Date.now();
    expect(await fetchUrlMetadata('https://www.youtube.com/watch?v=dQw4w9WgXcQ', slow, 50)).toEqual(
      fallbackMetadata('https://www.youtube.com/watch?v=dQw4w9WgXcQ'),
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps the YouTube thumbnail when the page has a title but no image', async () => {
    const fetchText: FetchText = async (url) => {
      if (url.includes('oembed')) return { ...page('', url), status: 404 };
      return page('<title>Some video</title>', url);
    };
    expect(await fetchUrlMetadata('https://www.youtube.com/watch?v=dQw4w9WgXcQ', fetchText)).toEqual({
      title: 'Some video',
      thumbnail: 'https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
    });
  });
});

describe('safe fetching (SSRF)', () => {
  let server: http.Server;
  let port: number;
  let requests = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      requests++;
      res.setHeader('content-type', 'text/html');
      res.end('<title>Internal admin</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    () => `http://127.0.0.1:${port}/`,
    () => `http://localhost:${port}/`,
    () => `http://[::1]:${port}/`,
    () => `http://[::ffff:127.0.0.1]:${port}/`,
    () => `http://0.0.0.0:${port}/`,
    () => 'http://10.0.0.1/',
    () => 'http://192.168.1.1/',
    () => 'http://169.254.169.254/latest/meta-data/',
  ])('never connects to loopback, private or link-local addresses (%#)', async (target) => {
    const before = requests;
    await expect(
      safeFetchText(target(), { signal: AbortSignal.timeout(5000), maxBytes: 1024, accept: 'text/html' }),
    ).rejects.toThrow();
    expect(requests).toBe(before);
  });

  it('refuses other protocols', async () => {
    await expect(safeFetchText('file:///etc/passwd', { signal: AbortSignal.timeout(1000), maxBytes: 10, accept: '*/*' })).rejects.toThrow(
      /http/,
    );
  });
});

describe('POST /api/url-metadata', () => {
  let t: TestApp;
  let cookie: string;
  let server: http.Server;
  let port: number;
  let requests = 0;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = await sessionCookie(t.app, t.db, await createArtist(t.db));
    server = http.createServer((_req, res) => {
      requests++;
      res.end('<meta property="og:title" content="Leaked">');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
  });

  const post = (payload: object, headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'POST', url: '/api/url-metadata', headers: { origin: TEST_ORIGIN, ...headers }, payload });

  it('answers the fallback for a loopback address and sends it no request', async () => {
    const res = await post({ url: `http://127.0.0.1:${port}/tracks/secret-demo` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ title: 'Secret demo', thumbnail: null });
    const named = await post({ url: `http://localhost:${port}/` });
    expect(named.json()).toEqual({ title: 'localhost', thumbnail: null });
    expect(requests).toBe(0);
  });

  it('validates the link (400) and needs a signed-in user (401)', async () => {
    const bad = await post({ url: 'ftp://example.com/song' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(SUBMISSION_MESSAGES.musicUrl);
    expect((await post({ url: 'https://example.com' }, {})).statusCode).toBe(401);
  });
});
