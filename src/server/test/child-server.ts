import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createTestDatabase, TEST_ORIGIN } from './helpers';

/**
 * The real server (src/server/main.ts) as a child process, for tests that kill it with SIGKILL
 * and start it again on the same data (the embedded database's directory or a PostgreSQL
 * database).
 */
export interface ChildServer {
  readonly base: string;
  start(): Promise<void>;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** A JSON request as the site's pages send it: the status, the JSON body (null when there is none) and the response. */
  call(method: string, url: string, cookie: string | undefined, body?: unknown): Promise<ChildAnswer>;
}

export interface ChildAnswer {
  status: number;
  body: Record<string, unknown> | null;
  res: Response;
}

/** The `sid=…` pair of a response's Set-Cookie: the session the server just opened. */
export const sessionOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('sid='))!;

/**
 * A child server on a database of its own (the embedded database's directory or a PostgreSQL
 * database), served at TEST_ORIGIN's name; `close` kills it and drops the database.
 */
export async function childServerOnFreshDatabase(env: Record<string, string>): Promise<ChildServer & { close(): Promise<void> }> {
  const scratch = await createTestDatabase();
  // The server process owns the embedded database; this process lets go of it.
  if (scratch.database.kind === 'pglite') await scratch.database.close();
  const server = await childServer({
    PUBLIC_URL: TEST_ORIGIN,
    DATA_DIR: scratch.dataDir,
    ...(scratch.database.connectionString ? { DATABASE_URL: scratch.database.connectionString } : {}),
    ...env,
  });
  return {
    ...server,
    async close() {
      await server.kill();
      await scratch.drop().catch(() => {});
    },
  };
}

export async function childServer(env: Record<string, string>): Promise<ChildServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  return {
    base,
    async start() {
      const started = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        env: { PATH: process.env.PATH, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child = started;
      const deadline = Date.now() + 90_000;
      for (;;) {
        if (started.exitCode !== null) throw new Error(`server exited: ${stderr}`);
        if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) return;
        if (Date.now() > deadline) throw new Error(`server did not become ready: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
    async call(method, url, cookie, body) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null, res };
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: found } = probe.address() as { port: number };
      probe.close(() => resolve(found));
    });
  });
}
