import type pg from 'pg';
import type { Database, Tx } from '../db/database';
import type { EmbeddedQueries } from '../db/pglite-in-thread';

/** What pg-boss needs from a database: run one SQL text with positional parameters. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

type Queryable = EmbeddedQueries | Pick<pg.Pool | pg.PoolClient, 'query'>;

/** pg-boss over the app's own connection: the pool of a server, or the one embedded PGlite. */
export function databaseExecutor(database: Database): SqlExecutor {
  if (database.pglite) return pgliteExecutor(database.pglite);
  const pool = database.pool!;
  return { executeSql: (text, values) => pool.query(text, values) };
}

/**
 * PGlite's `query` takes one statement (extended protocol); pg-boss's schema set-up sends
 * several at once without parameters, which `exec` (simple protocol) runs: its last result is
 * the answer, as node-postgres would give it.
 */
function pgliteExecutor(client: EmbeddedQueries): SqlExecutor {
  return {
    executeSql: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

/**
 * The connection of an open Drizzle transaction, so a job is inserted in the same transaction as
 * the change that causes it (docs/decisions/080-job-queue.md). Drizzle keeps the driver's
 * transaction client on `session.client` for both drivers; the shape is checked, and the tests
 * run on both databases.
 */
export function transactionExecutor(tx: Tx): SqlExecutor {
  const client = (tx as unknown as { session?: { client?: Queryable } }).session?.client;
  if (!client || typeof client.query !== 'function') {
    throw new Error('Cannot reach the driver connection of this transaction');
  }
  if ('exec' in client && typeof client.exec === 'function') return pgliteExecutor(client);
  return { executeSql: (text, values) => (client as pg.PoolClient).query(text, values) };
}
