import { spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * The specs that need a server configured differently from the shared one (a mail server, Stripe,
 * the label's channel) start one of their own. Each has its own port, counted from
 * E2E_ACCOUNTS_PORT, and its own data directory: Playwright's two workers run specs side by side,
 * so two of these servers may be up at the same moment.
 */
const OWN_SERVERS = { accounts: 0, billing: 1, payouts: 2, publishing: 3, 'team-inbox': 4, rights: 5, 'every-screen': 6, 'views-that-are-real': 7, 'every-artist-answered': 8, handover: 9, 'every-owner-paid': 10 } as const;
export type OwnServerName = keyof typeof OWN_SERVERS;

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The address of a spec's own server, known before it starts (stubs are told where to call back). */
export function ownServerBase(name: OwnServerName): string {
  return `http://localhost:${Number(process.env.E2E_ACCOUNTS_PORT ?? 5160) + OWN_SERVERS[name]}`;
}

export interface OwnServer {
  base: string;
  /** Stops the server and, once it has exited, removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Made before the shared server starts (prepare-data-dir.ts, named by the webServer command in
 * playwright.config.ts): a migrated database no server has opened.
 */
export const FRESH_DATABASE_DIR = '.data-e2e-fresh-db';

/**
 * Starts the product with `env` added to the usual settings, on a fresh data directory holding a
 * copy of the migrated database, and waits until it is ready.
 */
export async function startOwnServer(name: OwnServerName, env: Record<string, string>): Promise<OwnServer> {
  const base = ownServerBase(name);
  const dataDir = `.data-e2e-${name}`;
  rmSync(path.join(ROOT, dataDir), { recursive: true, force: true });
  cpSync(path.join(ROOT, FRESH_DATABASE_DIR), path.join(ROOT, dataDir, 'db'), { recursive: true });
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: new URL(base).port, HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`server not ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return {
    base,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
      rmSync(path.join(ROOT, dataDir), { recursive: true, force: true });
    },
  };
}
