import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { PgliteInThread } from './pglite-in-thread';
import type * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle `db.transaction(async (tx) => …)` passes: what a change and its consequences are written with. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** One database, whichever engine serves it: the embedded PGlite or a PostgreSQL server. */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** The raw engine, for what Drizzle does not wrap (LISTEN/NOTIFY). */
  pglite?: PgliteInThread;
  pool?: pg.Pool;
  connectionString?: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}
