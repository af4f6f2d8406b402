import type { Readable } from 'node:stream';
import { Readable as NodeReadable } from 'node:stream';
import { oneLine, plainText } from '@shared/production';

/**
 * The parts of the YouTube Data API v3 and the Analytics API v2 the label's channel needs
 * (CONTRACT §16), over plain `fetch` with an OAuth bearer token: the channel (`channels.list
 * mine=true`), the resumable upload of a video, `thumbnails.set` and `reports`. Hand-written
 * rather than `googleapis`, as decision 131 did for the API-key reads and decision 156 says why
 * for these: the resumable protocol has to be driven by us (the session URI and its progress live
 * in our database, so a restart resumes), which the generated client does not expose.
 */
export class YouTubeApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    /** 429, 5xx, dropped connections and timeouts: worth trying again after a while. */
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
    /** Google's own reason for a refusal (`quotaExceeded`, `uploadLimitExceeded`, …), when it gave one. */
    readonly reason: string | null = null,
  ) {
    super(message);
  }
}

/** The request was given up on our side (a publication cancelled): neither YouTube's failure nor worth retrying. */
export class YouTubeCallAborted extends Error {}

/** The longest wait between two tries, in first waits: 15 s doubles up to 10 minutes (decision 175). */
export const RETRY_DELAY_CAP = 40;
/** The wait after the n-th failed try (n from 1): 15 s, 30 s, 1, 2, 4, 8 and 10 minutes with the default first wait. */
export const retryDelayMs = (attempt: number, firstMs: number) => Math.min(firstMs * 2 ** (attempt - 1), firstMs * RETRY_DELAY_CAP);

/** CONTRACT §23: a YouTube request that does not answer within 60 s has failed. */
export const YOUTUBE_TIMEOUT_MS = 60_000;

/** How one call may run: the time it may go without an answer, and a signal that gives it up. */
export interface CallLimits {
  timeoutMs: number;
  signal?: AbortSignal;
}

const base = (url: string) => (url.endsWith('/') ? url : `${url}/`);

