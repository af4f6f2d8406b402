/**
 * A sign-in burst (issue 50, part 3): BENCH_BURST_SIGN_INS artists sign in at once (POST
 * /api/login with their real password) while BENCH_BURST_WORKERS others, signed in from an
 * earlier visit, work through the mixed load of bench/load.bench.ts (its Artist, Recorder and
 * server). On the embedded database and on PostgreSQL (a scratch database, skipped when
 * unreachable).
 *
 * Each artist, working or signing in, has its own address (X-Forwarded-For; the load server
 * trusts one proxy hop), as behind a proxy: the failed-sign-in limits count per address, and a
 * right password is never counted, so 200 right passwords from one address would pass too, but
 * that is not what a label's artists look like. Each signing-in artist holds its own keep-alive
 * connection and behaves as the product's sign-in form does: a 503 with Retry-After is tried
 * again after exactly that long (no jitter of its own: spreading the retries is the server's
 * part); any other failure counts as an error and is tried again after a second.
 *
 * Timeline: the workers arrive over BENCH_BURST_RAMP seconds and work BENCH_BURST_WARM seconds
 * (their p99 before the burst is the baseline), then every sign-in starts at the same moment. The
 * burst lasts until the last sign-in is in (or BENCH_BURST_LIMIT seconds have passed); the
 * workers' requests answered in that window are "during the burst".
 *
 * Goals: the workers' p99 during the burst < 250 ms, every sign-in in within 30 s, none failed
 * for good (no error but 503 + Retry-After). Prints the sign-ins' time to get in (p50/p99/max,
 * counted from the burst's start, retries included) and of each attempt, how many were told 503 +
 * Retry-After and came back, the Retry-After values given, and the workers' p99 before and during
 * the burst, with the load average.
 *
 * Knobs: BENCH_BURST_SIGN_INS (200), BENCH_BURST_WORKERS (150), BENCH_BURST_RAMP (3 s),
 * BENCH_BURST_WARM (5 s), BENCH_BURST_LIMIT (30 s), BENCH_BURST_ONLY (pglite | postgres).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'undici';
import { Artist, onEachDatabase, Recorder, startServer, stopServer, type ServerInfo } from './load.bench';
import { recordFigure } from './support/figures';
import { fmt, pct } from './support/measure';
import { loadAverage } from './support/yardstick';

const SIGN_INS = Number(process.env.BENCH_BURST_SIGN_INS ?? 200);
const WORKERS = Number(process.env.BENCH_BURST_WORKERS ?? 150);
const RAMP_S = Number(process.env.BENCH_BURST_RAMP ?? 3);
const WARM_S = Number(process.env.BENCH_BURST_WARM ?? 5);
const LIMIT_S = Number(process.env.BENCH_BURST_LIMIT ?? 30);
const ONLY = process.env.BENCH_BURST_ONLY;
/** A sign-in attempt unanswered this long counts as an error (and is tried again). */
const ATTEMPT_TIMEOUT_MS = 10_000;
const WORKERS_P99_GOAL_MS = 250;
const SIGN_IN_GOAL_S = 30;

/** Counts the workers' requests answered while the burst is on in `during` too. */
class BurstRecorder extends Recorder {
  readonly before: number[] = [];
  readonly during: number[] = [];
  burst: 'before' | 'during' | 'after' = 'before';

  override add(step: string, ms: number, outcome: 'ok' | 'error' | 'timeout', detail?: string) {
    super.add(step, ms, outcome, detail);
    if (this.burst === 'before') this.before.push(ms);
    else if (this.burst === 'during') this.during.push(ms);
  }
}

interface SignIn {
  /** From the burst's start to the answer that let the artist in; undefined when it never got in. */
  inMs: number | undefined;
  attempts: number[];
  busy: number;
  retryAfters: number[];
  errors: string[];
}

export default async function benchSignInBurst(): Promise<void> {
  console.log(
    `${SIGN_INS} artists sign in at once while ${WORKERS} others work (the load bench's mix); ramp-up ${RAMP_S} s, ${WARM_S} s before the burst, ` +
      `limit ${LIMIT_S} s; every artist its own address and connection`,
  );
  await onEachDatabase('hub_bench_burst', ONLY, burstOn);
}

