import pg from 'pg';

/** The local PostgreSQL the benches use (BENCH_DATABASE_URL, else DATABASE_URL, else the test server). */
export const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//');

/** A fresh database on PG_URL's server for one bench, dropped by drop(); null when the server is unreachable. */
export async function createScratchDatabase(tag = 'bench'): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `hub_${tag}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
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
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: PG_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}
