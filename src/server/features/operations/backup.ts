import { spawn } from 'node:child_process';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pgliteEngine, type PgliteInThread } from '../../platform/db/pglite-in-thread';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config';
import { openDatabase, sql, type Database } from '../../platform/db/client';
import { uploads } from '../../platform/db/schema';
import { assertValidKey, objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { openToken } from '../../platform/token-box';
import { isObjectStoreEmpty } from '../../platform/storage/store-is-empty';
import { assertWholeTar, listTarEntries, readTarEntry, TarWriter, type TarEntry } from './tar';

/**
 * `npm run backup` / `npm run restore` (CONTRACT §20, docs/decisions/150-backups.md).
 *
 * One archive holds a snapshot of the database taken with the database's own tool (PGlite's
 * `dumpDataDir`, `pg_dump`), the stored files that snapshot references, and a manifest with the
 * row count of every table and the SHA-256 of every file. The row counts and the list of files
 * are read at the very instant of the snapshot, so the manifest describes exactly what the dump
 * holds. Files are copied after the snapshot: a stored file never changes (an upload is written
 * under `incoming/`, checked, then moved to `uploads/<id>` before its row says `stored`), so the
 * bytes copied a moment later are the bytes the snapshot references.
 */

const MANIFEST_ENTRY = 'manifest.json';
/** The manifest's HMAC-SHA256 with BACKUP_KEY (decision 191); only in an archive taken with a key. */
const SIGNATURE_ENTRY = 'manifest.hmac';
const SIGNATURE_PREFIX = 'hmac-sha256:';
const PGLITE_ENTRY = 'database/pglite-data.tar.gz';
const POSTGRES_ENTRY = 'database/postgres.dump';
const OBJECT_PREFIX = 'objects/';

const manifestSchema = z.object({
  format: z.literal('label-submission-hub-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    entry: z.string(),
    size: z.number(),
    sha256: z.string(),
    /** Rows per table ("schema.table") at the snapshot. */
    tables: z.record(z.string(), z.number()),
  }),
  /** Only keys the object store would accept (`<area>/<id>`): a restore writes nowhere else. */
  objects: z.array(
    z.object({
      key: z.string().refine(isValidKey),
      size: z.number().int().nonnegative(),
      sha256: z.string(),
      /**
       * A resumable upload whose last byte arrived but which was not checked yet: `receiving` in
       * the dump, with its bytes under `incoming/`. The restore marks it `stored`, the state its
       * check starts from, because the resumable store's own record of it is not in the archive.
       */
      resumable: z.literal(true).optional(),
    }),
  ),
  /** Files the snapshot references that were deleted before they could be copied. */
  missing: z.array(z.string()),
  /**
   * Archives of an older version carried the development session secret; it is never restored
   * (CONTRACT §23: a backup is not a key), and new archives do not hold it.
   */
  sessionSecret: z.boolean().optional(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** A backup or restore that cannot go on; its message is the one line the command prints. */
export class BackupError extends Error {}

/** A file the snapshot references: where it is, and whether it is a resumable upload not settled yet. */
interface SnapshotObject {
  key: string;
  resumable: boolean;
}

interface Snapshot {
  kind: Database['kind'];
  entry: string;
  /** The dump's bytes as a file on disk. */
  dumpFile: string;
  tables: Record<string, number>;
  objects: SnapshotObject[];
}

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/** Every table outside PostgreSQL's own schemas: the app's, Drizzle's journal and pg-boss's. */
async function countRows(query: Query): Promise<Record<string, number>> {
  const { rows } = await query(
    `select table_schema as schema, table_name as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
     order by 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const name = `${String(row.schema)}.${String(row.name)}`;
    const quoted = `"${String(row.schema).replaceAll('"', '""')}"."${String(row.name).replaceAll('"', '""')}"`;
    const { rows: counted } = await query(`select count(*)::text as n from ${quoted}`);
    counts[name] = Number(counted[0]!.n);
  }
  return counts;
}

function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files a snapshot references: every upload whose bytes all arrived (pending ones have no
 * file yet). A checked one is under `uploads/`; one that arrived whole but was not checked yet
 * is still under `incoming/`, and is restored there, so its check runs after a restore as before
 * (CONTRACT §23). That is a `stored` upload without a content type, or a resumable (tus) upload,
 * which stays `receiving` without a lease until its check: whether its last byte arrived is
 * what the resumable store says when the file is copied.
 */
async function snapshotObjects(query: Query): Promise<SnapshotObject[]> {
  const { rows } = await query(
    `select id, status, content_type is not null as checked from uploads
      where status = 'stored' or (status = 'receiving' and lease_until is null and content_type is null)
      order by id`,
  );
  return rows.map((row) => ({ key: objectKey(row.checked ? 'uploads' : 'incoming', String(row.id)), resumable: row.status === 'receiving' }));
}

/** Whether the resumable upload under `key` has all its bytes (its last PATCH ended). */
async function resumableIsWhole(storage: ObjectStorage, key: string): Promise<boolean> {
  try {
    const upload = await storage.resumable.getUpload(key);
    return upload.size !== undefined && upload.offset === upload.size;
  } catch {
    return false; // Gone from the resumable store: checked (and moved) meanwhile, or abandoned.
  }
}

/** Where else a file of the snapshot may be by the time it is copied: its check moved it on. */
function laterKeyOf(key: string): string | undefined {
  return key.startsWith('incoming/') ? `uploads/${key.slice('incoming/'.length)}` : undefined;
}

async function snapshotPglite(pglite: PgliteInThread, workDir: string): Promise<Snapshot> {
  // Fewer WAL records to replay when the copy is opened.
  await pglite.exec('CHECKPOINT');
  // Inside one transaction nothing else runs on the embedded engine (every query waits for it):
  // the counts, the list of files and the copy of the data directory are of the same instant.
  // The copy is taken uncompressed (fast: the server waits for it) and compressed afterwards.
  const { tables, objects, dump } = await pglite.transaction(async (tx) => {
    const query: Query = (text) => tx.query(text);
    return { tables: await countRows(query), objects: await snapshotObjects(query), dump: await pglite.dumpDataDir('none') };
  });
  const dumpFile = path.join(workDir, 'pglite-data.tar.gz');
  await pipeline(Readable.fromWeb(dump.stream() as WebReadableStream), createGzip({ level: 6 }), createWriteStream(dumpFile));
  return { kind: 'pglite', entry: PGLITE_ENTRY, dumpFile, tables, objects };
}

async function snapshotPostgres(connectionString: string, workDir: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // pg_dump joins this transaction's snapshot (--snapshot), so the dump, the counts and the
    // list of files all see the database as it was at this one moment while writes go on.
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const query: Query = (text) => client.query(text);
    const tables = await countRows(query);
    const objects = await snapshotObjects(query);
    const dumpFile = path.join(workDir, 'postgres.dump');
    await runTool('pg_dump', ['--format=custom', `--snapshot=${rows[0]!.id}`, '--no-owner', '--no-privileges', `--file=${dumpFile}`, `--dbname=${connectionString}`]);
    await client.query('commit');
    return { kind: 'postgres', entry: POSTGRES_ENTRY, dumpFile, tables, objects };
  } finally {
    await client.end();
  }
}

/** Runs one of PostgreSQL's client tools; a missing tool or a failure is a BackupError. */
function runTool(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${command} was not found: install PostgreSQL's client tools (the server's major version or newer)`
            : `${command} failed: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${command} failed: ${stderr.trim().split('\n')[0] ?? `exit ${code}`}`));
    });
  });
}

