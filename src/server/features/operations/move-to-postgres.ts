import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { EmbeddedTransaction, PgliteInThread } from '../../platform/db/pglite-in-thread';
import pg from 'pg';
import type { Config } from '../../config';
import { openDatabase, type Database } from '../../platform/db/client';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { objectKey } from '../../platform/storage/object-storage';
import { isObjectStoreEmpty } from '../../platform/storage/store-is-empty';
import { BackupError, describePostgres, undoPostgres } from './backup';

/**
 * `npm run move-to-postgres -- --to postgres://…` (CONTRACT §20, docs/decisions/151-move-to-postgres.md):
 * the embedded database is copied into an empty PostgreSQL database that this product's own
 * migrations have shaped, table by table in one transaction, then every table's row count and
 * content checksum is compared on both sides. `--objects` copies the stored files to the
 * configured S3 bucket, each checked by SHA-256.
 */

/** Rows per round trip: a few MB of JSON at most. */
const BATCH_ROWS = 2000;
const PGBOSS = 'pgboss';
/** Written by the target's own migration and pg-boss install, not copied: the same on both sides. */
const NOT_COPIED = new Set(['drizzle.__drizzle_migrations', 'pgboss.version', 'pgboss.queue']);
/** Rows whose content differs by when they were created (compared by count only). */
const COUNT_ONLY = new Set([...NOT_COPIED]);

interface TableName {
  schema: string;
  name: string;
}
const qualified = (t: TableName) => `${t.schema}.${t.name}`;
const quoted = (t: TableName) => `"${t.schema.replaceAll('"', '""')}"."${t.name.replaceAll('"', '""')}"`;
const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

type Query = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Tables that hold rows: partitions are reached through their parent (pg-boss's job table). */
async function listTables(query: Query): Promise<TableName[]> {
  const { rows } = await query(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition and n.nspname in ('public', 'drizzle', '${PGBOSS}')
     order by 1, 2`,
  );
  return rows.map((row) => ({ schema: String(row.schema), name: String(row.name) }));
}

/** Count and a checksum of every row's text, in an order that does not depend on storage. */
async function describeTable(query: Query, table: TableName): Promise<{ rows: number; checksum: string }> {
  const { rows } = await query(
    `select count(*)::text as n, coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as sum from ${quoted(table)} t`,
  );
  return { rows: Number(rows[0]!.n), checksum: String(rows[0]!.sum) };
}

/** Whether the PostgreSQL database holds no rows of this product (a fresh one, or one a failed move only migrated). */
async function holdsData(client: pg.Client): Promise<boolean> {
  const query: Query = (text) => client.query(text);
  for (const table of await listTables(query)) {
    if (NOT_COPIED.has(qualified(table)) && table.name !== 'queue') continue;
    if ((await query(`select 1 from ${quoted(table)} limit 1`)).rows.length > 0) return true;
  }
  return false;
}

async function copyTable(source: EmbeddedTransaction, target: pg.Client, table: TableName): Promise<void> {
  const { rows: columns } = await target.query<{ name: string }>(
    `select column_name as name from information_schema.columns
     where table_schema = $1 and table_name = $2 and is_generated = 'NEVER' order by ordinal_position`,
    [table.schema, table.name],
  );
  const list = columns.map((column) => quoteIdent(column.name)).join(', ');
  const cursor = `move_${table.schema}_${table.name}`.replace(/[^a-z0-9_]/gi, '_');
  // One cursor over the table: each batch continues where the last ended, whatever the order on disk.
  await source.query(`declare ${cursor} no scroll cursor for select row_to_json(t)::text as row from ${quoted(table)} t`);
  for (;;) {
    const { rows } = await source.query<{ row: string }>(`fetch ${BATCH_ROWS} from ${cursor}`);
    if (rows.length === 0) break;
    // The rows travel as JSON and are typed by the target table itself (json_populate_recordset).
    await target.query(
      `insert into ${quoted(table)} (${list}) overriding system value
       select ${list} from json_populate_recordset(null::${quoted(table)}, $1::json)`,
      [`[${rows.map((row) => row.row).join(',')}]`],
    );
  }
  await source.query(`close ${cursor}`);
}

/** Sequences behind serial or identity columns continue after the copied rows. */
async function advanceSequences(target: pg.Client): Promise<void> {
  const { rows } = await target.query<{ schema: string; name: string; column: string }>(
    `select table_schema as schema, table_name as name, column_name as column from information_schema.columns
     where table_schema in ('public', '${PGBOSS}') and (column_default like 'nextval(%' or is_identity = 'YES')`,
  );
  for (const row of rows) {
    const table = quoted(row);
    await target.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce(max(${quoteIdent(row.column)}), 0) + 1, false) from ${table}`,
      [table, row.column],
    );
  }
}

/**
 * Copies the embedded database `source` into the empty PostgreSQL database at `to`: migrated
 * first (the same migrations), filled in one transaction with triggers and foreign-key checks
 * off (the rows come from a database where they already held), then compared table by table.
 */
