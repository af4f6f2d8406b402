import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

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
