/**
 * The release package (issue 48, CONTRACT §28): `release.zip` of a finished 2 GiB video, read by an
 * HTTP client over loopback and dropped, against a plain streamed copy of the same file on disk;
 * the process's RSS growth while it streams (sampled every 50 ms; goal ≤ 64 MiB). The server
 * reads the video once, through the MD5/SHA-256 hashes into the ZIP (stored, not deflated).
 * Embedded database, local store.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/platform/db/client';
import { agreementSignatures, agreements, sessions, submissions, uploads, users } from '../src/server/platform/db/schema';
import { newId, newToken } from '../src/server/platform/ids';
import { hashSessionId, SESSION_COOKIE } from '../src/server/platform/sessions';
import { createObjectStorage } from '../src/server/platform/storage/create-storage';
import { objectKey } from '../src/server/platform/storage/object-storage';
import { recordFigure } from './support/figures';

const SIZE = 2 * 1024 * 1024 * 1024;
const MiB = 1024 * 1024;
const RSS_GOAL_MIB = 64;

export default async function (): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-release-zip-'));
  const database = await openDatabase({ pgliteDir: path.join(tmp, 'db') });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: tmp,
    PUBLIC_URL: 'http://localhost:5000',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    LABEL_LEGAL_NAME: 'Midnight Lantern Records Ltd',
  });
  const storage = createObjectStorage(config);
  const app = await buildApp({ config, database, storage, client: 'none', logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  try {
    const db = database.db;
    const [admin] = await db.insert(users).values({ id: newId(), email: `bench-${newToken(4)}@example.com`.toLowerCase(), role: 'admin' }).returning();
    const sid = newToken();
    await db.insert(sessions).values({ sid: hashSessionId(sid), userId: admin!.id, sess: { userId: admin!.id, via: 'password', createdAt: new Date().toISOString() }, expire: new Date(Date.now() + 86_400_000) });
    const cookie = `${SESSION_COOKIE}=${app.signCookie(sid)}`;

    // A finished video of 2 GiB in the store (a repeated pseudo-random MiB), approved and signed.
    const submissionId = newId();
    const uploadId = newId();
    await db.insert(submissions).values({
      id: submissionId, userId: admin!.id, submissionType: 'video', submissionMethod: 'upload', videoFileUrl: `/objects/uploads/${uploadId}`,
      releaseStatus: 'unreleased', artistName: 'Ada Reyes', songTitle: 'Northern Lights', hasLyrics: false, aiUsage: false,
      videoStyle: 'non-custom', pricingTier: 'free', termsAccepted: true, status: 'approved', isrc: 'USRC12600417',
    });
    await db.insert(uploads).values({ id: uploadId, userId: admin!.id, status: 'stored', size: SIZE, contentType: 'video/mp4', fileName: 'northern-lights.mp4', submissionId, uploadExpiresAt: new Date(Date.now() + 86_400_000) });
    const block = Buffer.alloc(MiB, 7).map((_, i) => (i * 2654435761) >>> 24);
    await storage.receive(objectKey('uploads', uploadId), Readable.from((function* () { for (let i = 0; i < SIZE / MiB; i++) yield block; })()), SIZE);
    const text = 'Licence agreement of Northern Lights';
    const sha256 = createHash('sha256').update(text).digest('hex');
    await db.insert(agreements).values({ submissionId, text, sha256 });
    await db.insert(agreementSignatures).values({ id: newId(), submissionId, ownerIndex: 0, ownerName: 'Ada Reyes', role: 'artist', share: '100.00', signedName: 'Ada Reyes', signedAt: new Date(), sha256 });

    const copyStart = performance.now();
    await pipeline(createReadStream(path.join(tmp, 'objects', 'uploads', uploadId)), createWriteStream(path.join(tmp, 'copy.bin')));
    const copyMs = performance.now() - copyStart;
    rmSync(path.join(tmp, 'copy.bin'));

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const zipStart = performance.now();
    const received = await new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: `/api/admin/submissions/${submissionId}/release.zip`, headers: { cookie } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`release.zip answered ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
    const zipMs = performance.now() - zipStart;
    clearInterval(sampler);
    if (received < SIZE) throw new Error(`release.zip was ${received} bytes, less than the video`);
    const growth = (peak - baseline) / MiB;
    const rate = (ms: number) => (SIZE / MiB / (ms / 1000)).toFixed(0);
    const [load1] = os.loadavg();
    console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`2 GiB plain streamed file copy: ${(copyMs / 1000).toFixed(2)} s (${rate(copyMs)} MiB/s)`);
    console.log(`release.zip of the 2 GiB video over loopback (MD5 + SHA-256 on the way): ${(zipMs / 1000).toFixed(2)} s (${rate(zipMs)} MiB/s), ${(received / MiB).toFixed(0)} MiB`);
    console.log(`process RSS: ${(baseline / MiB).toFixed(0)} MiB before, peak ${(peak / MiB).toFixed(0)} MiB during (growth ${growth.toFixed(0)} MiB; the client runs in the same process)`);
    recordFigure('release.zip of a 2 GiB video: RSS growth', `${growth.toFixed(0)} MiB`, `≤ ${RSS_GOAL_MIB} MiB`, growth <= RSS_GOAL_MIB);
    recordFigure(
      'release.zip of a 2 GiB video: time against a plain copy',
      `${(zipMs / 1000).toFixed(1)} s vs ${(copyMs / 1000).toFixed(1)} s (${os.cpus().length} cores, load ${load1!.toFixed(1)})`,
      'streamed, constant memory',
      undefined,
    );
    if (growth > RSS_GOAL_MIB) process.exitCode = 1;
  } finally {
    await app.close();
    await database.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