export async function moveDatabase(source: Database, to: string): Promise<Record<string, number>> {
  if (source.kind !== 'pglite') throw new BackupError('The data is already on PostgreSQL (DATABASE_URL is set): nothing to move');
  const target = new pg.Client({ connectionString: to });
  await target.connect().catch((error: Error) => {
    throw new BackupError(`Cannot connect to ${redact(to)}: ${error.message}`);
  });
  try {
    if (await holdsData(target)) throw new BackupError(`Refusing to move: the database at ${redact(to)} is not empty (the move fills only an empty database)`);
    const foreign = await foreignTables(target);
    if (foreign.length > 0) {
      throw new BackupError(`Refusing to move: the database at ${redact(to)} holds tables this product did not make (${foreign.slice(0, 3).join(', ')})`);
    }
    // The target gets this version's schema and pg-boss's tables from the product itself. If
    // that fails (something there is in the way), what it made is taken out again, and the
    // reason is one line: the database's own message, not the statement that met it.
    const before = await describePostgres(target);
    try {
      const migrated = await openDatabase({ databaseUrl: to, pgliteDir: '' });
      await migrated.close();
    } catch (error) {
      await undoPostgres(target, before);
      throw new BackupError(`Cannot give the database at ${redact(to)} this version's tables: ${reasonOf(error)}; nothing was left in it`);
    }

    const pglite: PgliteInThread = source.pglite!;
    const sourceQuery: Query = (text, params) => pglite.query(text, params);
    const targetQuery: Query = (text, params) => target.query(text, params);
    const tables = (await listTables(sourceQuery)).filter((table) => !NOT_COPIED.has(qualified(table)));

    await target.query('begin');
    try {
      // Rows come as they were: no trigger recounts them, no foreign key is checked row by row.
      await target.query('set local session_replication_role = replica').catch(() => {
        throw new BackupError('The target role cannot SET session_replication_role: run the move as the database owner with superuser rights');
      });
      // Queues first: pg-boss keeps each queue's jobs in a partition that creating the queue makes.
      const { rows: queues } = await pglite.query<Record<string, unknown>>(
        `select * from ${PGBOSS}.queue order by dead_letter nulls first, name`,
      );
      for (const queue of queues) {
        await target.query(`select ${PGBOSS}.create_queue($1, $2::json)`, [
          queue.name,
          JSON.stringify({
            policy: queue.policy,
            retryLimit: queue.retry_limit,
            retryDelay: queue.retry_delay,
            retryBackoff: queue.retry_backoff,
            expireInSeconds: queue.expire_seconds,
            retentionMinutes: queue.retention_minutes,
            deadLetter: queue.dead_letter,
          }),
        ]);
      }
      await pglite.transaction(async (tx) => {
        for (const table of tables) await copyTable(tx, target, table);
      });
      await advanceSequences(target);
      await target.query('commit');
    } catch (error) {
      await target.query('rollback').catch(() => {});
      throw error;
    }

    const counts: Record<string, number> = {};
    for (const table of await listTables(sourceQuery)) {
      const name = qualified(table);
      const [mine, theirs] = [await describeTable(sourceQuery, table), await describeTable(targetQuery, table)];
      if (mine.rows !== theirs.rows) throw new BackupError(`After the move ${name} has ${theirs.rows} rows, the embedded database ${mine.rows}`);
      if (!COUNT_ONLY.has(name) && mine.checksum !== theirs.checksum) throw new BackupError(`After the move ${name} differs from the embedded database`);
      counts[name] = mine.rows;
    }
    return counts;
  } finally {
    await target.end();
  }
}

/**
 * Copies every stored file to `to` (the S3 bucket), reading each back to compare its SHA-256.
 * The bucket must be empty.
 */
export async function moveObjects(source: Database, from: ObjectStorage, to: ObjectStorage, config: Config): Promise<{ objects: number; bytes: number }> {
  if (!config.s3) throw new BackupError('--objects needs S3_BUCKET and S3_REGION (and S3_ENDPOINT, keys) for the bucket to copy to');
  if (!(await isObjectStoreEmpty(config))) throw new BackupError(`Refusing to move files: the bucket ${config.s3.bucket} is not empty`);
  const { rows } = await source.pglite!.query<{ id: string }>(`select id from uploads where status = 'stored' order by id`);
  let bytes = 0;
  for (const { id } of rows) {
    const key = objectKey('uploads', id);
    const found = await from.check(key);
    if (!found) throw new BackupError(`The stored file ${key} is missing from ${from.driver} storage`);
    const sent = createHash('sha256');
    const body = await from.read(key);
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sent.update(chunk);
        callback(null, chunk);
      },
    });
    body.on('error', (error) => hashing.destroy(error));
    await to.receive(key, body.pipe(hashing), found.size);
    const received = createHash('sha256');
    for await (const chunk of await to.read(key)) received.update(chunk as Buffer);
    if (sent.digest('hex') !== received.digest('hex')) throw new BackupError(`${key} differs in the bucket after the copy`);
    bytes += found.size;
  }
  return { objects: rows.length, bytes };
}

/**
 * Tables the target holds that neither this product's migrations nor pg-boss made: a database
 * without Drizzle's journal holds none of ours yet, so any table in it is someone else's.
 */
async function foreignTables(client: pg.Client): Promise<string[]> {
  const query: Query = (text) => client.query(text);
  const tables = (await listTables(query)).map(qualified);
  if (tables.includes('drizzle.__drizzle_migrations')) return [];
  return tables.filter((name) => !name.startsWith(`${PGBOSS}.`));
}

/** The database's own words for a failure: Drizzle wraps them in its statement and parameters. */
function reasonOf(error: unknown): string {
  let innermost: unknown = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) innermost = innermost.cause;
  const message = innermost instanceof Error ? innermost.message : String(innermost);
  return message.split('\n')[0]!;
}

/** A connection string without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the given URL';
  }
}
