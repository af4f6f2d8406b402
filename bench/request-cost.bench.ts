/**
 * Where a request's CPU goes (issue 50: "where a goal cannot be met on 2 shared cores, a measured
 * explanation of where the time goes"). The load server of bench/load.bench.ts (its own process,
 * NODE_ENV=production, logging each request) is sent each step of the capacity bench's round one
 * request at a time, BENCH_COST_REQUESTS times (GET /api/user, /api/submissions, /api/stats, POST
 * /api/submissions, POST /api/messages), and a sign-in with the right password (its hash included)
 * a tenth as often. After each step the server is left SETTLE_MS to finish what the requests set
 * off (a submission's email is rendered and sent, its job completed), and that is counted with
 * them. The CPU is read from /proc (Linux): the server's main thread, its other threads (the
 * embedded database's thread, the email rendering thread, garbage collection, file writes), its
 * child processes (the password hashing process) and every PostgreSQL process on the machine, less
 * what each used per second while the server sat idle just before.
 *
 * From those it works out one artist's round of the capacity bench (the five steps, and in one
 * round of 50 a sign-out, a mistyped password and a sign-in: two hashes) and how many artists the
 * machine's cores could carry if they did nothing else (a round lasts about a think time a step):
 * the ceiling bench/capacity.bench.ts's figure sits under, since the load generator and the p99
 * limit take their share too. Knobs: BENCH_COST_REQUESTS (200), BENCH_COST_ONLY (pglite | postgres).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { onEachDatabase, RELOGIN_CHANCE, roundSteps, signInCall, startServer, stopServer, THINK_MS, type Call } from './load.bench';
import { recordFigure } from './support/figures';

const REQUESTS = Number(process.env.BENCH_COST_REQUESTS ?? 200);
const SIGN_INS = Math.max(5, Math.round(REQUESTS / 10));
const SETTLE_MS = 2_000;
const IDLE_MS = 2_000;
/** Artists the requests rotate over (each has its own session from the load server). */
const ARTISTS = 50;
/** /proc counts CPU in clock ticks of 10 ms (USER_HZ 100 on Linux). */
const TICK_MS = 10;

type Part = 'main' | 'threads' | 'children' | 'postgres';
type Cpu = Record<Part, number>;
const PARTS: Part[] = ['main', 'threads', 'children', 'postgres'];
const PART_NAMES: Record<Part, string> = {
  main: 'server main thread',
  threads: 'server other threads',
  children: 'hashing process',
  postgres: 'PostgreSQL',
};

/** The sign-in measured beside the round (its hash included): signed out, so it sends no session. */
const SIGN_IN = 'POST /api/login';

export default async function benchRequestCost(): Promise<void> {
  if (!existsSync('/proc/self/task')) {
    console.log('No /proc on this machine: the CPU of each part cannot be read; skipped.');
    return;
  }
  console.log(`${REQUESTS} requests a step one at a time (sign-ins ${SIGN_INS}), ${SETTLE_MS} ms after each step for its after-work; ${os.availableParallelism()} cores`);
  await onEachDatabase('hub_bench_cost', process.env.BENCH_COST_ONLY, measure);
}

