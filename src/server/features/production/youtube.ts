/**
 * The two readings the viral check needs from the YouTube Data API v3 (CONTRACT §13), over
 * plain HTTPS with the API key: a channel's subscriber count (`channels?part=statistics`) and a
 * video's view count (`videos?part=statistics`). Plain `fetch` rather than Google's generated
 * client: two GET requests do not justify its size (docs/decisions/131-youtube-over-fetch.md).
 * `apiUrl` is Google's, or a compatible server in tests.
 */
export interface YouTubeConfig {
  apiKey: string;
  channelId: string;
  apiUrl: string;
}

export class YouTubeError extends Error {}

const TIMEOUT_MS = 10_000;

async function statistics(config: YouTubeConfig, resource: 'channels' | 'videos', id: string): Promise<Record<string, string>> {
  const url = new URL(`youtube/v3/${resource}`, config.apiUrl.endsWith('/') ? config.apiUrl : `${config.apiUrl}/`);
  url.searchParams.set('part', 'statistics');
  url.searchParams.set('id', id);
  url.searchParams.set('key', config.apiKey);
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new YouTubeError(`YouTube Data API unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new YouTubeError(`YouTube Data API answered ${response.status} for ${resource}`);
  const body = (await response.json()) as { items?: { id?: string; statistics?: Record<string, string> }[] };
  const item = body.items?.[0];
  if (!item?.statistics) throw new YouTubeError(`YouTube Data API knows no ${resource === 'channels' ? 'channel' : 'video'} ${id}`);
  return item.statistics;
}

function whole(value: string | undefined, what: string): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n) || n < 0) throw new YouTubeError(`YouTube Data API gave no ${what}`);
  return n;
}

/** The label channel's subscriber count now (YouTube rounds it to three significant figures). */
export async function readSubscriberCount(config: YouTubeConfig): Promise<number> {
  return whole((await statistics(config, 'channels', config.channelId)).subscriberCount, 'subscriber count');
}

export async function readViewCount(config: YouTubeConfig, videoId: string): Promise<number> {
  return whole((await statistics(config, 'videos', videoId)).viewCount, 'view count');
}

/** The video id of a YouTube link (watch?v=, youtu.be/, /shorts/, /embed/, /live/), or null. */
export function youTubeVideoId(videoUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(videoUrl);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^(www|m|music)\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = url.pathname.slice(1).split('/')[0] ?? null;
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    id = url.searchParams.get('v') ?? /^\/(?:shorts|embed|live|v)\/([^/]+)/.exec(url.pathname)?.[1] ?? null;
  }
  return id && /^[A-Za-z0-9_-]{6,20}$/.test(id) ? id : null;
}
