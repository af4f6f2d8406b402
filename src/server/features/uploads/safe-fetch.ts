import http from 'node:http';
import https from 'node:https';
import { guardedAgent } from '../../platform/ssrf-guard';

interface FetchTextOptions {
  signal: AbortSignal;
  /** Bytes read at most; the rest of the body is dropped and `truncated` is set. */
  maxBytes: number;
  accept: string;
}

interface FetchedText {
  /** The URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: string;
  truncated: boolean;
}

export type FetchText = (url: string, options: FetchTextOptions) => Promise<FetchedText>;

const MAX_REDIRECTS = 5;

/**
 * GET of a URL a user gave us, safe against server-side request forgery: every connection
 * (the first and each redirect's) goes through the SSRF guard (platform/ssrf-guard.ts:
 * request-filtering-agent), which refuses
 * loopback, private, link-local and unspecified addresses after DNS resolution, so neither a
 * hostname resolving inside the network nor a redirect there gets a request out of this
 * server. Only http(s), at most 5 redirects, the body capped at `maxBytes`.
 */
export const safeFetchText: FetchText = async (url, options) => {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new Error('Only http(s) links are fetched');
    const response = await request(current, options);
    const location = response.headers.location;
    if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new Error('Too many redirects');
      current = new URL(location, current);
      continue;
    }
    const { body, truncated } = await readCapped(response, options.maxBytes);
    return {
      url: current.toString(),
      status: response.statusCode ?? 0,
      contentType: String(response.headers['content-type'] ?? ''),
      body,
      truncated,
    };
  }
};

function request(url: URL, options: FetchTextOptions): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, {
      agent: guardedAgent(url),
      signal: options.signal,
      headers: {
        accept: options.accept,
        'accept-language': 'en',
        'user-agent': 'Mozilla/5.0 (compatible; LabelSubmissionHub/1.0; link preview)',
      },
    });
    req.on('response', resolve);
    req.on('error', reject);
  });
}

async function readCapped(response: http.IncomingMessage, maxBytes: number): Promise<{ body: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = chunk.length > room;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    response.destroy();
  }
  return { body: Buffer.concat(chunks, size).toString('utf8'), truncated };
}
