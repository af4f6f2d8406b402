/**
 * Mixed load (issue 9, part 6): BENCH_LOAD_ARTISTS artists at once for a bounded time against the
 * product on the embedded database (PGlite) and on PostgreSQL (a scratch database on
 * BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, created and dropped here).
 *
 * The load comes from undici (one keep-alive `Client` per artist) driven by the loop below. Each
 * simulated artist has its own address (X-Forwarded-For; the server trusts one proxy hop) and a
 * session from an earlier visit, arrives during the ramp-up, then repeats: GET /api/user, GET
 * /api/submissions, GET /api/stats, POST /api/submissions (a link), POST /api/messages to the
 * label team, with a think time between requests; in one round of 50 it signs out, mistypes its
 * password once (401 expected) and signs in again. Meanwhile a separate connection asks GET
 * /healthz and GET /readyz twice a second.
 *
 * Every answer other than the expected status counts as an error (a refusal with Retry-After is
 * tried again after that long, as the app does); a request unanswered after
 * BENCH_LOAD_TIMEOUT_MS counts as a timeout (and an error). The server runs in its own process,
 * so the load generator does not share its event loop.
 *
 * Knobs: BENCH_LOAD_ARTISTS (200), BENCH_LOAD_DURATION (60 s, as issue 9 asks), BENCH_LOAD_RAMP (5 s),
 * BENCH_LOAD_THINK_MS (mean think time, 1000: half to one and a half seconds), BENCH_LOAD_TIMEOUT_MS (10000),
 * BENCH_LOAD_ONLY (pglite | postgres), BENCH_LOAD_SIGN_IN=arrival (every artist signs in as it
 * arrives instead: a sign-in storm, ~90 ms of a core each), BENCH_LOAD_SERVER_ARGS (extra node
 * arguments for the server process, e.g. `--import ./probe.mjs` to measure inside it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, errors as undiciErrors } from 'undici';
import { createScratchDatabase, redactUrl, BENCH_POSTGRES_URL } from './support/scratch-postgres';
import { fmt, pct } from './support/measure';

const ARTISTS = Number(process.env.BENCH_LOAD_ARTISTS ?? 200);
const DURATION_S = Number(process.env.BENCH_LOAD_DURATION ?? 60);
const RAMP_S = Number(process.env.BENCH_LOAD_RAMP ?? 5);
export const THINK_MS = Number(process.env.BENCH_LOAD_THINK_MS ?? 1000);
const TIMEOUT_MS = Number(process.env.BENCH_LOAD_TIMEOUT_MS ?? 10_000);
const ONLY = process.env.BENCH_LOAD_ONLY;
/** `arrival`: every artist signs in as it arrives, instead of holding a session from an earlier visit. */
const SIGN_IN_ON_ARRIVAL = process.env.BENCH_LOAD_SIGN_IN === 'arrival';
/** Chance per round that an artist signs out, mistypes the password once and signs in again. */
export const RELOGIN_CHANCE = 0.02;
const HEALTH_EVERY_MS = 500;
const TARGET_P99_MS = 500;

export interface ServerInfo {
  origin: string;
  database: string;
  password: string;
  artists: { email: string; cookie: string }[];
  teamUserId: string;
}

type Outcome = 'ok' | 'error' | 'timeout';

export class Recorder {
  readonly latencies: number[] = [];
  readonly byStep = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  timeouts = 0;
  requests = 0;

  add(step: string, ms: number, outcome: Outcome, detail?: string) {
    this.requests++;
    this.latencies.push(ms);
    let list = this.byStep.get(step);
    if (!list) this.byStep.set(step, (list = []));
    list.push(ms);
    if (outcome === 'timeout') this.timeouts++;
    if (outcome !== 'ok') {
      const key = `${step}: ${detail ?? outcome}`;
      this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
    }
  }

  get errorCount() {
    let n = 0;
    for (const count of this.errors.values()) n += count;
    return n;
  }
}

export default async function benchLoad(): Promise<void> {
  console.log(
    `${ARTISTS} artists, ${DURATION_S} s (ramp-up ${RAMP_S} s), think time ~${THINK_MS} ms, timeout ${TIMEOUT_MS} ms; load from undici, one connection per artist`,
  );
  await onEachDatabase('hub_bench_load', ONLY, runAgainst);
}

/**
 * Runs `run` on the embedded database, then on a scratch PostgreSQL database (named `scratchName`,
 * dropped after), skipping the one `only` leaves out and PostgreSQL when it cannot be reached.
 * `run` gets the title to print and the server's extra environment.
 */
export async function onEachDatabase(
  scratchName: string,
  only: string | undefined,
  run: (title: string, env: Record<string, string>) => Promise<void>,
): Promise<void> {
  if (only !== 'postgres') await run('embedded database (PGlite)', {});
  if (only === 'pglite') return;
  const scratch = await createScratchDatabase(scratchName);
  if (!scratch) {
    console.log(`\nPostgreSQL at ${redactUrl(BENCH_POSTGRES_URL)} unavailable: its part is skipped.`);
    return;
  }
  try {
    await run('PostgreSQL', { DATABASE_URL: scratch.url });
  } finally {
    await scratch.drop();
  }
}

