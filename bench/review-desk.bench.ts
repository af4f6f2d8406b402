/**
 * The review desk (CONTRACT §14) at the label's scale, on the embedded PGlite:
 * - a bulk status change of 200 submissions (one transaction, a history row each) among 100,000;
 * - the CSV export of all 100,000 rows over HTTP: time, and how much the server process grows
 *   while streaming (heap + buffers, and RSS) — the target is flat memory;
 * - a 100 MB WAV: how long PUT /api/music-files takes to answer (it only queues the peaks job),
 *   how long until the job has stored the peaks, then, in Chromium, the time from opening the
 *   submission to its waveform being drawn.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { buildApp, clientDistDir } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/platform/db/client';
import { submissionHistory } from '../src/server/platform/db/schema';
import { SESSION_COOKIE } from '../src/server/platform/sessions';
import { seed } from './admin.bench';
import { freePort } from './support/bench-app';

const MB = 1024 * 1024;
const BULK_IDS = 200;
const BULK_RUNS = 5;

/** A 16-bit stereo 44.1 kHz WAV of `bytes` bytes: a tone whose loudness swells, so it has a shape. */
function wavOf(bytes: number): Buffer {
  const dataBytes = bytes - 44;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(44_100, 24);
  header.writeUInt32LE(44_100 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  const data = Buffer.alloc(dataBytes);
  for (let i = 0; i + 4 <= dataBytes; i += 4) {
    const t = i / 4 / 44_100;
    const v = Math.round(Math.sin(2 * Math.PI * 220 * t) * 30_000 * (0.2 + 0.8 * Math.abs(Math.sin(t * 0.5))));
    data.writeInt16LE(v, i);
    data.writeInt16LE(v, i + 2);
  }
  return Buffer.concat([header, data]);
}

export default async function benchReviewDesk(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-desk-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db') });
  try {
    const seedStart = performance.now();
    const sid = await seed(database);
    console.log(`PGlite (embedded): 100,000 submissions seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: String(port),
      PUBLIC_URL: origin,
      SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0',
      LOG_LEVEL: 'silent',
    });
    const app = await buildApp({ config, database, client: existsSync(path.join(clientDistDir, 'index.html')) ? 'dist' : 'none', logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    const cookie = `${SESSION_COOKIE}=${app.signCookie(sid)}`;
    try {
      // 1. Bulk status of 200.
      const times: number[] = [];
      for (let run = 0; run < BULK_RUNS; run++) {
        const ids = Array.from({ length: BULK_IDS }, (_, i) => `bench-s${1 + run * BULK_IDS + i * 7}`);
        const start = performance.now();
        const res = await fetch(`${origin}/api/admin/submissions/bulk`, {
          method: 'POST',
          headers: { cookie, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ ids, action: 'status', status: run % 2 ? 'approved' : 'under_review', review: 'Thanks {artistName}, "{songTitle}" is moving on.' }),
        });
        times.push(performance.now() - start);
        if (res.status !== 200) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
      }
      times.sort((a, b) => a - b);
      const [history] = await database.db.select({ n: sql<number>`count(*)::int` }).from(submissionHistory);
      console.log(
        `bulk status of ${BULK_IDS}: median ${times[Math.floor(BULK_RUNS / 2)]!.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms, worst ${times.at(-1)!.toFixed(0)} ms (${BULK_RUNS} runs; ${history!.n} history rows)`,
      );

      // 2. CSV of every row, streamed; the server's memory sampled while it streams.
      global.gc?.();
      const memory = () => {
        const m = process.memoryUsage();
        return { rss: m.rss, buffers: m.heapUsed + m.external + m.arrayBuffers };
      };
      const baseline = memory();
      const peak = { ...baseline };
      const sampler = setInterval(() => {
        const m = memory();
        peak.rss = Math.max(peak.rss, m.rss);
        peak.buffers = Math.max(peak.buffers, m.buffers);
      }, 5);
      const csvStart = performance.now();
      const res = await fetch(`${origin}/api/admin/submissions.csv`, { headers: { cookie } });
      let bytes = 0;
      let lines = 0;
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        for (const b of value) if (b === 10) lines++;
      }
      const csvMs = performance.now() - csvStart;
      clearInterval(sampler);
      console.log(
        `CSV of ${(lines - 1).toLocaleString('en-US')} rows (${(bytes / MB).toFixed(1)} MB): ${(csvMs / 1000).toFixed(1)} s; ` +
          `process growth while streaming: heap+buffers ${((peak.buffers - baseline.buffers) / MB).toFixed(1)} MB, RSS ${((peak.rss - baseline.rss) / MB).toFixed(1)} MB`,
      );

      // 3. A 100 MB WAV: peaks on the server when the upload is checked, then the first drawn waveform.
      const reg = await fetch(`${origin}/api/register`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Bench', lastName: 'Artist', email: `bench-wav-${Date.now()}@example.com`, password: 'bench-password' }),
      });
      const artistCookie = reg.headers.getSetCookie()[0]!.split(';')[0]!;
      const issued = (await (await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie: artistCookie, origin } })).json()) as { uploadURL: string };
      const wavPath = path.join(dir, 'track.wav');
      await writeFile(wavPath, wavOf(100 * MB));
      const { openAsBlob } = await import('node:fs');
      const put = await fetch(issued.uploadURL, { method: 'PUT', headers: { cookie: artistCookie, origin, 'content-type': 'audio/wav' }, body: await openAsBlob(wavPath) });
      if (!put.ok) throw new Error(`upload answered ${put.status}`);
      const checkStart = performance.now();
      const checked = await fetch(`${origin}/api/music-files`, {
        method: 'PUT',
        headers: { cookie: artistCookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ musicFileURL: issued.uploadURL, fileName: 'track.wav' }),
      });
      const checkMs = performance.now() - checkStart;
      const { objectPath } = (await checked.json()) as { objectPath: string };
      const created = await fetch(`${origin}/api/submissions`, {
        method: 'POST',
        headers: { cookie: artistCookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({
          submissionMethod: 'upload',
          musicFileUrl: objectPath,
          releaseStatus: 'released',
          artistName: 'Bench Artist',
          songTitle: 'Hundred Megabytes',
          hasLyrics: false,
          aiUsage: false,
          videoStyle: 'non-custom',
          pricingTier: 'free',
          termsAccepted: true,
        }),
      });
      const { id } = (await created.json()) as { id: string };
      // The peaks come from the audio.peaks job the check queued (decision 113).
      let waveform: { durationSeconds: number; peaks: number[] } | undefined;
      for (;;) {
        const res = await fetch(`${origin}/api/admin/submissions/${id}/waveform`, { headers: { cookie } });
        if (res.ok) {
          waveform = (await res.json()) as typeof waveform;
          break;
        }
        if (performance.now() - checkStart > 180_000) throw new Error('no waveform after 3 minutes');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const peaksMs = performance.now() - checkStart;
      console.log(
        `100 MB WAV (${waveform!.durationSeconds.toFixed(0)} s): PUT /api/music-files answered in ${checkMs.toFixed(0)} ms; ` +
          `peaks stored by the job ${(peaksMs / 1000).toFixed(1)} s after the check began; ${waveform!.peaks.length} peaks`,
      );

      if (!existsSync(path.join(clientDistDir, 'index.html'))) {
        console.log('first drawn waveform: skipped (no client build; run `npm run build`)');
        return;
      }
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addCookies([{ name: SESSION_COOKIE, value: cookie.slice(SESSION_COOKIE.length + 1), url: origin }]);
        const page = await context.newPage();
        await page.goto(`${origin}/admin`);
        await page.getByRole('searchbox', { name: 'Search submissions' }).fill('Hundred Megabytes');
        const view = page.getByRole('button', { name: 'View details of Hundred Megabytes' });
        await view.waitFor();
        const openStart = performance.now();
        await view.click();
        await page.locator('[data-testid="waveform-canvas"][data-drawn="true"]').waitFor();
        const drawMs = performance.now() - openStart;
        console.log(`first drawn waveform after opening the submission (Chromium, 1280×800): ${drawMs.toFixed(0)} ms`);
      } finally {
        await browser.close();
      }
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
