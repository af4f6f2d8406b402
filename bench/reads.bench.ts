/**
 * Signed-in reads (GET /api/user, /api/submissions — its first page, 50 of the artist's 500 —
 * and /api/stats) against the yardstick: a bare node:http server answering the same JSON bytes
 * with no session, on this machine; once on the embedded database and once on PostgreSQL (a
 * scratch database on BENCH_DATABASE_URL / DATABASE_URL / the local test server, skipped when
 * unreachable). Each server runs in its own process; the product logs as it does in service
 * (LOG_LEVEL info, one line per request, to a file). The load is `wrk` when installed
 * (bench/support/http-load.ts says why), 50 connections. Prints the ratio product/bare per path;
 * the goal is 40% or more (issues 16 and 37). Knobs: BENCH_DURATION (s per run, 8), BENCH_ROUNDS
 * (turns each side takes, best kept, 2), BENCH_SUBMISSIONS (the artist's rows, 500).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path, { dirname } from 'node:path';
import { recordFigure } from './support/figures';
import { generator, httpLoad } from './support/http-load';
import { createScratchDatabase, PG_URL, redact } from './support/scratch-database';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
/** As the issue measured it. */
const CONNECTIONS = 50;
/** Bare and product take turns this many times and each keeps its best run: a busy moment on the machine hits one run, not the ratio. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
export const READS_GOAL = 0.4;

interface Started {
  child: ChildProcess;
  info: { port: number; cookie?: string; bodiesFile?: string; database?: string };
}

/** Starts a reads server; it answers its address on the IPC channel, and its stdout (the log) goes to `logFile`. */
function startServer(args: string[], { databaseUrl, logFile }: { databaseUrl?: string; logFile?: string } = {}): Promise<Started> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const stdout = logFile ? openSync(logFile, 'a') : 'ignore';
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/reads-server.ts', ...args], {
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
    env,
  });
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ child, info: info as Started['info'] }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

async function load(port: number, read: string, cookie?: string) {
  const result = await httpLoad(`http://127.0.0.1:${port}${read}`, { connections: CONNECTIONS, seconds: DURATION_S, headers: cookie ? { cookie } : {} });
  if (result.failed > 0) throw new Error(`${read}: ${result.failed} failed requests`);
  return result;
}

const loadAverage = () => os.loadavg().map((n) => n.toFixed(1)).join(' ');

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
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-reads-log-'));
  const product = await startServer(['product'], { databaseUrl, logFile: path.join(logDir, 'product.log') });
  const bodiesFile = product.info.bodiesFile!;
  const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8')) as Record<string, string>;
  const bare = await startServer(['bare', bodiesFile]);
  try {
    console.log(
      `\n${label}: database ${product.info.database}; ${generator}, ${CONNECTIONS} connections, ${DURATION_S} s per run, best of ${ROUNDS} taking turns; ` +
        `${os.cpus().length} cores, load average ${loadAverage()} at the start`,
    );
    console.log('path                 bytes   bare rps   product rps   ratio   product p99');
    for (const [read, body] of Object.entries(bodies)) {
      let base = { rps: 0, p99: 0, failed: 0 };
      let ours = { rps: 0, p99: 0, failed: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const b = await load(bare.info.port, read);
        if (b.rps > base.rps) base = b;
        const o = await load(product.info.port, read, product.info.cookie);
        if (o.rps > ours.rps) ours = o;
      }
      const ratio = ours.rps / base.rps;
      console.log(
        `${read.padEnd(20)} ${String(Buffer.byteLength(body)).padStart(5)} ${base.rps.toFixed(0).padStart(10)} ${ours.rps.toFixed(0).padStart(13)} ${(ratio * 100).toFixed(1).padStart(6)}% ${ours.p99.toFixed(1).padStart(10)} ms`,
      );
      recordFigure(
        `GET ${read} on ${product.info.database}, share of bare node:http`,
        `${ratio.toFixed(2)} (${ours.rps.toFixed(0)} of ${base.rps.toFixed(0)} req/s, p99 ${ours.p99.toFixed(1)} ms)`,
        `≥ ${READS_GOAL.toFixed(2)}`,
        ratio >= READS_GOAL,
      );
    }
    console.log(`load average ${loadAverage()} at the end`);
  } finally {
    const exited = product.child.exitCode !== null || product.child.signalCode !== null;
    product.child.kill('SIGKILL');
    bare.child.kill('SIGKILL');
    // The product's data directory (its embedded database, the bodies file) goes with it.
    if (!exited) await new Promise((resolve) => product.child.once('exit', resolve));
    rmSync(dirname(bodiesFile), { recursive: true, force: true });
    rmSync(logDir, { recursive: true, force: true });
  }
}