export interface BackupSources {
  database: Database;
  storage: ObjectStorage;
  dataDir: string;
  /** BACKUP_KEY: with it the manifest is signed (HMAC-SHA256, decision 191); it never goes in the archive. */
  key?: Buffer | undefined;
}

const signatureOf = (key: Buffer, manifest: Buffer) => createHmac('sha256', key).update(manifest).digest();

/** Writes one archive to `out` while the product keeps running; returns its manifest. */
export async function writeBackup({ database, storage, key }: BackupSources, out: Writable): Promise<BackupManifest> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'hub-backup-'));
  try {
    const snapshot =
      database.kind === 'pglite' ? await snapshotPglite(database.pglite!, workDir) : await snapshotPostgres(database.connectionString!, workDir);
    const tar = new TarWriter(out);
    const { size } = await stat(snapshot.dumpFile);
    const dumpHash = createHash('sha256');
    await tar.addStream(snapshot.entry, size, createReadStream(snapshot.dumpFile), (chunk) => dumpHash.update(chunk));

    const objects: BackupManifest['objects'] = [];
    const missing: string[] = [];
    for (const { key: objectKey, resumable } of snapshot.objects) {
      // A file deleted since the snapshot (its submission was deleted a moment later) is named
      // in the manifest rather than failing the whole backup. One checked since the snapshot was
      // moved from `incoming/` to `uploads/` with the same bytes: it is kept under the key the
      // snapshot names. A resumable upload whose bytes have not all arrived is no file yet.
      let source = objectKey;
      let found = resumable && !(await resumableIsWhole(storage, objectKey)) ? undefined : await storage.check(objectKey);
      const later = laterKeyOf(objectKey);
      if (!found && later) {
        source = later;
        found = await storage.check(later);
      }
      if (!found) {
        if (!resumable) missing.push(objectKey);
        continue;
      }
      const hash = createHash('sha256');
      await tar.addStream(OBJECT_PREFIX + objectKey, found.size, await storage.read(source), (chunk) => hash.update(chunk));
      objects.push({ key: objectKey, size: found.size, sha256: hash.digest('hex'), ...(resumable ? { resumable: true as const } : {}) });
    }

    // No secret goes in (CONTRACT §23): not the development session secret of DATA_DIR, nor the
    // key of the channel's tokens derived from it. Sessions are stored by the hash of their id,
    // and the channel's tokens sealed with that key, so the archive opens neither.
    const manifest: BackupManifest = {
      format: 'label-submission-hub-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      database: { kind: snapshot.kind, entry: snapshot.entry, size, sha256: dumpHash.digest('hex'), tables: snapshot.tables },
      objects,
      missing,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
    await tar.addBuffer(MANIFEST_ENTRY, manifestBytes);
    // The manifest names every entry's checksum, so its signature covers the whole archive.
    if (key) await tar.addBuffer(SIGNATURE_ENTRY, Buffer.from(`${SIGNATURE_PREFIX}${signatureOf(key, manifestBytes).toString('hex')}\n`));
    await tar.finish();
    return manifest;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Writes a backup to `file` (through a temporary name, so a file by that name is always whole). */
export async function writeBackupFile(sources: BackupSources, file: string): Promise<BackupManifest> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    const manifest = await writeBackup(sources, out);
    await rename(partial, file);
    return manifest;
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * What a restore trusts (decision 191): the key archives are signed with (BACKUP_KEY), and
 * whether an archive without a signature may be restored although a key is set (`--unsigned`).
 */
export interface ArchiveTrust {
  key: Buffer | undefined;
  allowUnsigned: boolean;
}

async function readEntry(handle: Awaited<ReturnType<typeof open>>, entry: TarEntry): Promise<Buffer> {
  const bytes = Buffer.alloc(entry.size);
  await handle.read(bytes, 0, entry.size, entry.offset);
  return bytes;
}

/**
 * The manifest's signature against the key: a signed archive opens only with its key, and with a
 * key set an unsigned one only when the operator says so. Checked before anything else is read.
 */
async function checkSignature(file: string, handle: Awaited<ReturnType<typeof open>>, entry: TarEntry | undefined, manifest: Buffer, trust: ArchiveTrust) {
  if (!entry) {
    if (!trust.key || trust.allowUnsigned) return;
    throw new BackupError(`${file} is not signed and BACKUP_KEY is set: restore it with --unsigned only if you know where it comes from`);
  }
  if (!trust.key) throw new BackupError(`${file} is signed: set BACKUP_KEY to the key it was taken with to restore it`);
  const written = (await readEntry(handle, entry)).toString('utf8').trim();
  const signature = written.startsWith(SIGNATURE_PREFIX) ? Buffer.from(written.slice(SIGNATURE_PREFIX.length), 'hex') : Buffer.alloc(0);
  const expected = signatureOf(trust.key, manifest);
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
    throw new BackupError(`${file} does not verify with BACKUP_KEY: it was changed after it was written, or taken with another key`);
  }
}

/**
 * Reads an archive's entries and manifest; anything that is not a whole backup is a BackupError.
 * With `trust`, the manifest's signature is checked first (decision 191).
 */
async function readArchive(file: string, trust?: ArchiveTrust) {
  const handle = await open(file, 'r').catch(() => {
    throw new BackupError(`Cannot read ${file}`);
  });
  try {
    const entries = await listTarEntries(handle).catch((error: Error) => {
      throw new BackupError(`${file}: ${error.message}`);
    });
    const manifestEntry = entries.find((entry) => entry.name === MANIFEST_ENTRY);
    if (!manifestEntry) throw new BackupError(`${file} is not a whole backup (it has no manifest)`);
    const bytes = await readEntry(handle, manifestEntry);
    if (trust) await checkSignature(file, handle, entries.find((entry) => entry.name === SIGNATURE_ENTRY), bytes, trust);
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      json = undefined;
    }
    const parsed = manifestSchema.safeParse(json);
    if (!parsed.success) throw new BackupError(`${file} has a manifest this version cannot read`);
    return { handle, entries: new Map(entries.map((entry) => [entry.name, entry])), manifest: parsed.data };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function sha256OfEntry(handle: Awaited<ReturnType<typeof open>>, entry: TarEntry): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of readTarEntry(handle, entry)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Checks every checksum of an archive against its manifest without restoring anything; with
 * `trust`, its signature first (a restore always passes it; a backup just received checks only
 * that it is whole).
 */
export async function verifyBackupFile(file: string, trust?: ArchiveTrust): Promise<BackupManifest> {
  const { handle, entries, manifest } = await readArchive(file, trust);
  try {
    const expected = [
      { name: manifest.database.entry, sha256: manifest.database.sha256 },
      ...manifest.objects.map((object) => ({ name: OBJECT_PREFIX + object.key, sha256: object.sha256 })),
    ];
    for (const { name, sha256 } of expected) {
      const entry = entries.get(name);
      if (!entry) throw new BackupError(`${file} is damaged: ${name} is missing`);
      if ((await sha256OfEntry(handle, entry)) !== sha256) throw new BackupError(`${file} is damaged: ${name} does not match its checksum`);
    }
    return manifest;
  } finally {
    await handle.close();
  }
}

/** Whether the target database holds any table (a database restore fills only an empty one). */
async function postgresIsEmpty(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    return rows[0].n === 0;
  } finally {
    await client.end();
  }
}

async function directoryIsEmpty(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** The one line a refused restore prints. */
const refusal = (what: string) => `Refusing to restore: ${what} is not empty (a restore fills only an empty target)`;

export interface RestoreResult {
  manifest: BackupManifest;
  /** Rows per table in the restored database, equal to the manifest's. */
  tables: Record<string, number>;
  /**
   * Whether the restored channel connection opens with this server's token key: no when the
   * key (or the session secret it is derived from) is not the backed-up server's, and the
   * channel must be connected again; null when no channel was connected.
   */
  channelOpens: boolean | null;
}

/** What a PostgreSQL database held before a restore or a move wrote into it. */
export interface PostgresBefore {
  schemas: Set<string>;
  extensions: Set<string>;
  /** Tables, views, sequences…, functions and types, each as its qualified name or signature. */
  objects: Set<string>;
}

export async function withPostgres<T>(connectionString: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const DROP_OF: Record<string, string> = { r: 'table', p: 'table', v: 'view', m: 'materialized view', S: 'sequence', f: 'foreign table', T: 'type', F: 'routine' };

/**
 * The droppable objects of the schemas outside PostgreSQL's own, each with the statement that
 * drops it: relations, routines and types that are no extension's members.
 */
async function listObjects(client: pg.Client): Promise<{ key: string; drop: string }[]> {
  const { rows } = await client.query<{ kind: string; schema: string; name: string; signature: string | null }>(
    `select c.relkind::text as kind, n.nspname as schema, c.relname as name, null as signature
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
        and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
     union all
     select 'F', n.nspname, p.proname, p.oid::regprocedure::text
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
     union all
     select 'T', n.nspname, t.typname, null
       from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where t.typtype in ('e', 'd') and n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema'
        and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')`,
  );
  return rows.map((row) => {
    const name = row.signature ?? `${quoteIdent(row.schema)}.${quoteIdent(row.name)}`;
    return { key: `${row.kind} ${name}`, drop: `drop ${DROP_OF[row.kind]} if exists ${name} cascade` };
  });
}

export async function describePostgres(client: pg.Client): Promise<PostgresBefore> {
  const schemas = await client.query<{ name: string }>(`select nspname as name from pg_namespace`);
  const extensions = await client.query<{ name: string }>(`select extname as name from pg_extension`);
  return {
    schemas: new Set(schemas.rows.map((r) => r.name)),
    extensions: new Set(extensions.rows.map((r) => r.name)),
    objects: new Set((await listObjects(client)).map((object) => object.key)),
  };
}

/**
 * Takes out of a PostgreSQL database what a failed restore or move put there: the schemas,
 * extensions, tables, views, sequences, routines and types that were not there before. What was
 * there stays. The database is then as it was found.
 */
export async function undoPostgres(client: pg.Client, before: PostgresBefore): Promise<void> {
  const now = await describePostgres(client);
  await client.query('begin');
  for (const name of now.schemas) if (!before.schemas.has(name)) await client.query(`drop schema if exists ${quoteIdent(name)} cascade`);
  for (const name of now.extensions) if (!before.extensions.has(name)) await client.query(`drop extension if exists ${quoteIdent(name)} cascade`);
  for (const object of await listObjects(client)) if (!before.objects.has(object.key)) await client.query(object.drop);
  await client.query('commit');
}

const gunzipBytes = promisify(gunzip);

/**
 * The embedded database's dump, unpacked here rather than by PGlite: its loader unzips on a
 * stream whose failure no caller can catch, so a damaged dump (its checksum forged with it)
 * killed the restore with a stack and left its staging directory behind.
 */
async function unpackPgliteDump(bytes: Buffer): Promise<Buffer> {
  let tar: Buffer;
  try {
    tar = await gunzipBytes(bytes);
  } catch (error) {
    throw new BackupError(`The backup's database cannot be unpacked (${(error as Error).message}): nothing was restored`);
  }
  try {
    await assertWholeTar(tar);
  } catch (error) {
    throw new BackupError(`The backup's database is damaged (${(error as Error).message}): nothing was restored`);
  }
  return tar;
}

/**
 * Resumable uploads whose last byte had arrived are restored with their bytes under `incoming/`
 * but without the resumable store's record of them, which their check would ask: they are marked
 * `stored`, the state the check starts from once that record says they are whole.
 */
async function settleResumableUploads(database: Database, manifest: BackupManifest): Promise<void> {
  const ids = manifest.objects.filter((object) => object.resumable).map((object) => object.key.slice('incoming/'.length));
  if (ids.length === 0) return;
  await database.db
    .update(uploads)
    .set({ status: 'stored' })
    .where(and(inArray(uploads.id, ids), eq(uploads.status, 'receiving'), isNull(uploads.leaseUntil), isNull(uploads.contentType)));
}

/** Whether the restored channel's refresh token opens with the configured key; null without a channel. */
async function channelOpensWith(database: Database, key: Buffer): Promise<boolean | null> {
  const result = (await database.db.execute(sql`select refresh_token from youtube_channels limit 1`)) as unknown as { rows: { refresh_token: string }[] };
  const sealed = result.rows[0]?.refresh_token;
  if (sealed === undefined) return null;
  try {
    openToken(key, sealed);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fills an empty target from an archive: DATA_DIR's database or the DATABASE_URL database, as the
 * backup was taken, and the configured object store. Everything is checked before anything is
 * written; the restored row counts are compared with the manifest afterwards.
 *
 * All or nothing (CONTRACT §23): the embedded database is restored into a staging directory
 * beside `db` and renamed into place only once its row counts matched; a PostgreSQL database is
 * emptied again, and every file written is deleted, when anything fails on the way.
 */
export async function restoreBackupFile(file: string, config: Config, storage: ObjectStorage, options: { allowUnsigned?: boolean } = {}): Promise<RestoreResult> {
  const manifest = await verifyBackupFile(file, { key: config.backupKey, allowUnsigned: options.allowUnsigned ?? false });
  const { kind } = manifest.database;
  const pgliteDir = path.join(config.dataDir, 'db');
  if (kind === 'postgres' && !config.databaseUrl) {
    throw new BackupError('This backup is of a PostgreSQL database: set DATABASE_URL to the empty database to restore it into');
  }
  if (kind === 'pglite' && config.databaseUrl) {
    throw new BackupError('This backup is of the embedded database: unset DATABASE_URL (npm run move-to-postgres moves it to PostgreSQL afterwards)');
  }
  if (kind === 'pglite' && !(await directoryIsEmpty(pgliteDir))) throw new BackupError(refusal(`the embedded database in ${pgliteDir}`));
  if (kind === 'postgres' && !(await postgresIsEmpty(config.databaseUrl!))) throw new BackupError(refusal('the database at DATABASE_URL'));
  if (!(await isObjectStoreEmpty(config))) {
    throw new BackupError(refusal(config.s3 ? `the bucket ${config.s3.bucket}` : `the file store in ${path.join(config.dataDir, 'objects')}`));
  }

  const stagingDir = `${pgliteDir}.restoring`;
  const postgresBefore = kind === 'postgres' ? await withPostgres(config.databaseUrl!, describePostgres) : undefined;
  const written: string[] = [];
  const { handle, entries } = await readArchive(file);
  try {
    const dumpEntry = entries.get(manifest.database.entry)!;
    if (kind === 'pglite') {
      await rm(stagingDir, { recursive: true, force: true });
      const dump = await unpackPgliteDump(await readEntry(handle, dumpEntry));
      await mkdir(stagingDir, { recursive: true });
      const restored = await PGlite.create(stagingDir, {
        loadDataDir: new Blob([dump as Uint8Array<ArrayBuffer>], { type: 'application/x-tar' }),
        extensions: { pg_trgm },
        ...(await pgliteEngine()),
      });
      await restored.close();
      // The copy carries the lock of the process it was taken from (decision 053).
      await rm(path.join(stagingDir, 'hub-owner.pid'), { force: true });
    } else {
      const workDir = await mkdtemp(path.join(os.tmpdir(), 'hub-restore-'));
      try {
        const dumpFile = path.join(workDir, 'postgres.dump');
        await pipeline(readTarEntry(handle, dumpEntry), createWriteStream(dumpFile));
        await runTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${config.databaseUrl}`, dumpFile]);
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    }

    for (const object of manifest.objects) {
      written.push(object.key);
      await storage.receive(object.key, readTarEntry(handle, entries.get(OBJECT_PREFIX + object.key)!), object.size);
    }

    const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: kind === 'pglite' ? stagingDir : pgliteDir, migrate: false });
    let tables: Record<string, number>;
    let channelOpens: boolean | null;
    try {
      tables = await countRows(async (text) => (await database.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] });
      for (const [table, count] of Object.entries(manifest.database.tables)) {
        if (tables[table] !== count) throw new BackupError(`Restored ${table} has ${tables[table] ?? 0} rows, the backup ${count}: nothing was restored`);
      }
      await settleResumableUploads(database, manifest);
      channelOpens = await channelOpensWith(database, config.production.tokenKey);
    } finally {
      await database.close();
    }
    if (kind === 'pglite') {
      await rm(pgliteDir, { recursive: true, force: true });
      await rename(stagingDir, pgliteDir);
    }
    return { manifest, tables, channelOpens };
  } catch (error) {
    // Whatever was written goes again, so the target is as empty as it was and can be restored into.
    if (kind === 'pglite') await rm(stagingDir, { recursive: true, force: true });
    else await withPostgres(config.databaseUrl!, (client) => undoPostgres(client, postgresBefore!));
    await storage.delete(written);
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The restore failed and was undone: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  } finally {
    await handle.close();
  }
}