async function burstOn(title: string, env: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-burst-'));
  const server = await startServer({ ...env, LOAD_DATA_DIR: dataDir, LOAD_ARTISTS: String(WORKERS + SIGN_INS) });
  try {
    const { info } = server;
    const loadAtStart = loadAverage();
    const workers = new BurstRecorder();
    let done = false;
    const started = performance.now();
    const working = Promise.all(
      info.artists.slice(0, WORKERS).map(async ({ email, cookie }, i) => {
        await sleep((RAMP_S * 1000 * i) / WORKERS);
        await new Artist(info, email, i, cookie).run(() => (done ? 0 : Infinity), workers);
      }),
    );
    await sleep(Math.max(0, started + (RAMP_S + WARM_S) * 1000 - performance.now()));

    workers.burst = 'during';
    const burstStart = performance.now();
    const signIns = await Promise.all(info.artists.slice(WORKERS).map(({ email }, i) => signInWithRetries(info, email, WORKERS + i, burstStart)));
    const burstMs = performance.now() - burstStart;
    workers.burst = 'after';
    const loadAtBurstEnd = loadAverage();
    done = true;
    await working;
    report(title, info, workers, signIns, burstMs, loadAtStart, loadAtBurstEnd);
  } finally {
    await stopServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One artist signing in as the product's form does: again after Retry-After on a 503, until in or past the limit. */
async function signInWithRetries(info: ServerInfo, email: string, index: number, burstStart: number): Promise<SignIn> {
  const client = new Client(info.origin, { headersTimeout: ATTEMPT_TIMEOUT_MS, bodyTimeout: ATTEMPT_TIMEOUT_MS, pipelining: 1 });
  const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  const result: SignIn = { inMs: undefined, attempts: [], busy: 0, retryAfters: [], errors: [] };
  try {
    while (performance.now() - burstStart < LIMIT_S * 1000) {
      const t0 = performance.now();
      try {
        const res = await client.request({
          method: 'POST',
          path: '/api/login',
          headers: { 'x-forwarded-for': address, origin: info.origin, 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: info.password }),
        });
        const text = await res.body.text();
        result.attempts.push(performance.now() - t0);
        if (res.statusCode === 200) {
          result.inMs = performance.now() - burstStart;
          return result;
        }
        const retryAfter = Number(res.headers['retry-after']);
        if (res.statusCode === 503 && retryAfter > 0) {
          result.busy++;
          result.retryAfters.push(retryAfter);
          // Told to come back past the limit: missed already, and the bench stays bounded.
          if (performance.now() + retryAfter * 1000 - burstStart > LIMIT_S * 1000) return result;
          await sleep(retryAfter * 1000);
          continue;
        }
        result.errors.push(`${res.statusCode} ${text.slice(0, 80)}`);
      } catch (error) {
        result.attempts.push(performance.now() - t0);
        result.errors.push((error as Error).message);
      }
      await sleep(1000);
    }
    return result;
  } finally {
    await client.close();
  }
}

function report(title: string, info: ServerInfo, workers: BurstRecorder, signIns: SignIn[], burstMs: number, loadAtStart: string, loadAtEnd: string): void {
  const inTimes = signIns.flatMap((s) => (s.inMs === undefined ? [] : [s.inMs]));
  const attempts = signIns.flatMap((s) => s.attempts);
  const retried = signIns.filter((s) => s.busy > 0);
  const retryAfters = signIns.flatMap((s) => s.retryAfters);
  const errors = signIns.flatMap((s) => s.errors);
  const neverIn = signIns.length - inTimes.length;
  const p99Before = pct(workers.before, 99);
  const p99During = pct(workers.during, 99);
  const slowest = Math.max(...inTimes, 0);
  // A working artist's own sign-in (the mix signs in again now and then) told busy is the behaviour under test, not an error.
  const workerErrors = [...workers.errors].filter(([key]) => !/sign in: 503 /.test(key)).reduce((sum, [, count]) => sum + count, 0);
  console.log(`\n${title} (server process on ${info.database}); load average ${loadAtStart} at the start, ${loadAtEnd} when the burst ended`);
  console.log(
    `  sign-ins: ${inTimes.length} of ${signIns.length} in, the burst over after ${(burstMs / 1000).toFixed(1)} s; time to get in p50 ${fmt(pct(inTimes, 50))} ms, ` +
      `p99 ${fmt(pct(inTimes, 99))} ms, max ${fmt(slowest)} ms; each attempt p50 ${fmt(pct(attempts, 50))} ms, p99 ${fmt(pct(attempts, 99))} ms (${attempts.length} attempts)`,
  );
  console.log(
    `  ${retried.length} told 503 + Retry-After and came back (${retryAfters.length} times; Retry-After ${retryAfters.length ? `${Math.min(...retryAfters)}–${Math.max(...retryAfters)} s, median ${pct(retryAfters, 50)} s` : 'never given'}); ` +
      `${errors.length} other failures; ${neverIn} never got in`,
  );
  for (const [error, count] of tally(errors).slice(0, 5)) console.log(`    ${count} × ${error}`);
  console.log(
    `  the ${WORKERS} working artists: p99 ${fmt(p99Before)} ms before the burst (${workers.before.length} requests), ` +
      `${fmt(p99During)} ms during it (${workers.during.length} requests, max ${fmt(Math.max(...workers.during))} ms); ${workerErrors} errors (besides their own sign-ins told busy), ${workers.timeouts} timeouts in all`,
  );
  for (const [error, count] of [...workers.errors].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`    ${count} × ${error}`);

  const workersMet = p99During < WORKERS_P99_GOAL_MS && workerErrors === 0;
  const signInsMet = neverIn === 0 && errors.length === 0 && slowest < SIGN_IN_GOAL_S * 1000;
  recordFigure(
    `sign-in burst on ${info.database}: the ${WORKERS} working artists' p99 while ${SIGN_INS} sign in`,
    `${fmt(p99During)} ms (${fmt(p99Before)} ms before; ${workerErrors} errors)`,
    `< ${WORKERS_P99_GOAL_MS} ms, no errors`,
    workersMet,
  );
  recordFigure(
    `sign-in burst on ${info.database}: ${SIGN_INS} sign-ins at once, honouring Retry-After`,
    `${neverIn === 0 ? 'all' : `${inTimes.length}`} in, the last at ${(slowest / 1000).toFixed(1)} s (p50 ${(pct(inTimes, 50) / 1000).toFixed(1)} s), ${retried.length} retried after 503; ${neverIn} never in, ${errors.length} other failures`,
    `all in < ${SIGN_IN_GOAL_S} s, none failed`,
    signInsMet,
  );
  console.log(`  goals (workers' p99 < ${WORKERS_P99_GOAL_MS} ms; every sign-in in < ${SIGN_IN_GOAL_S} s, none failed): ${workersMet && signInsMet ? 'met' : 'MISSED'}`);
  if (!workersMet || !signInsMet) process.exitCode = 1;
}

function tally(values: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}
