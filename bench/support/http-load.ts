/**
 * Fixed-connection HTTP load for the read benches and the yardstick, with either generator:
 * - `wrk` (C, Debian's package `wrk`), when it is on PATH;
 * - autocannon (JavaScript), always, in a child process of its own so it shares no event loop
 *   with the bench (or anything else); it still shares the cores, and it tops out near the rate a
 *   bare node:http server answers, so against it every ratio looks better than with wrk.
 * The issue-50 goal must hold with both: a goal that holds with one load tool only does not hold.
 * `BENCH_LOAD_TOOL=wrk|autocannon` keeps one of them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface LoadResult {
  rps: number;
  p99: number;
  failed: number;
}

export type Generator = 'wrk' | 'autocannon';

const wrkInstalled = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version prints its banner and exits 1: found all the same.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();

/** The generators this run measures with: both when wrk is installed, or the one BENCH_LOAD_TOOL names. */
export const availableGenerators: Generator[] = (() => {
  const wanted = process.env.BENCH_LOAD_TOOL;
  if (wanted === 'wrk') {
    if (!wrkInstalled) throw new Error('BENCH_LOAD_TOOL=wrk, but wrk is not installed (apt-get install -y wrk)');
    return ['wrk'];
  }
  if (wanted === 'autocannon') return ['autocannon'];
  if (wanted) throw new Error(`BENCH_LOAD_TOOL must be wrk or autocannon, not ${wanted}`);
  return wrkInstalled ? ['wrk', 'autocannon'] : ['autocannon'];
})();

const run = promisify(execFile);
const AUTOCANNON_PROCESS = fileURLToPath(new URL('./autocannon-process.mjs', import.meta.url));

/** `connections` keep-alive connections on `url` for `seconds` from `generator`; the answers that were not 2xx count as failed. */
export async function httpLoad(
  url: string,
  { connections, seconds, headers = {}, generator }: { connections: number; seconds: number; headers?: Record<string, string>; generator: Generator },
): Promise<LoadResult> {
  if (generator === 'autocannon') {
    const { stdout } = await run(process.execPath, [AUTOCANNON_PROCESS, JSON.stringify({ url, connections, duration: seconds, headers })], {
      timeout: (seconds + 30) * 1000,
      env: {},
    });
    return JSON.parse(stdout) as LoadResult;
  }
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const { stdout } = await run('wrk', args, { timeout: (seconds + 30) * 1000 });
  const number = (pattern: RegExp) => Number(stdout.match(pattern)?.[1] ?? NaN);
  const p99 = stdout.match(/\s99%\s+([\d.]+)(us|ms|s)/);
  const p99ms = p99 ? Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'] : NaN;
  const non2xx = number(/Non-2xx or 3xx responses: (\d+)/) || 0;
  const socketErrors = (stdout.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/) ?? []).slice(1).reduce((sum, n) => sum + Number(n), 0);
  return { rps: number(/Requests\/sec:\s+([\d.]+)/), p99: p99ms, failed: non2xx + socketErrors };
}
