import pg from 'pg';

/** The local PostgreSQL the benches use: BENCH_DATABASE_URL, else the test server's `test` database. */
export const BENCH_POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty database on the bench's PostgreSQL server, named `<prefix>_<pid>`, dropped by
 * `drop()`; null when the server cannot be reached (the caller skips its PostgreSQL part).
 */
export async function createScratchDatabase(prefix: string): Promise<ScratchDatabase | null> {
  const name = `${prefix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: BENCH_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(BENCH_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** The URL without its user and password, for printing. */
export const redactUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//');
