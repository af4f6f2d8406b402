/**
 * GET /api/submissions for an artist with 500 submissions (its first page, the newest 50), and
 * GET /api/stats: requests/s and latency with autocannon against the app listening on this
 * machine (embedded PGlite).
 */
import autocannon from 'autocannon';
import { registerBenchArtist, startBenchApp } from './support/bench-app';
import { submissions } from '../src/server/platform/db/schema';
import { newId } from '../src/server/platform/ids';
import { SUBMISSIONS_PAGE_SIZE } from '../src/shared/submissions';

const SUBMISSIONS = 500;
const DURATION_S = 5;
const CONNECTIONS = 10;
const STATUSES = ['pending', 'approved', 'under_review', 'completed', 'payment_pending', 'rejected'] as const;

export default async function (): Promise<void> {
  const { database, origin, stop } = await startBenchApp('submissions');
  try {
    const { cookie, userId } = await registerBenchArtist(origin);

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
    if ((JSON.parse(listBody) as unknown[]).length !== SUBMISSIONS_PAGE_SIZE) throw new Error('unexpected list length');

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
      `${SUBMISSIONS} submissions, first page of GET /api/submissions ${(listBody.length / 1024).toFixed(0)} KB; ` +
        `${CONNECTIONS} connections for ${DURATION_S} s each (autocannon), PGlite`,
    );
    console.table(results);
  } finally {
    await stop();
  }
}