async function runAgainst(title: string, env: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-load-'));
  const server = await startServer({ ...env, LOAD_DATA_DIR: dataDir, LOAD_ARTISTS: String(ARTISTS) });
  try {
    const { info } = server;
    const recorder = new Recorder();
    const health = new Recorder();
    const ready = new Recorder();
    const started = performance.now();
    const endAt = started + (RAMP_S + DURATION_S) * 1000;
    const healthLoop = probeHealth(info.origin, endAt, health, ready);
    // Artists arrive spread over the ramp-up, each still signed in from an earlier visit (or not: BENCH_LOAD_SIGN_IN).
    await Promise.all(
      info.artists.map(async ({ email, cookie }, i) => {
        await sleep((RAMP_S * 1000 * i) / info.artists.length);
        await new Artist(info, email, i, SIGN_IN_ON_ARRIVAL ? '' : cookie).run(endAt, recorder);
      }),
    );
    await healthLoop;
    const elapsedS = (performance.now() - started) / 1000;
    report(title, info, recorder, health, ready, elapsedS);
  } finally {
    await stopServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts a load server; it answers its ServerInfo on the IPC channel. It logs as it does in
 * service (one line per request at LOG_LEVEL info), into `server.log` in its LOAD_DATA_DIR.
 */
export function startServer(env: Record<string, string> & { LOAD_DATA_DIR: string }): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const extra = process.env.BENCH_LOAD_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
  const log = openSync(path.join(env.LOAD_DATA_DIR, 'server.log'), 'a');
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', 'bench/support/load-server.ts'], {
    stdio: ['ignore', log, 'inherit', 'ipc'],
    // Measured as it is deployed: NODE_ENV=production (React renders the emails with its production
    // build, several times faster than the development one it uses otherwise).
    env: { ...embeddedUnlessNamed(process.env), NODE_ENV: 'production', ...env },
  });
  closeSync(log);
  return new Promise((resolve, reject) => {
    child.once('message', (info) => resolve({ child, info: info as ServerInfo }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`load server exited with ${code}`)));
  });
}

/**
 * The bench's own environment without DATABASE_URL: a server on PostgreSQL is given its scratch
 * database by the caller, and one given none runs on the embedded database, whatever the shell
 * that started the bench had set (a run with DATABASE_URL exported measured PostgreSQL twice).
 */
function embeddedUnlessNamed(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = env;
  return rest;
}

/** SIGTERM, then SIGKILL if it has not exited within 10 s. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  expect: number;
}

/**
 * One round of an artist's mixed load, in order: the dashboard's three reads, a submission by link
 * and a message to the label team (`index` tells the artists apart, `round` the rounds). The
 * capacity bench runs it with think times; bench/request-cost.bench.ts one request at a time.
 */
export function roundSteps(info: ServerInfo, index: number, round: number): [string, Call][] {
  return [
    ['GET /api/user', { method: 'GET', path: '/api/user', expect: 200 }],
    ['GET /api/submissions', { method: 'GET', path: '/api/submissions', expect: 200 }],
    ['GET /api/stats', { method: 'GET', path: '/api/stats', expect: 200 }],
    [
      'POST /api/submissions',
      {
        method: 'POST',
        path: '/api/submissions',
        expect: 201,
        body: {
          submissionMethod: 'link',
          musicUrl: `https://soundcloud.com/load-${index}/track-${round}`,
          releaseStatus: 'released',
          artistName: `The Load ${index}`,
          songTitle: `Load test ${round}`,
          videoStyle: 'non-custom',
          pricingTier: 'free',
          termsAccepted: true,
        },
      },
    ],
    ['POST /api/messages', { method: 'POST', path: '/api/messages', expect: 201, body: { toUserId: info.teamUserId, content: `Hello from artist ${index}, round ${round}` } }],
  ];
}

/** A sign-in with the artist's right password. */
export const signInCall = (email: string, password: string): Call => ({ method: 'POST', path: '/api/login', body: { email, password }, expect: 200 });

/** One simulated artist: its own connection, address and session. */
export class Artist {
  private readonly client: Client;
  private readonly address: string;
  private round = 0;

  constructor(
    private readonly info: ServerInfo,
    private readonly email: string,
    private readonly index: number,
    private cookie: string,
  ) {
    this.client = new Client(info.origin, { headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, pipelining: 1 });
    this.address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  }

