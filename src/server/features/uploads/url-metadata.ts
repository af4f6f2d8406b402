import { Parser } from 'htmlparser2';
import type { UrlMetadata } from '@shared/submission-schemas';
import { URL_MAX_LENGTH } from '@shared/submissions';
import { safeFetchText, type FetchText } from './safe-fetch';

/** CONTRACT §5: the whole look-up (oEmbed and page) gives up after 5 s; bodies are capped. */
const METADATA_TIMEOUT_MS = 5_000;
const METADATA_MAX_BYTES = 512 * 1024;
const MAX_TITLE_LENGTH = 300;

/**
 * Title and thumbnail of a music link (POST /api/url-metadata): the site's oEmbed answer for
 * YouTube, SoundCloud and Vimeo, else the page's OpenGraph/Twitter tags or <title>. On any
 * failure, a title derived from the link itself and, for YouTube, the video's thumbnail.
 */
export async function fetchUrlMetadata(
  url: string,
  fetchText: FetchText = safeFetchText,
  timeoutMs = METADATA_TIMEOUT_MS,
): Promise<UrlMetadata> {
  const fallback = fallbackMetadata(url);
  const signal = AbortSignal.timeout(timeoutMs);
  const withFallback = (found: Partial<UrlMetadata>): UrlMetadata => ({
    title: found.title || fallback.title,
    thumbnail: found.thumbnail || fallback.thumbnail,
  });

  const oEmbed = oEmbedEndpoint(url);
  if (oEmbed) {
    try {
      const response = await fetchText(oEmbed, { signal, maxBytes: METADATA_MAX_BYTES, accept: 'application/json' });
      if (response.status === 200 && !response.truncated) {
        const found = parseOEmbed(response.body);
        if (found.title) return withFallback(found);
      }
    } catch {
      // fall through to the page itself
    }
  }
  if (signal.aborted) return fallback;
  try {
    const page = await fetchText(url, {
      signal,
      maxBytes: METADATA_MAX_BYTES,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
    });
    if (page.status >= 200 && page.status < 300 && /html/i.test(page.contentType)) {
      return withFallback(parseHtmlMetadata(page.body, page.url));
    }
  } catch {
    // timeout, refused address, network error: the fallback below
  }
  return fallback;
}

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtu.be', 'www.youtube-nocookie.com']);
const SOUNDCLOUD_HOSTS = new Set(['soundcloud.com', 'www.soundcloud.com', 'm.soundcloud.com', 'on.soundcloud.com']);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);

function oEmbedEndpoint(url: string): string | null {
  const host = safeUrl(url)?.hostname.toLowerCase();
  if (!host) return null;
  const target = encodeURIComponent(url);
  if (YOUTUBE_HOSTS.has(host)) return `https://www.youtube.com/oembed?format=json&url=${target}`;
  if (SOUNDCLOUD_HOSTS.has(host)) return `https://soundcloud.com/oembed?format=json&url=${target}`;
  if (VIMEO_HOSTS.has(host)) return `https://vimeo.com/api/oembed.json?url=${target}`;
  return null;
}

/** The 11-character id of a YouTube video link, or null. */
export function youtubeVideoId(url: string): string | null {
  const u = safeUrl(url);
  if (!u || !YOUTUBE_HOSTS.has(u.hostname.toLowerCase())) return null;
  const candidate =
    u.hostname.toLowerCase() === 'youtu.be'
      ? u.pathname.split('/')[1]
      : (u.searchParams.get('v') ?? /^\/(?:shorts|embed|live|v)\/([^/?#]+)/.exec(u.pathname)?.[1]);
  return candidate && /^[A-Za-z0-9_-]{11}$/.test(candidate) ? candidate : null;
}

/** What the link itself tells: YouTube's thumbnail, and a title from the path or the host. */
export function fallbackMetadata(url: string): UrlMetadata {
  const videoId = youtubeVideoId(url);
  if (videoId) return { title: 'YouTube video', thumbnail: `https://img.youtube.com/vi/${videoId}/hqdefault.jpg` };
  const u = safeUrl(url);
  if (!u) return { title: url.slice(0, MAX_TITLE_LENGTH), thumbnail: null };
  const lastSegment = u.pathname.split('/').filter(Boolean).pop();
  const fromPath = lastSegment ? humanise(lastSegment) : '';
  return { title: fromPath || u.hostname.replace(/^www\./, ''), thumbnail: null };
}

function humanise(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // keep the raw segment
  }
  text = text
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[-_+]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clampTitle(text.charAt(0).toUpperCase() + text.slice(1));
}

export function parseOEmbed(body: string): Partial<UrlMetadata> {
  try {
    const data = JSON.parse(body) as { title?: unknown; thumbnail_url?: unknown };
    return {
      title: typeof data.title === 'string' ? clampTitle(data.title) : undefined,
      thumbnail: typeof data.thumbnail_url === 'string' ? httpUrlOrNull(data.thumbnail_url) : null,
    };
  } catch {
    return {};
  }
}

/**
 * OpenGraph, then Twitter card tags, then <title>; relative image URLs resolved against the page.
 * Read with a real HTML parser (htmlparser2: attributes in any quoting, entities decoded, a
 * `<meta>` inside a comment or a script not taken for one).
 */
export function parseHtmlMetadata(html: string, pageUrl: string): Partial<UrlMetadata> {
  const meta = new Map<string, string>();
  let titleTag: string | undefined;
  let inTitle = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title' && titleTag === undefined) {
          inTitle = true;
          titleTag = '';
        }
        if (name !== 'meta') return;
        const key = (attributes.property ?? attributes.name ?? attributes.itemprop)?.toLowerCase();
        const content = attributes.content;
        if (key && content !== undefined && !meta.has(key)) meta.set(key, content.trim());
      },
      ontext(text) {
        if (inTitle) titleTag += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const title = meta.get('og:title') || meta.get('twitter:title') || (titleTag ? titleTag.trim() : '');
  const image =
    meta.get('og:image:secure_url') ||
    meta.get('og:image') ||
    meta.get('og:image:url') ||
    meta.get('twitter:image') ||
    meta.get('twitter:image:src');
  let thumbnail: string | null = null;
  if (image) {
    try {
      thumbnail = httpUrlOrNull(new URL(image, pageUrl).toString());
    } catch {
      thumbnail = null;
    }
  }
  return { title: title ? clampTitle(title) : undefined, thumbnail };
}

function clampTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_LENGTH);
}

function httpUrlOrNull(value: string): string | null {
  const u = safeUrl(value);
  return u && (u.protocol === 'http:' || u.protocol === 'https:') && value.length <= URL_MAX_LENGTH ? u.toString() : null;
}

function safeUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