async function measure(title: string, env: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hub-bench-cost-'));
  const { child, info } = await startServer({ ...env, LOAD_DATA_DIR: dataDir, LOAD_ARTISTS: String(ARTISTS) });
  const pool = new Pool(info.origin, { connections: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const pid = child.pid!;
  try {
    await sleep(3_000); // the first jobs' start-up (queues created, first polls) is not a request's cost
    const perStep = new Map<string, Cpu>();
    // The round's steps, each sent `REQUESTS` times over the artists in turn, then the sign-in.
    const steps: { name: string; count: number; call: (n: number) => Call; signedOut?: boolean }[] = roundSteps(info, 0, 0).map(([name], i) => ({
      name,
      count: REQUESTS,
      call: (n: number) => roundSteps(info, n % ARTISTS, n)[i]![1],
    }));
    steps.push({ name: SIGN_IN, count: SIGN_INS, call: (n) => signInCall(info.artists[n % ARTISTS]!.email, info.password), signedOut: true });
    for (const step of steps) {
      const idleRate = await idleCpuRate(pid);
      const before = readCpu(pid);
      const started = performance.now();
      for (let n = 0; n < step.count; n++) {
        const artist = n % ARTISTS;
        const { method, path: url, body, expect } = step.call(n);
        const headers: Record<string, string> = { origin: info.origin, 'x-forwarded-for': `10.9.${artist >> 8}.${artist & 255}` };
        if (!step.signedOut) headers.cookie = info.artists[artist]!.cookie;
        if (body !== undefined) headers['content-type'] = 'application/json';
        const res = await pool.request({ method, path: url, headers, body: body === undefined ? null : JSON.stringify(body) });
        const text = await res.body.text();
        if (res.statusCode !== expect) throw new Error(`${step.name}: ${res.statusCode} ${text.slice(0, 120)}`);
      }
      await sleep(SETTLE_MS);
      const seconds = (performance.now() - started) / 1000;
      const after = readCpu(pid);
      const cost = {} as Cpu;
      for (const part of PARTS) cost[part] = Math.max(0, after[part] - before[part] - idleRate[part] * seconds) / step.count;
      perStep.set(step.name, cost);
    }
    report(title, perStep);
  } finally {
    await pool.close();
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(title: string, perStep: Map<string, Cpu>): void {
  const total = (cpu: Cpu) => PARTS.reduce((sum, part) => sum + cpu[part], 0);
  console.log(`\n${title}: CPU per request, ms (after-work included, idle subtracted)`);
  console.table(
    [...perStep].map(([step, cpu]) => ({
      step,
      ...Object.fromEntries(PARTS.map((part) => [PART_NAMES[part], cpu[part].toFixed(2)])),
      total: total(cpu).toFixed(2),
    })),
  );
  const round = {} as Cpu;
  const signInCost = perStep.get(SIGN_IN)!;
  const inRound = [...perStep].filter(([step]) => step !== SIGN_IN);
  for (const part of PARTS) {
    round[part] = inRound.reduce((sum, [, cpu]) => sum + cpu[part], 0);
    // A relogin round adds two hashed sign-ins (the mistyped one and the right one).
    round[part] += RELOGIN_CHANCE * 2 * signInCost[part];
  }
  // A round lasts about a think time per step (bench/load.bench.ts).
  const roundS = (inRound.length * THINK_MS) / 1000;
  const roundMs = total(round);
  const ceiling = Math.floor((os.availableParallelism() * roundS * 1000) / roundMs);
  const parts = PARTS.filter((part) => round[part] >= 0.05).map((part) => `${PART_NAMES[part]} ${round[part].toFixed(1)}`);
  console.log(`one artist's round: ${roundMs.toFixed(1)} ms of CPU (${parts.join(', ')}); ${os.availableParallelism()} cores doing nothing else carry at most ${ceiling} artists`);
  const database = title.startsWith('PostgreSQL') ? 'PostgreSQL' : 'PGlite';
  recordFigure(`CPU of one artist's capacity round, ${database}`, `${roundMs.toFixed(1)} ms (${parts.join(', ')})`, 'a reading', undefined);
  recordFigure(`artists the cores carry at full CPU and nothing else, ${database}`, `${ceiling}`, 'the ceiling of capacity', undefined);
}

/** Each part's CPU per second of wall time while the server sits idle (its timers and polls). */
async function idleCpuRate(pid: number): Promise<Cpu> {
  const before = readCpu(pid);
  const started = performance.now();
  await sleep(IDLE_MS);
  const seconds = (performance.now() - started) / 1000;
  const after = readCpu(pid);
  const rate = {} as Cpu;
  for (const part of PARTS) rate[part] = (after[part] - before[part]) / seconds;
  return rate;
}

/** CPU used so far (ms) by each part: the server's threads, its child processes, PostgreSQL's processes. */
function readCpu(pid: number): Cpu {
  const cpu: Cpu = { main: 0, threads: 0, children: 0, postgres: 0 };
  for (const tid of safeList(`/proc/${pid}/task`)) {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (stat) cpu[tid === String(pid) ? 'main' : 'threads'] += stat.cpuMs;
  }
  for (const other of safeList('/proc')) {
    if (!/^\d+$/.test(other) || other === String(pid)) continue;
    const stat = readStat(`/proc/${other}/stat`);
    if (!stat) continue;
    if (stat.ppid === pid) cpu.children += stat.cpuMs;
    else if (stat.comm === 'postgres') cpu.postgres += stat.cpuMs;
  }
  return cpu;
}

function readStat(file: string): { comm: string; ppid: number; cpuMs: number } | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null; // the thread or process has ended
  }
  const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  // After "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { comm, ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