  private async call(recorder: Recorder, step: string, { method, path, body, expect }: Call): Promise<boolean> {
    const t0 = performance.now();
    const headers: Record<string, string> = { 'x-forwarded-for': this.address, origin: this.info.origin };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await this.client.request({ method, path, headers, body: body === undefined ? null : JSON.stringify(body) });
      const text = await res.body.text();
      const ms = performance.now() - t0;
      if (res.statusCode !== expect) {
        if (res.statusCode === 401) this.cookie = '';
        recorder.add(step, ms, 'error', `${res.statusCode} ${text.slice(0, 80)}`);
        // As the app does: a refusal with Retry-After is tried again after that long.
        const retryAfter = Number(res.headers['retry-after']);
        if (retryAfter > 0) await sleep(retryAfter * 1000);
        return false;
      }
      const setCookie = res.headers['set-cookie'];
      const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
      if (first?.startsWith('sid=')) this.cookie = first.split(';')[0]!;
      recorder.add(step, ms, 'ok');
      return true;
    } catch (error) {
      const ms = performance.now() - t0;
      const timedOut = error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError;
      recorder.add(step, ms, timedOut ? 'timeout' : 'error', timedOut ? 'timeout' : (error as Error).message);
      return false;
    }
  }

  signIn(recorder: Recorder): Promise<boolean> {
    return this.call(recorder, 'sign in', signInCall(this.email, this.info.password));
  }

  /** The mix, round after round, until `endAt` (a time, or a function answering it: a bench that ends when something else is done). */
  async run(endAt: number | (() => number), recorder: Recorder): Promise<void> {
    const think = () => sleep(THINK_MS * (0.5 + Math.random()));
    const end = typeof endAt === 'number' ? () => endAt : endAt;
    const { index, info } = this;
    try {
      while (performance.now() < end()) {
        // Signed out (a sign-in that failed or timed out): the app sends the artist to sign in again.
        if (!this.cookie && !(await this.signIn(recorder))) {
          await think();
          continue;
        }
        const round = ++this.round;
        const steps = roundSteps(info, index, round);
        for (const [step, request] of steps) {
          if (performance.now() >= end()) break;
          await this.call(recorder, step, request);
          await think();
        }
        if (Math.random() < RELOGIN_CHANCE && performance.now() < end()) {
          await this.call(recorder, 'sign out', { method: 'POST', path: '/api/logout', expect: 200 });
          this.cookie = '';
          await this.call(recorder, 'failed sign in', {
            method: 'POST',
            path: '/api/login',
            body: { email: this.email, password: `${info.password}-typo` },
            expect: 401,
          });
          await think();
          await this.signIn(recorder);
        }
      }
    } finally {
      await this.client.close();
    }
  }
}

/** GET /healthz and /readyz on their own connection, every HEALTH_EVERY_MS, until `endAt`. */
export async function probeHealth(origin: string, endAt: number, health: Recorder, ready: Recorder): Promise<void> {
  const client = new Client(origin, { headersTimeout: TIMEOUT_MS * 3, bodyTimeout: TIMEOUT_MS * 3 });
  try {
    while (performance.now() < endAt) {
      for (const [recorder, path] of [
        [health, '/healthz'],
        [ready, '/readyz'],
      ] as const) {
        const t0 = performance.now();
        try {
          const res = await client.request({ method: 'GET', path });
          await res.body.dump();
          recorder.add(path, performance.now() - t0, res.statusCode === 200 ? 'ok' : 'error', String(res.statusCode));
        } catch (error) {
          recorder.add(path, performance.now() - t0, 'error', (error as Error).message);
        }
      }
      await sleep(HEALTH_EVERY_MS);
    }
  } finally {
    await client.close();
  }
}

function report(
  title: string,
  info: ServerInfo,
  r: Recorder,
  health: Recorder,
  ready: Recorder,
  elapsedS: number,
) {
  const p99 = pct(r.latencies, 99);
  console.log(`\n${title} (server process on ${info.database})`);
  console.log(
    `  requests ${r.requests} (${(r.requests / elapsedS).toFixed(0)}/s), errors ${r.errorCount}, timeouts ${r.timeouts}; ` +
      `p50 ${fmt(pct(r.latencies, 50))} ms, p99 ${fmt(p99)} ms, max ${fmt(Math.max(...r.latencies))} ms`,
  );
  for (const [step, list] of r.byStep) {
    console.log(`    ${step.padEnd(22)} ${String(list.length).padStart(6)}  p50 ${fmt(pct(list, 50)).padStart(7)}  p99 ${fmt(pct(list, 99)).padStart(7)}  max ${fmt(Math.max(...list)).padStart(7)} ms`);
  }
  for (const [name, probe] of [
    ['/healthz', health],
    ['/readyz', ready],
  ] as const) {
    console.log(
      `  ${name} under load: ${probe.requests} checks, ${probe.errorCount} failed; p50 ${fmt(pct(probe.latencies, 50))} ms, p99 ${fmt(pct(probe.latencies, 99))} ms, max ${fmt(Math.max(...probe.latencies))} ms`,
    );
  }
  for (const [key, count] of [...r.errors].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`    ${count} × ${key}`);
  const met = r.errorCount === 0 && p99 < TARGET_P99_MS;
  console.log(`  target 0 errors and p99 < ${TARGET_P99_MS} ms: ${met ? 'met' : 'MISSED'}`);
  // Like the bundle budgets: a missed target makes `npm run bench` exit 1, after the other benches ran.
  if (!met) process.exitCode = 1;
}

