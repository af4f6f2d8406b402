/**
 * Capacity (issue 27): how many active artists one instance carries (`npm run bench -- capacity`;
 * it takes several minutes). The mixed
 * load of bench/load.bench.ts (each artist with its own session, connection, address and the
 * submissions and messages it writes, so no answer is remembered for everyone; the server logs
 * each request as in service) is stepped up the fixed ladder 150, 225, 300, 450, 600, 900, …
 * artists, a fresh server and database per step, until the p99 of a step passes 250 ms or any
 * request fails; the largest step held is the figure. The ladder is the same in every run, so
 * runs compare, and holds the goals (issue 37: PGlite ≥ 225, PostgreSQL ≥ 450, two instances on
 * one PostgreSQL ≥ one). Three setups: the embedded database (PGlite), PostgreSQL, and two
 * instances on one PostgreSQL (artists alternate between them, as behind a load balancer). When
 * even the first step is not held, it steps down (100, 50, 25) so a figure is still printed.
 *
 * The servers run in their own processes; the load generator shares the machine with them, so
 * the figures are of this machine as it was during the run (other work on it lowers them).
 *
 * Knobs: BENCH_CAPACITY_STEPS (150,225,300,450,600,900,1200,1800,2400), BENCH_CAPACITY_DURATION (s per step, 20),
 * BENCH_CAPACITY_RAMP (s, 5), BENCH_CAPACITY_ONLY (pglite | postgres | two), and the think time
 * and timeout of the load bench (BENCH_LOAD_THINK_MS, BENCH_LOAD_TIMEOUT_MS).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Artist, Recorder, startServer, stopServer, type ServerInfo } from './load.bench';
import { pct } from './support/measure';
import { createScratchDatabase, redactUrl, BENCH_POSTGRES_URL } from './support/scratch-postgres';
import { recordFigure } from './support/figures';

export const CAPACITY_P99_MS = 250;
const STEPS = (process.env.BENCH_CAPACITY_STEPS ?? '150,225,300,450,600,900,1200,1800,2400').split(',').map(Number);
const FALLBACK_STEPS = [100, 50, 25];
const DURATION_S = Number(process.env.BENCH_CAPACITY_DURATION ?? 20);
const RAMP_S = Number(process.env.BENCH_CAPACITY_RAMP ?? 5);
const ONLY = process.env.BENCH_CAPACITY_ONLY;

/** Issue 37's goals; two instances must carry at least what one does. */
const GOALS = { pglite: 225, postgres: 450 } as const;
/** Issue 50: PGlite carries at least this share of what PostgreSQL carries on the same machine. */
const PGLITE_SHARE_GOAL = 0.6;

interface Setup {
  kind: 'pglite' | 'postgres' | 'two';
  title: string;
  /** Starts the servers of one step with `artists` artists; answers their origins and a stop. */
  start(artists: number): Promise<{ info: ServerInfo; origins: string[]; stop: () => Promise<void> }>;
}

interface Step {
  artists: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  held: boolean;
  firstError?: string;
}

export default async function benchCapacity(): Promise<void> {
  console.log(
    `steps of ${DURATION_S} s (ramp-up ${RAMP_S} s), held while p99 < ${CAPACITY_P99_MS} ms and no request fails; ` +
      `this machine has ${os.cpus().length} cores, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')} at the start`,
  );
  const setups: Setup[] = [];
  if (!ONLY || ONLY === 'pglite') setups.push(pgliteSetup());
  if (!ONLY || ONLY === 'postgres' || ONLY === 'two') {
    const probe = await createScratchDatabase('hub_bench_capacity_probe');
    if (!probe) console.log(`PostgreSQL at ${redactUrl(BENCH_POSTGRES_URL)} unavailable: its setups are skipped.`);
    else {
      await probe.drop();
      if (ONLY !== 'two') setups.push(postgresSetup(1));
      if (ONLY !== 'postgres') setups.push(postgresSetup(2));
    }
  }
  const table: { setup: string; held: string }[] = [];
  const heldBy = new Map<Setup['kind'], number>();
  for (const setup of setups) {
    console.log(`\n${setup.title}`);
    const held = await stepUp(setup);
    heldBy.set(setup.kind, held);
    table.push({ setup: setup.title, held: held === 0 ? `fewer than ${FALLBACK_STEPS.at(-1)}` : String(held) });
    const goal = setup.kind === 'two' ? heldBy.get('postgres') : GOALS[setup.kind];
    recordFigure(
      `capacity, ${setup.title} (p99 < ${CAPACITY_P99_MS} ms, no errors)`,
      held === 0 ? '< 25 artists' : `${held} artists`,
      goal === undefined ? '≥ one instance' : `≥ ${goal}${setup.kind === 'two' ? ' (one instance)' : ''}`,
      goal === undefined ? undefined : held >= goal,
    );
  }
  // Issue 50: the embedded database within reach of PostgreSQL, measured in the same run.
  const embedded = heldBy.get('pglite');
  const server = heldBy.get('postgres');
  if (embedded !== undefined && server) {
    recordFigure(
      'capacity, PGlite against PostgreSQL in the same run',
      `${(embedded / server).toFixed(2)} (${embedded} of ${server} artists)`,
      `≥ ${PGLITE_SHARE_GOAL.toFixed(2)}`,
      embedded / server >= PGLITE_SHARE_GOAL,
    );
  }
  console.log(`\nartists held at p99 < ${CAPACITY_P99_MS} ms with no errors (load average now ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}):`);
  console.table(table);
}

