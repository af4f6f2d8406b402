/**
 * The account export (CONTRACT §11, issue 13): an artist with 100 submissions, their history and
 * messages, and 500 MB of uploaded files (100 × 5 MB) on the local storage driver, exported over
 * HTTP with `GET /api/account/export`. The client is curl in its own process, so the RSS growth
 * sampled in this process is the server's. Goal: growth under 64 MB, whatever the files weigh.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { newId } from '../src/server/platform/ids';
import { messages, submissionHistory, submissions, uploads, users } from '../src/server/platform/db/schema';
import { LocalObjectStorage } from '../src/server/platform/storage/local-storage';
import { objectKey } from '../src/server/platform/storage/object-storage';
import { registerBenchArtist, startBenchApp } from './support/bench-app';

const MB = 1024 * 1024;
const SUBMISSIONS = 100;
const FILE_SIZE = 5 * MB;
const GOAL_BYTES = 64 * MB;

export default async function (): Promise<void> {
  const { origin, dir, database, stop } = await startBenchApp('account-export');
  try {
    const { cookie, userId } = await registerBenchArtist(origin);
    const db = database.db;
    const storage = new LocalObjectStorage(path.join(dir, 'objects'));
    const [admin] = await db
      .insert(users)
      .values({ id: newId(), email: `bench-admin-${Date.now()}@example.com`, role: 'admin', firstName: 'Label', lastName: 'Admin' })
      .returning();

    const setupStart = performance.now();
    // One 5 MB chunk of not-very-compressible bytes, reused for every file.
    const chunk = Buffer.alloc(FILE_SIZE);
    for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE(((Math.imul(i, 2654435761) ^ i) >>> 0), i);
    for (let n = 0; n < SUBMISSIONS; n++) {
      const submissionId = newId();
      await db.insert(submissions).values({
        id: submissionId,
        userId,
        submissionMethod: 'upload',
        releaseStatus: 'unreleased',
        artistName: 'Bench Artist',
        songTitle: `Track ${n + 1}`,
        hasLyrics: true,
        lyrics: 'la '.repeat(500),
        aiUsage: false,
        videoStyle: 'non-custom',
        pricingTier: n % 2 ? 'premium' : 'free',
        termsAccepted: true,
        status: n % 3 ? 'under_review' : 'pending',
      });
      await db.insert(submissionHistory).values({ id: newId(), submissionId, actorId: admin!.id, field: 'status', fromValue: 'pending', toValue: 'under_review' });
      await db.insert(messages).values([
        { id: newId(), fromUserId: userId, toUserId: admin!.id, submissionId, content: `About track ${n + 1}: any news?` },
        { id: newId(), fromUserId: admin!.id, toUserId: userId, submissionId, content: 'We are listening to it this week.' },
      ]);
      const uploadId = newId();
      await storage.receive(objectKey('uploads', uploadId), Readable.from([chunk]), FILE_SIZE);
      await db.insert(uploads).values({
        id: uploadId,
        userId,
        status: 'stored',
        size: FILE_SIZE,
        contentType: 'audio/mpeg',
        fileName: `track-${n + 1}.mp3`,
        submissionId,
        uploadExpiresAt: new Date(),
      });
    }
    const setupMs = Math.round(performance.now() - setupStart);

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const start = performance.now();
    const { status, bytes } = await download(`${origin}/api/account/export`, cookie);
    const ms = Math.round(performance.now() - start);
    clearInterval(sampler);
    if (status !== 200) throw new Error(`the export answered ${status}`);
    if (bytes < SUBMISSIONS * FILE_SIZE) throw new Error(`the ZIP has only ${bytes} bytes`);

    const growth = peak - baseline;
    console.table([
      { step: `set-up: ${SUBMISSIONS} submissions, ${(SUBMISSIONS * FILE_SIZE) / MB} MB of files`, ms: setupMs, figure: '' },
      { step: 'GET /api/account/export (streamed ZIP)', ms, figure: `${(bytes / MB).toFixed(0)} MB at ${(bytes / MB / (ms / 1000)).toFixed(0)} MB/s` },
    ]);
    console.log(
      `server RSS growth during the export: ${(growth / MB).toFixed(1)} MB (goal < ${GOAL_BYTES / MB} MB: ${growth < GOAL_BYTES ? 'ok' : 'EXCEEDED'})`,
    );
    // A missed goal fails `npm run bench` (after the other benches ran), like an over-budget bundle.
    if (growth >= GOAL_BYTES) process.exitCode = 1;
  } finally {
    await stop();
  }
}

/** Downloads with curl in its own process; answers the status and the number of bytes. */
function download(url: string, cookie: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', '-H', `cookie: ${cookie}`, url], (error, stdout) => {
      if (error) return reject(error);
      const [status, bytes] = stdout.split(' ').map(Number);
      resolve({ status: status!, bytes: bytes! });
    });
  });
}
