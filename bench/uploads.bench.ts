/**
 * A 100 MB upload through the local storage driver, end to end over HTTP on this machine:
 * PUT to the upload URL (streamed to disk), normalisation (size + content sniffing), download.
 * Peak memory is the RSS growth of this process (server and client share it; the client
 * streams from disk too, so the figure is an upper bound for the server's). A plain file copy
 * of the same size is the yardstick for throughput.
 */
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { registerBenchArtist, startBenchApp } from './support/bench-app';

const SIZE = 100 * 1024 * 1024;
const MB = 1024 * 1024;

export default async function (): Promise<void> {
  const { origin, dir, stop } = await startBenchApp('uploads');
  try {
    const { cookie } = await registerBenchArtist(origin);
    const source = path.join(dir, 'source.mp3');
    await writeMp3(source, SIZE);
    const issued = await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie, origin } });
    const { uploadURL } = (await issued.json()) as { uploadURL: string };

    global.gc?.();
    const memory = () => {
      const m = process.memoryUsage();
      return { rss: m.rss, buffers: m.heapUsed + m.external };
    };
    const baseline = memory();
    const peak = { ...baseline };
    const sample = () => {
      const m = memory();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.buffers = Math.max(peak.buffers, m.buffers);
    };
    const sampler = setInterval(sample, 5);
    let status = 0;
    const uploadMs = await timed(async () => {
      status = await putFile(uploadURL, source, cookie, origin);
    });
    clearInterval(sampler);
    sample();
    if (status !== 200) throw new Error(`upload answered ${status}`);
    const copyMs = await timed(() => pipeline(createReadStream(source), createWriteStream(path.join(dir, 'copy.mp3'))));

    let objectPath = '';
    const normaliseMs = await timed(async () => {
      const res = await fetch(`${origin}/api/music-files`, {
        method: 'PUT',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ musicFileURL: uploadURL, fileName: 'bench.mp3', fileSize: SIZE }),
      });
      objectPath = ((await res.json()) as { objectPath: string }).objectPath;
    });
    let downloaded = 0;
    const downloadMs = await timed(async () => {
      const res = await fetch(`${origin}${objectPath}`, { headers: { cookie } });
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) downloaded += chunk.length;
    });
    if (downloaded !== SIZE || statSync(source).size !== SIZE) throw new Error('size mismatch');

    const rate = (ms: number) => `${(SIZE / MB / (ms / 1000)).toFixed(0)} MB/s`;
    console.table([
      { step: 'plain file copy (stream)', time_ms: copyMs, throughput: rate(copyMs) },
      { step: 'PUT upload URL (local driver)', time_ms: uploadMs, throughput: rate(uploadMs) },
      { step: 'PUT /api/music-files (check)', time_ms: normaliseMs, throughput: '' },
      { step: 'GET /objects/uploads/{id}', time_ms: downloadMs, throughput: rate(downloadMs) },
    ]);
    const growth = (peak.rss - baseline.rss) / MB;
    console.log(
      `peak RSS growth during the 100 MB upload: ${growth.toFixed(1)} MB (limit 64 MB: ${growth < 64 ? 'ok' : 'EXCEEDED'}); ` +
        `peak JS heap + buffers growth: ${((peak.buffers - baseline.buffers) / MB).toFixed(1)} MB`,
    );
  } finally {
    await stop();
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return Math.round(performance.now() - start);
}



/** An MP3 frame header followed by silence, written in 1 MB chunks. */
async function writeMp3(file: string, size: number): Promise<void> {
  const header = Buffer.alloc(MB);
  header.set([0xff, 0xfb, 0x90, 0x64]);
  const silence = Buffer.alloc(MB);
  let written = 0;
  await pipeline(async function* () {
    while (written < size) {
      const n = Math.min(MB, size - written);
      yield (written === 0 ? header : silence).subarray(0, n);
      written += n;
    }
  }, createWriteStream(file));
}

function putFile(url: string, file: string, cookie: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'PUT',
      headers: { cookie, origin, 'content-type': 'audio/mpeg', 'content-length': String(statSync(file).size) },
    });
    req.on('response', (res) => {
      res.pipe(new Writable({ write: (_c, _e, done) => done() }));
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}
