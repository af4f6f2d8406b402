/**
 * Fixed-connection HTTP load for the read benches. `wrk` (C, Debian's package `wrk`) when it is
 * on PATH: a load generator written in JavaScript tops out near the rate a bare node:http server
 * answers, so with it the yardstick measures the generator and every ratio looks better than it
 * is. Without wrk, autocannon (in this process), and the figures say so.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p99: number;
  failed: number;
}

export const generator: 'wrk' | 'autocannon' = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (error) {
    // wrk --version prints its banner and exits 1: found all the same.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'autocannon' : 'wrk';
  }
})();

const run = promisify(execFile);

/** `connections` keep-alive connections on `url` for `seconds`; the answers that were not 2xx count as failed. */
export async function httpLoad(url: string, { connections, seconds, headers = {} }: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  if (generator === 'autocannon') {
    const result = await autocannon({ url, connections, duration: seconds, headers });
    return { rps: result.requests.average, p99: result.latency.p99, failed: result.non2xx + result.errors };
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