async function failure(response: Response, what: string): Promise<YouTubeApiError> {
  let message = `${what}: YouTube answered ${response.status}`;
  let reason: string | null = null;
  try {
    const body = (await response.json()) as {
      error?: { message?: string; errors?: { reason?: string }[] } | string;
      error_description?: string;
    };
    const detail = typeof body.error === 'string' ? (body.error_description ?? body.error) : body.error?.message;
    if (detail) message = detail;
    if (typeof body.error === 'object') reason = body.error.errors?.[0]?.reason ?? null;
  } catch {
    // not JSON: the status says it
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryable = response.status === 429 || response.status >= 500;
  return new YouTubeApiError(
    message,
    response.status,
    retryable,
    Number.isFinite(retryAfter) && response.headers.has('retry-after') ? retryAfter * 1000 : null,
    reason,
  );
}

/**
 * One request, given up when YouTube goes `timeoutMs` without answering (CONTRACT §23). A body is
 * streamed and the clock starts again with each piece of it that leaves, so a large chunk on a
 * slow link is not cut short while it moves, but a stalled one (YouTube reads nothing, or never
 * answers once it has everything) fails within `timeoutMs`; the answer's own body gets as long again.
 */
async function send(url: URL | string, init: RequestInit, what: string, limits: CallLimits, body?: ReadableStream<Uint8Array>): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limits.timeoutMs);
    timer.unref();
  };
  const cancel = () => controller.abort();
  limits.signal?.addEventListener('abort', cancel, { once: true });
  let streamed: ReadableStream<Uint8Array> | undefined;
  if (body) {
    const reader = body.getReader();
    streamed = new ReadableStream<Uint8Array>({
      async pull(stream) {
        const { done, value } = await reader.read();
        if (done) return stream.close();
        arm();
        stream.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  }
  arm();
  try {
    if (limits.signal?.aborted) throw new YouTubeCallAborted(`${what}: given up`);
    const response = await fetch(url, { ...init, ...(streamed ? { body: streamed, duplex: 'half' } : {}), signal: controller.signal } as RequestInit);
    arm();
    return response;
  } catch (error) {
    clearTimeout(timer);
    if (limits.signal?.aborted) throw new YouTubeCallAborted(`${what}: given up`);
    const seconds = Math.round(limits.timeoutMs / 100) / 10;
    throw new YouTubeApiError(
      timedOut ? `${what}: YouTube did not answer within ${seconds} s` : `${what}: YouTube could not be reached (${(error as Error).message})`,
      null,
      true,
    );
  } finally {
    limits.signal?.removeEventListener('abort', cancel);
  }
}

export interface ApiUrls {
  apiUrl: string;
  analyticsUrl: string;
  /** How long a request may go without an answer (CONTRACT §23): `YOUTUBE_TIMEOUT_MS` unless configured shorter. */
  timeoutMs: number;
}

export interface ChannelInfo {
  channelId: string;
  title: string;
  subscriberCount: number | null;
}

/** `channels.list?part=snippet,statistics&mine=true`: the channel the token belongs to. */
export async function readMyChannel(urls: ApiUrls, token: string): Promise<ChannelInfo> {
  const url = new URL('youtube/v3/channels', base(urls.apiUrl));
  url.searchParams.set('part', 'snippet,statistics');
  url.searchParams.set('mine', 'true');
  const response = await send(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, 'channels.list', urls);
  if (!response.ok) throw await failure(response, 'channels.list');
  const body = (await response.json()) as {
    items?: { id?: string; snippet?: { title?: string }; statistics?: { subscriberCount?: string; hiddenSubscriberCount?: boolean } }[];
  };
  const item = body.items?.[0];
  if (!item?.id) throw new YouTubeApiError('This Google account has no YouTube channel', 404, false);
  const subscribers = Number(item.statistics?.subscriberCount);
  return {
    channelId: item.id,
    title: item.snippet?.title ?? item.id,
    subscriberCount: item.statistics?.subscriberCount !== undefined && Number.isSafeInteger(subscribers) ? subscribers : null,
  };
}

export interface VideoMetadata {
  title: string;
  description: string;
  tags: string[];
  privacyStatus: 'public' | 'unlisted' | 'private';
  publishAt: Date | null;
  /** The artist said AI tools were used (SPEC's aiUsage): for the upload's AI disclosure (CONTRACT §22). */
  aiUsage: boolean;
}

/**
 * The video resource `videos.insert` is sent: the one place its snippet and status are built. The
 * title goes as one line and the description as plain text whatever was stored (issue 32, 36).
 */
export function videoInsertBody(video: VideoMetadata) {
  const scheduled = video.publishAt !== null;
  return {
    snippet: { title: oneLine(video.title), description: plainText(video.description), tags: video.tags, categoryId: '10' },
    status: {
      // A scheduled video is private until its time (YouTube's rule for status.publishAt).
      privacyStatus: scheduled ? 'private' : video.privacyStatus,
      ...(scheduled ? { publishAt: video.publishAt!.toISOString() } : {}),
      selfDeclaredMadeForKids: false,
      // CONTRACT §22: the artist's aiUsage, declared as YouTube's altered or synthetic content.
      containsSyntheticMedia: video.aiUsage,
    },
  };
}

/** Starts a resumable upload session: its URI (the `Location` of the answer). */
export async function startUploadSession(
  urls: ApiUrls,
  token: string,
  video: VideoMetadata,
  size: number,
  contentType: string,
  limits: CallLimits,
): Promise<string> {
  const url = new URL('upload/youtube/v3/videos', base(urls.apiUrl));
  url.searchParams.set('uploadType', 'resumable');
  url.searchParams.set('part', 'snippet,status');
  const body = videoInsertBody(video);
  const response = await send(
    url,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(size),
        'x-upload-content-type': contentType,
      },
      body: JSON.stringify(body),
    },
    'videos.insert',
    limits,
  );
  if (!response.ok) throw await failure(response, 'videos.insert');
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location) throw new YouTubeApiError('videos.insert: YouTube gave no upload session', response.status, true);
  return new URL(location, url).toString();
}

export type SessionState = { done: false; received: number } | { done: true; video: { id: string; publishedAt: string | null } };

async function sessionAnswer(response: Response, what: string): Promise<SessionState | 'gone'> {
  if (response.status === 308) {
    await response.body?.cancel();
    // `Range: bytes=0-{last}`; none means nothing arrived yet.
    const range = /^bytes=0-(\d+)$/.exec(response.headers.get('range') ?? '');
    return { done: false, received: range ? Number(range[1]) + 1 : 0 };
  }
  if (response.status === 200 || response.status === 201) {
    const body = (await response.json()) as { id?: string; snippet?: { publishedAt?: string } };
    if (!body.id) throw new YouTubeApiError(`${what}: YouTube answered without a video id`, response.status, true);
    return { done: true, video: { id: body.id, publishedAt: body.snippet?.publishedAt ?? null } };
  }
  // The session itself is gone (expired after a week, or never existed): nothing was made.
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    return 'gone';
  }
  throw await failure(response, what);
}

/** Asks the session how much arrived: `Content-Range: bytes *\/{size}` → 308 with `Range`, or the finished video. */
export async function querySession(sessionUri: string, token: string, size: number, limits: CallLimits): Promise<SessionState | 'gone'> {
  const response = await send(
    sessionUri,
    { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-length': '0', 'content-range': `bytes */${size}` } },
    'upload status',
    limits,
  );
  return sessionAnswer(response, 'upload status');
}

/** Sends bytes `start`..`end` (inclusive) of `size`, streamed from `body`. */
export async function sendChunk(
  sessionUri: string,
  token: string,
  chunk: { start: number; end: number; size: number; body: Readable },
  limits: CallLimits,
): Promise<SessionState | 'gone'> {
  const response = await send(
    sessionUri,
    {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-length': String(chunk.end - chunk.start + 1),
        'content-range': `bytes ${chunk.start}-${chunk.end}/${chunk.size}`,
      },
    },
    'upload',
    limits,
    NodeReadable.toWeb(chunk.body) as ReadableStream<Uint8Array>,
  );
  return sessionAnswer(response, 'upload');
}

