/**
 * This machine's yardstick (issue 50, part 5), measured once per `npm run bench` run and kept for
 * it, so that a figure can be compared with one taken on another machine: what a bare `node:http`
 * server answers here (a child process answering a small fixed JSON, loaded by the same load
 * generators the benches use, 50 connections), what one password hash with the product's own
 * parameters takes (the product's hashing itself: its helper process, its priority), the cores,
 * the CPU model and the load average at that moment. bench/run.ts prints it at the start, and
 * printFigures prints it again above the figures table. A bench that measures something the
 * yardstick should carry (Lighthouse's `benchmarkIndex`) adds it with `addToYardstick`.
 *
 * Knobs: BENCH_YARDSTICK_SECONDS (seconds of load per generator, 3).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { hashPassword } from '../../src/server/features/auth/password';
import { availableGenerators, httpLoad, type Generator } from './http-load';

const SECONDS = Number(process.env.BENCH_YARDSTICK_SECONDS ?? 3);
const CONNECTIONS = 50;
/** Hashes timed after a first one that starts the hashing process; the median is kept. */
const HASHES = 3;

export interface Yardstick {
  /** Bare node:http answers per second, per load generator. */
  bareRps: Partial<Record<Generator, number>>;
  /** One password hash, in ms (the median of a few, after a warm-up). */
  hashMs: number;
  cores: number;
  cpu: string;
  /** os.loadavg() when the yardstick was taken: 1, 5 and 15 minutes. */
  loadAverage: string;
  /** Readings other benches add (Lighthouse's benchmarkIndex). */
  extra: Record<string, string>;
}

let measuring: Promise<Yardstick> | undefined;
let measured: Yardstick | undefined;
const extra: Record<string, string> = {};

/** The load average now, as `1 min 5 min 15 min`. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** The yardstick of this run, measured at the first call. */
export function yardstick(): Promise<Yardstick> {
  measuring ??= measure().then((result) => (measured = result));
  return measuring;
}

/** The yardstick if it has been measured in this run. */
export const measuredYardstick = (): Yardstick | undefined => measured;

/** A reading another bench takes of this machine (`addToYardstick('Lighthouse benchmarkIndex', '1,234')`). */
export function addToYardstick(name: string, value: string): void {
  extra[name] = value;
}

/** One line, to print beside figures. */
export function describeYardstick(y: Yardstick): string {
  const bare = Object.entries(y.bareRps)
    .map(([generator, rps]) => `${Math.round(rps).toLocaleString('en')} req/s (${generator})`)
    .join(', ');
  const extras = Object.entries(y.extra).map(([name, value]) => `; ${name} ${value}`);
  return (
    `yardstick: bare node:http ${bare}, ${CONNECTIONS} connections; one password hash ${y.hashMs.toFixed(0)} ms; ` +
    `${y.cores} cores (${y.cpu}); load average ${y.loadAverage} when measured${extras.join('')}`
  );
}

async function measure(): Promise<Yardstick> {
  const load = loadAverage();
  const hashMs = await timeOneHash();
  const bareRps: Yardstick['bareRps'] = {};
  const server = await startBare();
  try {
    for (const generator of availableGenerators) {
      const result = await httpLoad(`http://127.0.0.1:${server.port}/`, { connections: CONNECTIONS, seconds: SECONDS, generator });
      bareRps[generator] = result.rps;
    }
  } finally {
    server.stop();
  }
  return {
    bareRps,
    hashMs,
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    loadAverage: load,
    extra,
  };
}

async function timeOneHash(): Promise<number> {
  await hashPassword('yardstick warm-up');
  const times: number[] = [];
  for (let i = 0; i < HASHES; i++) {
    const started = performance.now();
    await hashPassword(`yardstick ${i}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** The bare server: plain node (no loader), one fixed small JSON for every request. */
const BARE = `
const body = JSON.stringify({ id: 'yardstick', ok: true, items: [1, 2, 3] });
const server = require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
`;

function startBare(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: {} });
  return new Promise((resolve, reject) => {
    child.once('message', (port) => resolve({ port: port as number, stop: () => child.kill('SIGKILL') }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the yardstick's bare server exited with ${code}`)));
  });
}
