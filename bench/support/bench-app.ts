import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/platform/db/client';

export interface BenchApp {
  app: FastifyInstance;
  database: Database;
  /** The server's origin, also its PUBLIC_URL. */
  origin: string;
  /** The scratch DATA_DIR, removed by stop(). */
  dir: string;
  stop(): Promise<void>;
}

/**
 * The product on a fresh embedded database in a scratch DATA_DIR, listening on 127.0.0.1; with
 * `client: 'dist'` it serves the built client's pages too.
 */
export async function startBenchApp(name: string, client: 'none' | 'dist' = 'none'): Promise<BenchApp> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `hub-bench-${name}-`));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATA_DIR: dir,
    PORT: String(port),
    PUBLIC_URL: origin,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase({ pgliteDir: path.join(dir, 'db') });
  const app = await buildApp({ config, database, client, logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    database,
    origin,
    dir,
    stop: async () => {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Registers a fresh artist through the API; answers the session cookie and the user's id. */
export async function registerBenchArtist(origin: string): Promise<{ cookie: string; userId: string }> {
  const res = await fetch(`${origin}/api/register`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ firstName: 'Bench', lastName: 'Artist', email: `bench-${Date.now()}@example.com`, password: 'bench-password' }),
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  const { id } = (await res.json()) as { id: string };
  return { cookie: res.headers.getSetCookie()[0]!.split(';')[0]!, userId: id };
}

/** A port nothing listens on now, for a server a bench starts itself. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
