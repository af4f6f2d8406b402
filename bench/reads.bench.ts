/**
 * Signed-in reads (GET /api/user, /api/submissions — its first page, 50 of the artist's 500 —
 * and /api/stats) against the yardstick: a bare node:http server answering the same JSON bytes
 * with no session, on this machine; once on the embedded database and once on PostgreSQL (a
 * scratch database on BENCH_DATABASE_URL / DATABASE_URL / the local test server, skipped when
 * unreachable). Each server runs in its own process; the product logs as it does in service
 * (LOG_LEVEL info, one line per request, to a file). The load comes from each generator of
 * bench/support/http-load.ts in turn — `wrk` when installed, and autocannon in a process of its
 * own — 50 connections, and each ratio is product/bare measured by the same generator: the goal
 * must hold with any load tool (issue 50). Prints the ratio per path and generator and records a
 * figure for each path × database × generator, with the load average at that moment; the goal is
 * 45% or more (issues 16, 37 and 50). Knobs: BENCH_DURATION (s per run, 5), BENCH_ROUNDS (turns
 * each side takes, best kept, 2), BENCH_SUBMISSIONS (the artist's rows, 500), BENCH_LOAD_TOOL
 * (wrk | autocannon: that generator only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path, { dirname } from 'node:path';
import { recordFigure } from './support/figures';
import { availableGenerators, httpLoad, type Generator } from './support/http-load';
import { createScratchDatabase, PG_URL, redact } from './support/scratch-database';
import { loadAverage } from './support/yardstick';

/** 5 s, not 8: each run is made with two generators now, and a run of 5 s already reads steady (issue 50). */
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
/** As the issue measured it. */
const CONNECTIONS = 50;
/** Bare and product take turns this many times and each keeps its best run: a busy moment on the machine hits one run, not the ratio. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Issue 50: 45% of bare on every path, on both databases, with either load generator. */
export const READS_GOAL = 0.45;

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

async function load(generator: Generator, port: number, read: string, cookie?: string) {
  const result = await httpLoad(`http://127.0.0.1:${port}${read}`, { connections: CONNECTIONS, seconds: DURATION_S, headers: cookie ? { cookie } : {}, generator });
  if (result.failed > 0) throw new Error(`${read}: ${result.failed} failed requests`);
  return result;
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
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-reads-log-'));
  const product = await startServer(['product'], { databaseUrl, logFile: path.join(logDir, 'product.log') });
  const bodiesFile = product.info.bodiesFile!;
  const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8')) as Record<string, string>;
  const bare = await startServer(['bare', bodiesFile]);
  try {
    console.log(
      `\n${label}: database ${product.info.database}; ${availableGenerators.join(' and ')}, ${CONNECTIONS} connections, ${DURATION_S} s per run, best of ${ROUNDS} taking turns; ` +
        `${os.availableParallelism()} cores, load average ${loadAverage()} at the start`,
    );
    console.log('path                 generator    bytes   bare rps   product rps   ratio   product p99   load');
    for (const [read, body] of Object.entries(bodies)) {
      const best = new Map(availableGenerators.map((g) => [g, { base: { rps: 0, p99: 0, failed: 0 }, ours: { rps: 0, p99: 0, failed: 0 } }]));
      // Bare and product take turns, and so do the generators: a busy moment hits one run, not a ratio.
      for (let round = 0; round < ROUNDS; round++) {
        for (const generator of availableGenerators) {
          const side = best.get(generator)!;
          const b = await load(generator, bare.info.port, read);
          if (b.rps > side.base.rps) side.base = b;
          const o = await load(generator, product.info.port, read, product.info.cookie);
          if (o.rps > side.ours.rps) side.ours = o;
        }
      }
      for (const [generator, { base, ours }] of best) {
        const ratio = ours.rps / base.rps;
        console.log(
          `${read.padEnd(20)} ${generator.padEnd(10)} ${String(Buffer.byteLength(body)).padStart(7)} ${base.rps.toFixed(0).padStart(10)} ${ours.rps.toFixed(0).padStart(13)} ${(ratio * 100).toFixed(1).padStart(6)}% ${ours.p99.toFixed(1).padStart(10)} ms   ${os.loadavg()[0]!.toFixed(2)}`,
        );
        recordFigure(
          `GET ${read} on ${product.info.database}, share of bare node:http (${generator})`,
          `${ratio.toFixed(2)} (${ours.rps.toFixed(0)} of ${base.rps.toFixed(0)} req/s, p99 ${ours.p99.toFixed(1)} ms)`,
          `≥ ${READS_GOAL.toFixed(2)}`,
          ratio >= READS_GOAL,
        );
      }
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
