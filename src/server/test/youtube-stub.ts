import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A YouTube Data API v3–compatible server for tests: `GET /youtube/v3/channels` and
 * `GET /youtube/v3/videos` with `part=statistics`, `id` and `key`, answering Google's shapes
 * (a `youtube#channelListResponse` / `youtube#videoListResponse` whose items carry `statistics`
 * as strings) and Google's error body for a wrong key. Tests set the figures and read `requests`.
 */
export interface YouTubeStub {
  url: string;
  apiKey: string;
  channelId: string;
  subscribers: number;
  views: Map<string, number>;
  requests: { resource: string; id: string | null }[];
  /**
   * The OAuth side (CONTRACT §16): a bearer token is checked by `verifyBearer` (a test wires the
   * OpenID test provider's check in); without it every bearer call is refused with 401.
   */
  verifyBearer: ((token: string) => Promise<boolean>) | undefined;
  channelTitle: string;
  /** Resumable upload sessions by id; each finished one made one video. */
  sessions: Map<string, UploadSession>;
  /** Videos made, by id. */
  videos: Map<string, { title: string; description: string; tags: string[]; privacyStatus: string; publishAt: string | null; containsSyntheticMedia: boolean; sha256: string; size: number }>;
  thumbnails: Map<string, { contentType: string; size: number }>;
  /** Daily views per video and YYYY-MM-DD, for `v2/reports`. */
  dailyViews: Map<string, Map<string, number>>;
  /** Views per day for any video without figures of its own, up to today (a browser journey's chart). */
  defaultDailyViews: number | null;
  /** How many days before today those default figures stop, as Analytics reports days late (0: through today). */
  reportLagDays: number;
  /** Each `v2/reports` query's parameters. */
  reports: Record<string, string>[];
  /**
   * Views by traffic source per video (`insightTrafficSourceType`), as shares of the window's
   * views that add up to 1; without one, an organic mix (search, subscribers, suggested, browse,
   * a little from outside links), so a video's sources always add up to its days' views.
   */
  trafficShares: Map<string, Record<string, number>>;
  /** The average percentage of the video watched, per video (`averageViewPercentage`); 42.5 without one. */
  averageViewPercentage: Map<string, number>;
  /** Failure injection: the next N `v2/reports` queries are refused as Google refuses a spent quota (403 quotaExceeded). */
  quotaRefusals: number;
  /** Failure injection: the next N byte-carrying upload PUTs answer this (e.g. 503), after reading the body. */
  failChunks: { count: number; status: number; message: string; retryAfterS?: number; fromByte?: number };
  /** Failure injection: the next session start is refused with this status and message. */
  refuseInsert: { status: number; message: string; reason: string } | null;
  /** Failure injection: once this many bytes of a chunk arrived, the connection is dropped (once). */
  dropAfterBytes: number | null;
  /**
   * Hanging YouTube: `channels.list mine=true` (with `hangChannels`) and every PUT to an upload
   * session whose video title is in `hangTitles` are held open without reading or answering,
   * each logged in `hung` (closed when the client gives up); `release()` lets the held ones go on.
   */
  hangChannels: boolean;
  hangTitles: Set<string>;
  hung: { kind: 'channels' | 'upload'; title?: string; openedAt: number; closedAt: number | null }[];
  release(): void;
  /** Every upload request: `start` for a new session, `query` for `bytes *\/N`, `chunk` for bytes. */
  uploadLog: { kind: 'start' | 'query' | 'chunk'; range?: string; status: number }[];
  close(): Promise<void>;
}

export interface UploadSession {
  id: string;
  size: number;
  contentType: string;
  metadata: { snippet?: { title?: string; description?: string; tags?: string[] }; status?: { privacyStatus?: string; publishAt?: string; containsSyntheticMedia?: boolean } };
  received: number;
  hash: Hash;
  videoId: string | null;
}

/** Where an organic video's views come from (YouTube Analytics' traffic source types). */
const ORGANIC_TRAFFIC: Record<string, number> = {
  YT_SEARCH: 0.34,
  SUBSCRIBER: 0.22,
  RELATED_VIDEO: 0.2,
  BROWSE: 0.12,
  PLAYLIST: 0.04,
  EXT_URL: 0.05,
  NO_LINK_OTHER: 0.03,
};

