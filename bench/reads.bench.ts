/**
 * Signed-in reads (GET /api/user, /api/submissions with 500 rows, /api/stats) against the
 * yardstick: a bare node:http server answering the same JSON bytes on this machine. Each server
 * runs in its own process; the load comes from autocannon in this one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = 32;

interface Started {
  child: ChildProcess;
  info: { port: number; cookie?: string; bodiesFile?: string; database?: string };
}

function startServer(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/support/reads-server.ts', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
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
  const product = await startServer(['product']);
  const bodiesFile = product.info.bodiesFile!;
  const paths = Object.keys(JSON.parse(readFileSync(bodiesFile, 'utf8')) as Record<string, string>);
  const bare = await startServer(['bare', bodiesFile]);
  try {
    console.log(`database: ${product.info.database}; ${CONNECTIONS} connections, ${DURATION_S} s per run`);
    console.log('path                 bare rps   product rps   ratio   product p99');
    for (const path of paths) {
      const base = await load(bare.info.port, path);
      const ours = await load(product.info.port, path, product.info.cookie);
      console.log(
        `${path.padEnd(20)} ${base.rps.toFixed(0).padStart(8)} ${ours.rps.toFixed(0).padStart(13)} ${((ours.rps / base.rps) * 100).toFixed(1).padStart(6)}% ${String(ours.p99).padStart(10)} ms`,
      );
    }
  } finally {
    product.child.kill('SIGKILL');
    bare.child.kill('SIGKILL');
  }
}
