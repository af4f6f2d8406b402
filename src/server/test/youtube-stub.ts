import { createServer, type Server } from 'node:http';
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
  close(): Promise<void>;
}

export async function startYouTubeStub(options: { subscribers?: number; apiKey?: string; channelId?: string } = {}): Promise<YouTubeStub> {
  const stub = {
    apiKey: options.apiKey ?? 'test-youtube-key',
    channelId: options.channelId ?? 'UCtestlabelchannel000001',
    subscribers: options.subscribers ?? 31_000,
    views: new Map<string, number>(),
    requests: [] as { resource: string; id: string | null }[],
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    };
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
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  });
}
