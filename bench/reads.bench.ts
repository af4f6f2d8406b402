/**
 * Signed-in reads (GET /api/user, /api/submissions — its first page, 50 of the artist's 500 —
 * and /api/stats) against the yardstick: a bare node:http server answering the same JSON bytes
 * on this machine; once on the embedded database and once on PostgreSQL (a scratch database on
 * BENCH_DATABASE_URL / DATABASE_URL / the local test server, skipped when unreachable). Each
 * server runs in its own process; the load comes from autocannon in this one. Prints the ratio
 * product/bare per path; the goal is 40% or more (issue 16). Knobs: BENCH_DURATION (s per run, 8),
 * BENCH_ROUNDS (turns each side takes, best kept, 2), BENCH_SUBMISSIONS (the artist's rows, 500).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { createScratchDatabase, PG_URL, redact } from './support/scratch-database';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = 32;
/** Bare and product take turns this many times and each keeps its best run: a busy moment on the machine hits one run, not the ratio. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

interface Started {
  child: ChildProcess;
  info: { port: number; cookie?: string; bodiesFile?: string; database?: string };
}

function startServer(args: string[], databaseUrl?: string): Promise<Started> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/reads-server.ts', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, info: JSON.parse(line) }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

async function load(port: number, path: string, cookie?: string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: cookie ? { cookie } : {},
  });
  if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

export default async function benchReads(): Promise<void> {
  await benchOn('embedded (PGlite)');
  const scratch = await createScratchDatabase('reads');
  if (!scratch) {
    console.log(`PostgreSQL at ${redact(PG_URL)} unreachable: the PostgreSQL run is skipped.`);
    return;
  }
  try {
    await benchOn(`PostgreSQL (${redact(PG_URL)})`, scratch.url);
  } finally {
    await scratch.drop();
  }
}

async function benchOn(label: string, databaseUrl?: string): Promise<void> {
  const product = await startServer(['product'], databaseUrl);
  const bodiesFile = product.info.bodiesFile!;
  const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8')) as Record<string, string>;
  const bare = await startServer(['bare', bodiesFile]);
  try {
    console.log(`\n${label}: database ${product.info.database}; ${CONNECTIONS} connections, ${DURATION_S} s per run, best of ${ROUNDS} taking turns`);
    console.log('path                 bytes   bare rps   product rps   ratio   product p99');
    for (const [path, body] of Object.entries(bodies)) {
      let base = { rps: 0, p99: 0 };
      let ours = { rps: 0, p99: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const b = await load(bare.info.port, path);
        if (b.rps > base.rps) base = b;
        const o = await load(product.info.port, path, product.info.cookie);
        if (o.rps > ours.rps) ours = o;
      }
      console.log(
        `${path.padEnd(20)} ${String(Buffer.byteLength(body)).padStart(5)} ${base.rps.toFixed(0).padStart(10)} ${ours.rps.toFixed(0).padStart(13)} ${((ours.rps / base.rps) * 100).toFixed(1).padStart(6)}% ${String(ours.p99).padStart(10)} ms`,
      );
    }
  } finally {
    const exited = product.child.exitCode !== null || product.child.signalCode !== null;
    product.child.kill('SIGKILL');
    bare.child.kill('SIGKILL');
    // The product's data directory (its embedded database, the bodies file) goes with it.
    if (!exited) await new Promise((resolve) => product.child.once('exit', resolve));
    rmSync(dirname(bodiesFile), { recursive: true, force: true });
  }
}
