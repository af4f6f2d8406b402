/**
 * GET /api/submissions for an artist with 500 submissions, and GET /api/stats: requests/s and
 * latency with autocannon against the app listening on this machine (embedded PGlite).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/platform/db/client';
import { submissions } from '../src/server/platform/db/schema';
import { newId } from '../src/server/platform/ids';

const SUBMISSIONS = 500;
const DURATION_S = 5;
const CONNECTIONS = 10;
const STATUSES = ['pending', 'approved', 'under_review', 'completed', 'payment_pending', 'rejected'];

export default async function (): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-submissions-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATA_DIR: dir,
    PORT: String(port),
    PUBLIC_URL: origin,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db') });
  const app = await buildApp({ config, database, client: 'none', logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  try {
    const res = await fetch(`${origin}/api/register`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Bench', lastName: 'Artist', email: 'bench@example.com', password: 'bench-password' }),
    });
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    const { id: userId } = (await res.json()) as { id: string };

    const now = Date.now();
    const rows = Array.from({ length: SUBMISSIONS }, (_, i) => ({
      id: newId(),
      userId,
      submissionMethod: 'link' as const,
      musicUrl: `https://soundcloud.com/bench/track-${i}`,
      releaseStatus: 'unreleased' as const,
      artistName: 'Bench Artist',
      songTitle: `Track ${i}`,
      hasLyrics: i % 2 === 0,
      lyrics: i % 2 === 0 ? 'La la la '.repeat(40) : null,
      description: 'A dark, atmospheric piece with slow synths and a driving bassline. '.repeat(3),
      aiUsage: false,
      videoStyle: 'non-custom' as const,
      pricingTier: 'free' as const,
      termsAccepted: true,
      status: STATUSES[i % STATUSES.length]!,
      amount: '0.00',
      createdAt: new Date(now - i * 60_000),
    }));
    for (let i = 0; i < rows.length; i += 100) await database.db.insert(submissions).values(rows.slice(i, i + 100));

    const list = await fetch(`${origin}/api/submissions`, { headers: { cookie } });
    const listBody = await list.text();
    if ((JSON.parse(listBody) as unknown[]).length !== SUBMISSIONS) throw new Error('unexpected list length');

    const results = [];
    for (const route of ['/api/submissions', '/api/stats']) {
      const result = await autocannon({
        url: `${origin}${route}`,
        headers: { cookie },
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      results.push({
        route,
        'requests/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        errors: result.errors + result.non2xx,
      });
    }
    console.log(
      `${SUBMISSIONS} submissions, response of GET /api/submissions ${(listBody.length / 1024).toFixed(0)} KB; ` +
        `${CONNECTIONS} connections for ${DURATION_S} s each (autocannon), PGlite`,
    );
    console.table(results);
  } finally {
    await app.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