export async function startYouTubeStub(options: { subscribers?: number; apiKey?: string; channelId?: string } = {}): Promise<YouTubeStub> {
  const stub = {
    apiKey: options.apiKey ?? 'test-youtube-key',
    channelId: options.channelId ?? 'UCtestlabelchannel000001',
    subscribers: options.subscribers ?? 31_000,
    views: new Map<string, number>(),
    requests: [] as { resource: string; id: string | null }[],
    verifyBearer: undefined as YouTubeStub['verifyBearer'],
    channelTitle: 'Label Channel',
    sessions: new Map<string, UploadSession>(),
    videos: new Map() as YouTubeStub['videos'],
    thumbnails: new Map<string, { contentType: string; size: number }>(),
    dailyViews: new Map<string, Map<string, number>>(),
    reports: [] as Record<string, string>[],
    trafficShares: new Map<string, Record<string, number>>(),
    averageViewPercentage: new Map<string, number>(),
    quotaRefusals: 0,
    defaultDailyViews: null as number | null,
    reportLagDays: 0,
    failChunks: { count: 0, status: 503, message: 'Backend Error' } as YouTubeStub['failChunks'],
    refuseInsert: null as YouTubeStub['refuseInsert'],
    dropAfterBytes: null as number | null,
    uploadLog: [] as YouTubeStub['uploadLog'],
    hangChannels: false,
    hangTitles: new Set<string>(),
    hung: [] as YouTubeStub['hung'],
    release: () => {
      for (const go of held.splice(0)) go();
    },
  };
  const held: (() => void)[] = [];
  /** Holds a request open until `release()` (or until the client gives up): true when it is still there to answer. */
  async function hang(req: IncomingMessage, res: ServerResponse, entry: YouTubeStub['hung'][number]): Promise<boolean> {
    stub.hung.push(entry);
    req.pause();
    res.on('close', () => {
      entry.closedAt ??= Date.now();
    });
    await new Promise<void>((resolve) => held.push(resolve));
    req.resume();
    return !res.destroyed && entry.closedAt === null;
  }
  let url = '';
  type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;
  const googleError = (code: number, message: string, reason: string) => ({ error: { code, message, errors: [{ message, domain: 'youtube', reason }] } });

  async function bearerOk(req: IncomingMessage): Promise<boolean> {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !stub.verifyBearer) return false;
    return stub.verifyBearer(token);
  }

  async function readAll(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  function videoResource(id: string) {
    const video = stub.videos.get(id)!;
    return {
      kind: 'youtube#video',
      id,
      snippet: { title: video.title, description: video.description, tags: video.tags, publishedAt: new Date().toISOString() },
      status: {
        uploadStatus: 'uploaded',
        privacyStatus: video.privacyStatus,
        ...(video.publishAt ? { publishAt: video.publishAt } : {}),
        containsSyntheticMedia: video.containsSyntheticMedia,
      },
    };
  }

  async function oauthRoute(req: IncomingMessage, res: ServerResponse, u: URL, send: Send): Promise<void> {
    if (!(await bearerOk(req))) {
      req.resume();
      return send(401, googleError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token.', 'authError'));
    }
    if (req.method === 'GET' && u.pathname === '/youtube/v3/channels' && u.searchParams.get('mine') === 'true') {
      if (stub.hangChannels && !(await hang(req, res, { kind: 'channels', openedAt: Date.now(), closedAt: null }))) return;
      const parts = u.searchParams.get('part')?.split(',') ?? [];
      return send(200, {
        kind: 'youtube#channelListResponse',
        pageInfo: { totalResults: 1, resultsPerPage: 5 },
        items: [
          {
            kind: 'youtube#channel',
            id: stub.channelId,
            ...(parts.includes('snippet') ? { snippet: { title: stub.channelTitle } } : {}),
            ...(parts.includes('statistics') ? { statistics: { subscriberCount: String(stub.subscribers), hiddenSubscriberCount: false } } : {}),
          },
        ],
      });
    }
    if (req.method === 'POST' && u.pathname === '/upload/youtube/v3/videos' && u.searchParams.get('uploadType') === 'resumable') {
      const metadata = JSON.parse((await readAll(req)).toString('utf8') || '{}') as UploadSession['metadata'];
      const size = Number(req.headers['x-upload-content-length']);
      const refuse = stub.refuseInsert;
      const title = metadata.snippet?.title ?? '';
      let failure: [number, string, string] | null = refuse ? [refuse.status, refuse.message, refuse.reason] : null;
      if (!failure && (!title || title.length > 100 || /[<>]/.test(title))) failure = [400, 'The request metadata specifies an invalid video title.', 'invalidTitle'];
      if (!failure && !Number.isSafeInteger(size)) failure = [400, 'X-Upload-Content-Length is required', 'badRequest'];
      stub.uploadLog.push({ kind: 'start', status: failure ? failure[0] : 200 });
      if (failure) return send(failure[0], googleError(...failure));
      const id = randomBytes(9).toString('base64url');
      stub.sessions.set(id, { id, size, contentType: String(req.headers['x-upload-content-type'] ?? 'video/*'), metadata, received: 0, hash: createHash('sha256'), videoId: null });
      res.writeHead(200, { location: `${url}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${id}`, 'content-length': '0' });
      res.end();
      return;
    }
    if (req.method === 'PUT' && u.pathname === '/upload/youtube/v3/videos' && u.searchParams.has('upload_id')) {
      const session = stub.sessions.get(u.searchParams.get('upload_id')!);
      if (!session) {
        req.resume();
        return send(404, googleError(404, 'Upload session not found', 'notFound'));
      }
      const title = session.metadata.snippet?.title ?? '';
      if (stub.hangTitles.has(title) && !(await hang(req, res, { kind: 'upload', title, openedAt: Date.now(), closedAt: null }))) return;
      const contentRange = String(req.headers['content-range'] ?? '');
      const rangeHeader = (): Record<string, string> => (session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {});
      const done = () => {
        stub.uploadLog.push({ kind: contentRange.includes('*') ? 'query' : 'chunk', range: contentRange, status: 200 });
        send(200, videoResource(session.videoId!));
      };
      if (/^bytes \*\/\d+$/.test(contentRange)) {
        req.resume();
        if (session.videoId) return done();
        stub.uploadLog.push({ kind: 'query', range: contentRange, status: 308 });
        res.writeHead(308, { ...rangeHeader(), 'content-length': '0' });
        res.end();
        return;
      }
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange);
      if (!m || Number(m[3]) !== session.size || Number(m[1]) !== session.received || Number(m[2]) >= session.size) {
        req.resume();
        stub.uploadLog.push({ kind: 'chunk', range: contentRange, status: 400 });
        return send(400, googleError(400, `Content-Range ${contentRange} does not continue the upload at ${session.received}`, 'badContent'));
      }
      if (stub.failChunks.count > 0 && session.received >= (stub.failChunks.fromByte ?? 0)) {
        stub.failChunks.count--;
        await readAll(req).catch(() => undefined);
        stub.uploadLog.push({ kind: 'chunk', range: contentRange, status: stub.failChunks.status });
        const headers: Record<string, string> = stub.failChunks.retryAfterS !== undefined ? { 'retry-after': String(stub.failChunks.retryAfterS) } : {};
        return send(stub.failChunks.status, googleError(stub.failChunks.status, stub.failChunks.message, 'backendError'), headers);
      }
      const drop = stub.dropAfterBytes;
      let seen = 0;
      try {
        for await (const piece of req) {
          let chunk = piece as Buffer;
          if (drop !== null && seen + chunk.length >= drop) {
            chunk = chunk.subarray(0, drop - seen);
            session.hash.update(chunk);
            session.received += chunk.length;
            stub.dropAfterBytes = null;
            stub.uploadLog.push({ kind: 'chunk', range: contentRange, status: 0 });
            req.socket.destroy();
            return;
          }
          seen += chunk.length;
          session.hash.update(chunk);
          session.received += chunk.length;
        }
      } catch {
        return; // the client went away: what arrived stays, as on YouTube
      }
      if (session.received < session.size) {
        stub.uploadLog.push({ kind: 'chunk', range: contentRange, status: 308 });
        res.writeHead(308, { ...rangeHeader(), 'content-length': '0' });
        res.end();
        return;
      }
      const videoId = randomBytes(8).toString('base64url').slice(0, 11);
      session.videoId = videoId;
      stub.videos.set(videoId, {
        title: session.metadata.snippet?.title ?? '',
        description: session.metadata.snippet?.description ?? '',
        tags: session.metadata.snippet?.tags ?? [],
        containsSyntheticMedia: session.metadata.status?.containsSyntheticMedia === true,
        privacyStatus: session.metadata.status?.privacyStatus ?? 'public',
        publishAt: session.metadata.status?.publishAt ?? null,
        sha256: session.hash.digest('hex'),
        size: session.size,
      });
      return done();
    }
    if (req.method === 'POST' && u.pathname === '/upload/youtube/v3/thumbnails/set') {
      const videoId = u.searchParams.get('videoId') ?? '';
      const body = await readAll(req);
      if (!stub.videos.has(videoId)) return send(404, googleError(404, 'The video that you are trying to update cannot be found.', 'videoNotFound'));
      stub.thumbnails.set(videoId, { contentType: String(req.headers['content-type']), size: body.length });
      return send(200, { kind: 'youtube#thumbnailSetResponse', items: [{ default: { url: `https://i.ytimg.com/vi/${videoId}/default.jpg` } }] });
    }
    if (req.method === 'GET' && u.pathname === '/v2/reports') {
      const params = Object.fromEntries(u.searchParams);
      stub.reports.push(params);
      if (stub.quotaRefusals > 0) {
        stub.quotaRefusals--;
        return send(403, googleError(403, 'The request cannot be completed because you have exceeded your quota.', 'quotaExceeded'));
      }
      const videoId = /^video==(.+)$/.exec(params.filters ?? '')?.[1];
      const byDay = params.dimensions === 'day' && (params.metrics === 'views' || params.metrics === 'views,averageViewPercentage');
      const bySource = params.dimensions === 'insightTrafficSourceType' && params.metrics === 'views';
      if (params.ids !== 'channel==MINE' || !(byDay || bySource) || !videoId || !params.startDate || !params.endDate) {
        return send(400, googleError(400, 'Invalid query', 'badRequest'));
      }
      let figures = stub.dailyViews.get(videoId);
      if (!figures && stub.defaultDailyViews !== null) {
        figures = new Map();
        const today = new Date(Date.now() - stub.reportLagDays * 86_400_000).toISOString().slice(0, 10);
        for (let d = new Date(`${params.startDate}T00:00:00Z`); d.toISOString().slice(0, 10) <= today; d = new Date(d.getTime() + 86_400_000)) {
          figures.set(d.toISOString().slice(0, 10), stub.defaultDailyViews);
        }
      }
      const days = [...(figures ?? new Map<string, number>())]
        .filter(([day]) => day >= params.startDate! && day <= params.endDate!)
        .sort(([a], [b]) => a.localeCompare(b));
      if (bySource) {
        // Google's rows for this report: one per source with views, most views first.
        const total = days.reduce((sum, [, views]) => sum + views, 0);
        const shares = stub.trafficShares.get(videoId) ?? ORGANIC_TRAFFIC;
        const entries = Object.entries(shares);
        let left = total;
        const rows = entries.map(([type, share], i) => {
          const views = i === entries.length - 1 ? left : Math.min(left, Math.round(total * share));
          left -= views;
          return [type, views] as [string, number];
        });
        return send(200, {
          kind: 'youtubeAnalytics#resultTable',
          columnHeaders: [
            { name: 'insightTrafficSourceType', columnType: 'DIMENSION', dataType: 'STRING' },
            { name: 'views', columnType: 'METRIC', dataType: 'INTEGER' },
          ],
          rows: rows.filter(([, views]) => views > 0).sort((a, b) => b[1] - a[1]),
        });
      }
      const withPercent = params.metrics === 'views,averageViewPercentage';
      const percent = stub.averageViewPercentage.get(videoId) ?? 42.5;
      return send(200, {
        kind: 'youtubeAnalytics#resultTable',
        columnHeaders: [
          { name: 'day', columnType: 'DIMENSION', dataType: 'STRING' },
          { name: 'views', columnType: 'METRIC', dataType: 'INTEGER' },
          ...(withPercent ? [{ name: 'averageViewPercentage', columnType: 'METRIC', dataType: 'FLOAT' }] : []),
        ],
        rows: days.map(([day, views]) => (withPercent ? [day, views, views > 0 ? percent : 0] : [day, views])),
      });
    }
    req.resume();
    return send(404, { error: { code: 404, message: 'Not Found', errors: [] } });
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== undefined || url.pathname.startsWith('/upload/') || url.pathname === '/v2/reports' || url.searchParams.has('mine')) {
      void oauthRoute(req, res, url, send).catch((error: unknown) => {
        if (!res.headersSent) send(500, { error: { code: 500, message: String(error) } });
      });
      return;
    }
    const match = /^\/youtube\/v3\/(channels|videos)$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return send(404, { error: { code: 404, message: 'Not Found', errors: [] } });
    const resource = match[1]!;
    const id = url.searchParams.get('id');
    stub.requests.push({ resource, id });
    if (url.searchParams.get('key') !== stub.apiKey) {
      return send(400, {
        error: { code: 400, message: 'API key not valid. Please pass a valid API key.', errors: [{ reason: 'badRequest' }] },
      });
    }
    if (!url.searchParams.get('part')?.split(',').includes('statistics')) {
      return send(400, { error: { code: 400, message: "Required parameter: part", errors: [{ reason: 'required' }] } });
    }
    const items: unknown[] = [];
    if (resource === 'channels' && id === stub.channelId) {
      items.push({
        kind: 'youtube#channel',
        id,
        statistics: { viewCount: '123456', subscriberCount: String(stub.subscribers), hiddenSubscriberCount: false, videoCount: '42' },
      });
    }
    if (resource === 'videos' && id && stub.views.has(id)) {
      items.push({ kind: 'youtube#video', id, statistics: { viewCount: String(stub.views.get(id)), likeCount: '10', commentCount: '2' } });
    }
    send(200, {
      kind: resource === 'channels' ? 'youtube#channelListResponse' : 'youtube#videoListResponse',
      pageInfo: { totalResults: items.length, resultsPerPage: 5 },
      items,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  return Object.assign(stub, {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  });
}
