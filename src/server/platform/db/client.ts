import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { installJobQueue } from '../jobs/job-queue';
import { PgliteInThread } from './pglite-in-thread';
import { PreparingClient } from './prepared-statements';
import type { Database, Db } from './database';
import * as schema from './schema';

// The handles' types live apart so that the job queue, which this module installs, can name
// them without importing this module back; every other module keeps naming them from here.
export type { Database, Db, Tx } from './database';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** An arbitrary, fixed key so that instances starting together migrate one at a time. */
const MIGRATION_LOCK_KEY = 72_710_581;

interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files when no databaseUrl is given. */
  pgliteDir: string;
  migrate?: boolean;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const database = options.databaseUrl ? openPostgres(options.databaseUrl) : await openPglite(options.pgliteDir);
  if (options.migrate !== false) await migrateDatabase(database);
  return database;
}

function openPostgres(connectionString: string): Database {
  // Each connection prepares the queries it runs (platform/db/prepared-statements.ts).
  const pool = new pg.Pool({ connectionString, max: 10, idleTimeoutMillis: 30_000, Client: PreparingClient });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    pool,
    connectionString,
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}

/** The embedded database's directory is held by another process (a running server, the admin command). */
export class DatabaseInUseError extends Error {}

const LOCK_FILE = 'hub-owner.pid';
const heldHere = new Set<string>();

/**
 * PGlite keeps the database in this process's memory and writes it back to its directory: two
 * processes on one directory silently lose each other's writes (the admin command's change was
 * lost this way). So the directory is owned by one process at a time, named by its pid in a lock
 * file; a lock left by a process that no longer runs (kill -9) is taken over.
 */
function lockPgliteDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, LOCK_FILE);
  const resolved = path.resolve(dir);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const owner = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    const ownerRuns = owner === process.pid ? heldHere.has(resolved) : isRunning(owner);
    if (ownerRuns) {
      throw new DatabaseInUseError(
        `The embedded database in ${resolved} is in use by process ${owner} (a running server?): stop it first, or use DATABASE_URL`,
      );
    }
    rmSync(lockPath, { force: true });
  }
  heldHere.add(resolved);
  return () => {
    heldHere.delete(resolved);
    rmSync(lockPath, { force: true });
  };
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function openPglite(dir: string): Promise<Database> {
  mkdirSync(path.dirname(dir), { recursive: true });
  const unlock = lockPgliteDir(dir);
  let client: PgliteInThread;
  try {
    // In a thread of its own, with pg_trgm for the admin search's trigram indexes
    // (docs/decisions/040-admin-list-at-scale.md, 182-embedded-database-thread.md).
    client = await PgliteInThread.open(dir);
  } catch (error) {
    unlock();
    throw error;
  }
  // Drizzle's PGlite driver calls query and transaction, which the thread's handle answers alike.
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
  let closing: Promise<void> | undefined;
  return {
    kind: 'pglite',
    db,
    pglite: client,
    ping: async () => {
      await client.query('select 1');
    },
    close: () =>
      (closing ??= (async () => {
        try {
          await client.close();
        } finally {
          unlock();
        }
      })()),
  };
}

async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder });
    await installJobQueue(database);
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
  await installJobQueue(database);
}

export { sql };