/**
 * Climbs the ladder until a step is not held and answers the largest held; when the first is
 * not held, steps down (100, 50, 25) instead (0: none held at all).
 */
async function stepUp(setup: Setup): Promise<number> {
  let held = 0;
  for (const artists of STEPS) {
    if (!(await runStep(setup, artists)).held) break;
    held = artists;
  }
  if (held > 0) return held;
  for (const artists of FALLBACK_STEPS.filter((n) => n < STEPS[0]!)) {
    if ((await runStep(setup, artists)).held) return artists;
  }
  return 0;
}

async function runStep(setup: Setup, artists: number): Promise<Step> {
  const servers = await setup.start(artists);
  try {
    // Only the steady state counts: a fresh server's first requests (cold code, cold caches)
    // and the arrivals of the ramp-up are not what the instance carries.
    const recorder = new SteadyRecorder(performance.now() + RAMP_S * 1000);
    const endAt = performance.now() + (RAMP_S + DURATION_S) * 1000;
    await Promise.all(
      servers.info.artists.map(async ({ email, cookie }, i) => {
        await sleep((RAMP_S * 1000 * i) / artists);
        // Artists alternate between the instances, as a load balancer would spread them.
        const info = { ...servers.info, origin: servers.origins[i % servers.origins.length]! };
        await new Artist(info, email, i, cookie).run(endAt, recorder);
      }),
    );
    const step: Step = {
      artists,
      requests: recorder.requests,
      errors: recorder.errorCount,
      p50: pct(recorder.latencies, 50),
      p99: pct(recorder.latencies, 99),
      held: false,
      firstError: [...recorder.errors].sort((a, b) => b[1] - a[1])[0]?.join(' × '),
    };
    step.held = step.errors === 0 && step.p99 < CAPACITY_P99_MS;
    console.log(
      `  ${String(artists).padStart(5)} artists: ${String(step.requests).padStart(6)} requests, ${step.errors} errors, ` +
        `p50 ${step.p50.toFixed(1)} ms, p99 ${step.p99.toFixed(1)} ms, slowest step by p99: ${slowest(recorder)} — ${step.held ? 'held' : 'NOT held'}` +
        (step.firstError ? ` (most: ${step.firstError.slice(0, 100)})` : ''),
    );
    return step;
  } finally {
    await servers.stop();
  }
}

function slowest(recorder: Recorder): string {
  const [name, list] = [...recorder.byStep].sort((a, b) => pct(b[1], 99) - pct(a[1], 99))[0] ?? ['none', []];
  return `${name} ${pct(list, 99).toFixed(0)} ms`;
}

/** Counts the requests that start at or after `from` (one started during the ramp-up is part of it). */
class SteadyRecorder extends Recorder {
  constructor(private readonly from: number) {
    super();
  }

  override add(...args: Parameters<Recorder['add']>): void {
    const [, ms] = args;
    if (performance.now() - ms >= this.from) super.add(...args);
  }
}

function pgliteSetup(): Setup {
  return {
    kind: 'pglite',
    title: 'PGlite, one instance',
    async start(artists) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-capacity-'));
      const { child, info } = await startServer({ LOAD_DATA_DIR: dataDir, LOAD_ARTISTS: String(artists) });
      return {
        info,
        origins: [info.origin],
        stop: async () => {
          await stopServer(child);
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

function postgresSetup(instances: 1 | 2): Setup {
  return {
    kind: instances === 1 ? 'postgres' : 'two',
    title: instances === 1 ? 'PostgreSQL, one instance' : 'PostgreSQL, two instances',
    async start(artists) {
      const scratch = await createScratchDatabase('hub_bench_capacity');
      if (!scratch) throw new Error('PostgreSQL went away');
      const dirs: string[] = [];
      const children: ChildProcess[] = [];
      const dataDir = () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-capacity-'));
        dirs.push(dir);
        return dir;
      };
      const stop = async () => {
        await Promise.all(children.map((child) => stopServer(child)));
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
        await scratch.drop();
      };
      try {
        const first = await startServer({ DATABASE_URL: scratch.url, LOAD_DATA_DIR: dataDir(), LOAD_ARTISTS: String(artists) });
        children.push(first.child);
        const origins = [first.info.origin];
        if (instances === 2) {
          const second = await startServer({ DATABASE_URL: scratch.url, LOAD_DATA_DIR: dataDir(), LOAD_JOIN: '1' });
          children.push(second.child);
          origins.push(second.info.origin);
        }
        return { info: first.info, origins, stop };
      } catch (error) {
        await stop();
        throw error;
      }
    },
  };
}