/** `thumbnails.set`: the artwork as the video's thumbnail. */
export async function setThumbnail(urls: ApiUrls, token: string, videoId: string, image: Buffer, contentType: string, signal?: AbortSignal): Promise<void> {
  const url = new URL('upload/youtube/v3/thumbnails/set', base(urls.apiUrl));
  url.searchParams.set('videoId', videoId);
  const response = await send(
    url,
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body: new Uint8Array(image) },
    'thumbnails.set',
    { timeoutMs: urls.timeoutMs, signal },
  );
  if (!response.ok) throw await failure(response, 'thumbnails.set');
  await response.body?.cancel();
}

/** Google's reasons for a refused call that a quota explains: worth trying again later. */
const QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded', 'rateLimitExceeded', 'userRateLimitExceeded']);

/** A refusal YouTube gave because the project's quota (or rate) ran out (CONTRACT §25 part 4). */
export const isQuotaRefusal = (error: unknown): error is YouTubeApiError =>
  error instanceof YouTubeApiError && (error.status === 429 || (error.reason !== null && QUOTA_REASONS.has(error.reason)));

/** One `v2/reports` query of one video over `startDate`..`endDate` (YYYY-MM-DD, inclusive): its columns by name. */
async function queryReport(
  urls: ApiUrls,
  token: string,
  query: { videoId: string; startDate: string; endDate: string; metrics: string; dimensions: string; sort?: string },
  /** Counts each query sent, for the quota (Analytics counts a query, not its rows). */
  counted?: () => void,
): Promise<{ names: (string | undefined)[]; rows: unknown[][]; status: number }> {
  const url = new URL('v2/reports', base(urls.analyticsUrl));
  url.searchParams.set('ids', 'channel==MINE');
  url.searchParams.set('metrics', query.metrics);
  url.searchParams.set('dimensions', query.dimensions);
  url.searchParams.set('filters', `video==${query.videoId}`);
  url.searchParams.set('startDate', query.startDate);
  url.searchParams.set('endDate', query.endDate);
  if (query.sort) url.searchParams.set('sort', query.sort);
  counted?.();
  const response = await send(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, 'reports.query', urls);
  if (!response.ok) throw await failure(response, 'reports.query');
  const body = (await response.json()) as { columnHeaders?: { name?: string }[]; rows?: unknown[][] };
  return { names: (body.columnHeaders ?? []).map((h) => h.name), rows: body.rows ?? [], status: response.status };
}

const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;

/**
 * The Analytics API's daily views of one video over `startDate`..`endDate` (YYYY-MM-DD, inclusive).
 * With `averageViewPercentage` (the 14-day check's screen, CONTRACT §25) the same query also
 * carries each day's average percentage watched: one query, not two.
 */
export async function readDailyViews(
  urls: ApiUrls,
  token: string,
  videoId: string,
  startDate: string,
  endDate: string,
  options: { averageViewPercentage?: boolean; counted?: () => void } = {},
): Promise<{ date: string; views: number; averageViewPercentage?: number }[]> {
  const metrics = options.averageViewPercentage ? 'views,averageViewPercentage' : 'views';
  const report = await queryReport(urls, token, { videoId, startDate, endDate, metrics, dimensions: 'day', sort: 'day' }, options.counted);
  const dayAt = report.names.indexOf('day');
  const viewsAt = report.names.indexOf('views');
  const percentAt = report.names.indexOf('averageViewPercentage');
  if (dayAt < 0 || viewsAt < 0) throw new YouTubeApiError('reports.query: YouTube answered without day and views', report.status, true);
  return report.rows.flatMap((row) => {
    const date = row[dayAt];
    const views = Number(row[viewsAt]);
    if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date) || !isCount(views)) return [];
    const percent = percentAt >= 0 ? Number(row[percentAt]) : NaN;
    return [{ date, views, ...(Number.isFinite(percent) && percent >= 0 ? { averageViewPercentage: percent } : {}) }];
  });
}

/** The Analytics API's views of one video by traffic source (`insightTrafficSourceType`) over the dates. */
export async function readTrafficSources(
  urls: ApiUrls,
  token: string,
  videoId: string,
  startDate: string,
  endDate: string,
  counted?: () => void,
): Promise<{ type: string; views: number }[]> {
  const report = await queryReport(urls, token, { videoId, startDate, endDate, metrics: 'views', dimensions: 'insightTrafficSourceType', sort: '-views' }, counted);
  const typeAt = report.names.indexOf('insightTrafficSourceType');
  const viewsAt = report.names.indexOf('views');
  if (typeAt < 0 || viewsAt < 0) throw new YouTubeApiError('reports.query: YouTube answered without traffic sources and views', report.status, true);
  return report.rows.flatMap((row) => {
    const type = row[typeAt];
    const views = Number(row[viewsAt]);
    return typeof type === 'string' && /^[A-Z_]{1,40}$/.test(type) && isCount(views) ? [{ type, views }] : [];
  });
}
