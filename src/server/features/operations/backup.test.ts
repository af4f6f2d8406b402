import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Upload } from '@tus/utils';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig, type Config } from '../../config';
import { openDatabase, type Database } from '../../platform/db/client';
import { payees, sessions, uploads, users, youtubeChannels } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { hashSessionId, SESSION_COOKIE } from '../../platform/sessions';
import { LocalObjectStorage } from '../../platform/storage/local-storage';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { sealToken } from '../../platform/token-box';
import { withDatabase } from '../../test/global-setup';
import { videoHeaderBytes } from '../../test/file-fixtures';
import { createAdmin, createArtist, createTestApp, createUser, sessionCookie, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../../test/helpers';
import { listTarEntries, readTarEntry, TarWriter } from './tar';
import { BackupError, restoreBackupFile, verifyBackupFile, writeBackupFile, type BackupManifest } from './backup';
import { listenForBackups, requestBackup } from './backup-socket';
import { restoreIntoEmptyTarget } from './restore-target';
import { taxFormSchema } from '@shared/payee-schemas';
import { fileTaxForm } from '../../domain/bonus/payees';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Stores a file and its `stored` upload row, as the upload routes leave them. */
async function storeUpload(db: Database['db'], storage: ObjectStorage, userId: string) {
  const id = newId();
  const bytes = randomBytes(1000 + Math.floor(Math.random() * 300_000));
  await storage.receive(objectKey('uploads', id), Readable.from([bytes]), bytes.length);
  await db.insert(uploads).values({ id, userId, status: 'stored', size: bytes.length, contentType: 'audio/mpeg', uploadExpiresAt: new Date() });
  return { id, bytes };
}

/** Users and uploads written one after another until stopped; each kept once its write returned. */
function keepWriting(test: TestApp, storage: ObjectStorage, ownerId: string) {
  const users: string[] = [];
  const files = new Map<string, Buffer>();
  let running = true;
  const done = (async () => {
    while (running) {
      users.push((await createUser(test.db)).id);
      const { id, bytes } = await storeUpload(test.db, storage, ownerId);
      files.set(id, bytes);
    }
  })();
  return {
    users,
    files,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** Everything the restored product serves must be what the source held: rows and file bytes. */
async function expectSameData(source: Database, restored: Database, restoredStorage: ObjectStorage, sourceFiles: Map<string, Buffer>) {
  const restoredUsers = await restored.db.select().from(users);
  const sourceUsers = new Map((await source.db.select().from(users)).map((user) => [user.id, user]));
  for (const user of restoredUsers) expect(user).toEqual(sourceUsers.get(user.id));
  const restoredUploads = await restored.db.select().from(uploads);
  for (const upload of restoredUploads) {
    const bytes = await buffer(await restoredStorage.read(objectKey('uploads', upload.id)));
    expect(bytes.equals(sourceFiles.get(upload.id)!)).toBe(true);
  }
  return { users: new Set(restoredUsers.map((user) => user.id)), uploads: new Set(restoredUploads.map((upload) => upload.id)) };
}

/** An empty target of the database's kind: a fresh DATA_DIR, and a fresh PostgreSQL database when the source is one. */
async function emptyTarget(source: Database, env: Record<string, string> = {}): Promise<{ config: Config; storage: LocalObjectStorage; databaseUrl?: string }> {
  const targetDir = mkdtempSync(path.join(os.tmpdir(), 'hub-restore-test-'));
  cleanups.push(() => rmSync(targetDir, { recursive: true, force: true }));
  let databaseUrl: string | undefined;
  if (source.kind === 'postgres') {
    const name = `hub_restore_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1000)}`;
    const admin = new pg.Client({ connectionString: source.connectionString });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    databaseUrl = withDatabase(source.connectionString!, name);
    cleanups.push(async () => {
      const dropper = new pg.Client({ connectionString: source.connectionString });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    });
  }
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: targetDir, LOG_LEVEL: 'silent', PUBLIC_URL: TEST_ORIGIN, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env });
  return { config, storage: new LocalObjectStorage(path.join(targetDir, 'objects')), databaseUrl };
}

/**
 * A copy of an archive with some of its entries changed, as someone with the file could make it:
 * `entries` gives an entry's new bytes (undefined: dropped), `manifest` edits the manifest, and
 * the checksums are brought in line with the new bytes. A signature is copied as it was.
 */
async function rewriteArchive(
  archive: string,
  out: string,
  change: { entries?: (name: string, bytes: Buffer) => Buffer | undefined; manifest?: (manifest: BackupManifest) => void } = {},
): Promise<string> {
  const { open } = await import('node:fs/promises');
  const handle = await open(archive, 'r');
  const read: { name: string; bytes: Buffer }[] = [];
  try {
    for (const entry of await listTarEntries(handle)) read.push({ name: entry.name, bytes: await buffer(readTarEntry(handle, entry)) });
  } finally {
    await handle.close();
  }
  const kept = read.flatMap(({ name, bytes }) => {
    const changed = name === 'manifest.json' ? bytes : change.entries ? change.entries(name, bytes) : bytes;
    return changed === undefined ? [] : [{ name, bytes: changed }];
  });
  const manifestEntry = kept.find((entry) => entry.name === 'manifest.json')!;
  const manifest = JSON.parse(manifestEntry.bytes.toString('utf8')) as BackupManifest;
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  for (const { name, bytes } of kept) {
    if (name === manifest.database.entry) Object.assign(manifest.database, { size: bytes.length, sha256: sha256(bytes) });
    const object = manifest.objects.find((o) => `objects/${o.key}` === name);
    if (object) Object.assign(object, { size: bytes.length, sha256: sha256(bytes) });
  }
  change.manifest?.(manifest);
  manifestEntry.bytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
  const stream = createWriteStream(out);
  const tar = new TarWriter(stream);
  for (const { name, bytes } of kept) await tar.addBuffer(name, bytes);
  await tar.finish();
  return out;
}

/** Every path under a directory, relative to it (what a restore left there). */
const pathsUnder = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : null);

/** The names of an archive's entries. */
function listTarNames(archive: string): string[] {
  return execFileSync('tar', ['-tf', archive], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** Every byte an archive holds, its database dump opened up too (gunzipped, or pg_restore'd to SQL): what a thief could read. */
async function bytesOfArchive(archive: string): Promise<Buffer> {
  const whole = readFileSync(archive);
  const { open } = await import('node:fs/promises');
  const handle = await open(archive, 'r');
  try {
    const parts = [whole];
    for (const entry of await listTarEntries(handle)) {
      const bytes = whole.subarray(entry.offset, entry.offset + entry.size);
      if (entry.name.endsWith('.tar.gz')) parts.push(gunzipSync(bytes));
      if (entry.name.endsWith('postgres.dump')) {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-dump-'));
        try {
          writeFileSync(path.join(dir, 'dump'), bytes);
          execFileSync('pg_restore', ['--file', path.join(dir, 'dump.sql'), path.join(dir, 'dump')]);
          parts.push(readFileSync(path.join(dir, 'dump.sql')));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
    return Buffer.concat(parts);
  } finally {
    await handle.close();
  }
}

describe('backup and restore', () => {
  it('round-trips a running product, taken while it writes, and refuses a target that is not empty', async () => {
    const test = await createTestApp();
    cleanups.push(() => test.close());
    const storage = new LocalObjectStorage(path.join(test.config.dataDir, 'objects'));
    const owner = await createUser(test.db);
    const before = new Map<string, Buffer>();
    for (let i = 0; i < 5; i++) {
      const { id, bytes } = await storeUpload(test.db, storage, owner.id);
      before.set(id, bytes);
    }
    const beforeUsers = (await test.db.select({ id: users.id }).from(users)).map((user) => user.id);

    const archive = path.join(mkdtempSync(path.join(os.tmpdir(), 'hub-backup-test-')), 'backup.tar');
    cleanups.push(() => rmSync(path.dirname(archive), { recursive: true, force: true }));
    const writes = keepWriting(test, storage, owner.id);
    const sources = { database: test.database, storage, dataDir: test.config.dataDir };
    let manifest;
    if (test.database.kind === 'pglite') {
      // As `npm run backup` does against a running server on the embedded database.
      const stop = await listenForBackups(sources, test.app.log);
      cleanups.push(stop);
      manifest = await requestBackup(test.config.dataDir, archive);
    } else {
      manifest = await writeBackupFile(sources, archive);
    }
    // Writes kept being acknowledged while the backup ran.
    const writtenDuring = writes.users.length;
    await writes.stop();
    expect(writtenDuring).toBeGreaterThan(0);
    expect(statSync(archive).size).toBeGreaterThan(0);
    expect(manifest.database.tables['public.users']).toBeGreaterThanOrEqual(beforeUsers.length);

    // An empty target of the same kind.
    const targetDir = mkdtempSync(path.join(os.tmpdir(), 'hub-restore-test-'));
    cleanups.push(() => rmSync(targetDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (test.database.kind === 'postgres') {
      const name = `hub_restore_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: test.database.connectionString });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      await admin.end();
      databaseUrl = withDatabase(test.database.connectionString!, name);
      cleanups.push(async () => {
        const dropper = new pg.Client({ connectionString: test.database.connectionString });
        await dropper.connect();
        await dropper.query(`drop database if exists "${name}" with (force)`);
        await dropper.end();
      });
    }
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: targetDir, SESSION_SECRET: test.config.sessionSecret, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
    const targetStorage = new LocalObjectStorage(path.join(targetDir, 'objects'));
    const result = await restoreBackupFile(archive, config, targetStorage);
    expect(result.tables).toMatchObject(manifest.database.tables);

    const restored = await openDatabase({ databaseUrl, pgliteDir: path.join(targetDir, 'db') });
    try {
      const allFiles = new Map([...before, ...writes.files]);
      const kept = await expectSameData(test.database, restored, targetStorage, allFiles);
      // Every record acknowledged before the backup began is there, with its file.
      for (const id of beforeUsers) expect(kept.users.has(id)).toBe(true);
      for (const id of before.keys()) expect(kept.uploads.has(id)).toBe(true);
      expect(kept.uploads.size).toBe(manifest.objects.length);
    } finally {
      await restored.close();
    }

    // Restoring again over what was just restored is refused, with one line.
    const again = restoreBackupFile(archive, config, targetStorage);
    await expect(again).rejects.toBeInstanceOf(BackupError);
    await expect(again).rejects.toThrow(/^Refusing to restore: .* is not empty/);
  }, 120_000);

  it('is not a key: no secret, no token key, no session id in any byte; restored on a new secret it serves every record and file', async () => {
    // The default setup: no SESSION_SECRET, so the secret is generated into DATA_DIR.
    const test = await createTestApp({ SESSION_SECRET: undefined } as unknown as Record<string, string>);
    cleanups.push(() => test.close());
    const secretFile = path.join(test.config.dataDir, 'session-secret');
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(test.config.sessionSecret);
    const storage = new LocalObjectStorage(path.join(test.config.dataDir, 'objects'));
    const admin = await createAdmin(test.db);
    const owner = await createUser(test.db);
    const checked = await storeUpload(test.db, storage, owner.id);
    // Arrived whole but not checked yet: `stored` without a content type, bytes still under incoming/.
    const unchecked = { id: newId(), bytes: randomBytes(5000) };
    await storage.receive(objectKey('incoming', unchecked.id), Readable.from([unchecked.bytes]), unchecked.bytes.length);
    await test.db.insert(uploads).values({ id: unchecked.id, userId: owner.id, status: 'stored', uploadExpiresAt: new Date() });
    const refreshToken = `1//refresh-${randomBytes(12).toString('hex')}`;
    await test.db.insert(youtubeChannels).values({ channelId: 'UC1', title: 'Label', refreshToken: sealToken(test.config.production.tokenKey, refreshToken) });
    // A payee's tax form (CONTRACT §24): its TIN sealed as the product files it, its last four in the clear.
    const tin = String(100_000_000 + randomBytes(4).readUInt32BE(0) % 800_000_000);
    const [payee] = await test.db.insert(payees).values({ id: newId(), email: 'ana.souza@example.com', name: 'Ana Souza' }).returning();
    const taxForm = taxFormSchema.parse({ kind: 'w9', legalName: 'Ana Souza', country: 'US', address: '1 Main St, Austin TX', tin, signature: { name: 'Ana Souza', consent: true } });
    await fileTaxForm(test.db, test.config.production.tokenKey, { payeeId: payee!.id, form: taxForm, by: null, ip: '127.0.0.1', userAgent: null, now: new Date() });

    // Three live sessions of the admin, opened by signing in.
    const sessionIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const login = await test.app.inject({ method: 'POST', url: '/api/login', headers: { origin: TEST_ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } });
      expect(login.statusCode).toBe(200);
      const signed = login.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
      const unsigned = test.app.unsignCookie(signed);
      expect(unsigned.valid).toBe(true);
      sessionIds.push(unsigned.value!);
    }
    const stored = (await test.db.select({ sid: sessions.sid }).from(sessions)).map((row) => row.sid);
    for (const id of sessionIds) expect(stored).toContain(hashSessionId(id));
    for (const id of sessionIds) expect(stored).not.toContain(id);

    const archive = path.join(mkdtempSync(path.join(os.tmpdir(), 'hub-backup-test-')), 'backup.tar');
    cleanups.push(() => rmSync(path.dirname(archive), { recursive: true, force: true }));
    const manifest = await writeBackupFile({ database: test.database, storage, dataDir: test.config.dataDir }, archive);
    expect(manifest.objects.map((o) => o.key).sort()).toEqual([objectKey('incoming', unchecked.id), objectKey('uploads', checked.id)].sort());
    expect(manifest.missing).toEqual([]);

    const bytes = await bytesOfArchive(archive);
    // The search finds what is there: the stored hash of a session id and the uploaded bytes.
    expect(bytes.includes(hashSessionId(sessionIds[0]!))).toBe(true);
    expect(bytes.includes(unchecked.bytes)).toBe(true);
    expect(bytes.includes(`ana.souza@example.com`)).toBe(true);
    const key = test.config.production.tokenKey;
    const secrets = [
      test.config.sessionSecret,
      key,
      key.toString('hex'),
      key.toString('base64'),
      key.toString('base64url'),
      refreshToken,
      tin,
      ...sessionIds,
      ...sessionIds.map((id) => test.app.signCookie(id)),
    ];
    for (const secret of secrets) expect(bytes.includes(secret)).toBe(false);
    expect(listTarNames(archive).some((name) => name.includes('secret'))).toBe(false);

    // Restored where the secret is another one (the target's own, generated anew).
    const target = await emptyTarget(test.database);
    expect(target.config.sessionSecret).not.toBe(test.config.sessionSecret);
    const result = await restoreBackupFile(archive, target.config, target.storage);
    expect(result.channelOpens).toBe(false);
    expect(readdirSync(target.config.dataDir).sort()).toEqual(['db', 'objects', 'session-secret'].filter((name) => name !== 'db' || !target.databaseUrl));
    const restored = await openDatabase({ databaseUrl: target.databaseUrl, pgliteDir: path.join(target.config.dataDir, 'db') });
    const app = await buildApp({ config: target.config, database: restored, client: 'none', logger: false });
    cleanups.push(async () => {
      await app.close();
      await restored.close();
    });
    await app.ready();
    // The old sessions open nothing there; the admin signs in again and is served every record and file.
    const oldCookie = `${SESSION_COOKIE}=${test.app.signCookie(sessionIds[0]!)}`;
    expect((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie: oldCookie } })).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/api/login', headers: { origin: TEST_ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const cookie = `${SESSION_COOKIE}=${login.cookies.find((c) => c.name === SESSION_COOKIE)!.value}`;
    expect((await app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).json<{ role: string }>().role).toBe('admin');
    // The channel's tokens do not open with this server's key: it reads as not connected until it is connected again.
    const channel = await app.inject({ method: 'GET', url: '/api/admin/channel', headers: { cookie } });
    expect(channel.statusCode).toBe(200);
    expect(channel.json()).toMatchObject({ connected: false, channelId: null });
    const file = await app.inject({ method: 'GET', url: `/objects/uploads/${checked.id}`, headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(checked.bytes)).toBe(true);
    expect((await buffer(await target.storage.read(objectKey('incoming', unchecked.id)))).equals(unchecked.bytes)).toBe(true);
    const sourceUsers = await test.db.select().from(users);
    expect(await restored.db.select().from(users)).toEqual(expect.arrayContaining(sourceUsers));
    expect(result.tables).toEqual(manifest.database.tables);
  }, 120_000);

  it('leaves its target empty when it fails late, and refuses a manifest naming a file outside the store, in one line', async () => {
    const test = await createTestApp();
    cleanups.push(() => test.close());
    const storage = new LocalObjectStorage(path.join(test.config.dataDir, 'objects'));
    const owner = await createUser(test.db);
    await storeUpload(test.db, storage, owner.id);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-backup-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const archive = path.join(dir, 'backup.tar');
    const manifest = await writeBackupFile({ database: test.database, storage, dataDir: test.config.dataDir }, archive);

    /** The same archive with another manifest: every checksum still matches, so only a late check can tell. */
    const withManifest = async (name: string, change: (m: BackupManifest) => void) => {
      const { open } = await import('node:fs/promises');
      const handle = await open(archive, 'r');
      const forged = path.join(dir, name);
      const out = createWriteStream(forged);
      const tar = new TarWriter(out);
      try {
        for (const entry of await listTarEntries(handle)) {
          if (entry.name === 'manifest.json') continue;
          await tar.addStream(entry.name, entry.size, readTarEntry(handle, entry));
        }
      } finally {
        await handle.close();
      }
      const copy = structuredClone(manifest);
      change(copy);
      await tar.addBuffer('manifest.json', Buffer.from(JSON.stringify(copy)));
      await tar.finish();
      return forged;
    };

    const target = await emptyTarget(test.database, { SESSION_SECRET: test.config.sessionSecret });
    // Consistent manifest, wrong content: the database and the files are filled, then a count differs.
    const wrongCount = await withManifest('wrong-count.tar', (m) => (m.database.tables['public.users'] = m.database.tables['public.users']! + 1));
    await expect(restoreBackupFile(wrongCount, target.config, target.storage)).rejects.toThrow(/^Restored public\.users has \d+ rows, the backup \d+: nothing was restored$/);
    // As empty as it was found: the next restore is not refused, and succeeds.
    expect(readdirSync(path.join(target.config.dataDir, 'objects'), { recursive: true }).filter((name) => statSync(path.join(target.config.dataDir, 'objects', String(name))).isFile())).toEqual([]);
    if (!target.databaseUrl) expect(readdirSync(target.config.dataDir).filter((name) => name.startsWith('db'))).toEqual([]);
    const result = await restoreBackupFile(archive, target.config, target.storage);
    expect(result.tables).toEqual(manifest.database.tables);

    // A key that would leave the store: refused before anything is written, in one line.
    const escaping = await withManifest('escaping.tar', (m) => (m.objects[0]!.key = 'uploads/../..'));
    const other = await emptyTarget(test.database);
    const refused = restoreBackupFile(escaping, other.config, other.storage);
    await expect(refused).rejects.toBeInstanceOf(BackupError);
    await expect(refused).rejects.toThrow(/has a manifest this version cannot read$/);
  }, 120_000);

  it('takes a scheduled backup into BACKUP_DIR as a queue job and keeps the last BACKUP_KEEP', async () => {
    const backupDir = mkdtempSync(path.join(os.tmpdir(), 'hub-backups-'));
    cleanups.push(() => rmSync(backupDir, { recursive: true, force: true }));
    for (const old of ['backup-20200101T000000Z.tar', 'backup-20200102T000000Z.tar']) writeFileSync(path.join(backupDir, old), 'old');
    const test = await createTestApp({ BACKUP_DIR: backupDir, BACKUP_KEEP: '2' });
    cleanups.push(() => test.close());
    await test.app.jobs.run('operations.backup');
    const kept = readdirSync(backupDir).sort();
    expect(kept).toHaveLength(2);
    expect(kept[0]).toBe('backup-20200102T000000Z.tar');
    const manifest = await verifyBackupFile(path.join(backupDir, kept[1]!));
    expect(manifest.database.kind).toBe(test.database.kind);
  }, 60_000);

  it('says so, and leaves no file, when the server cannot finish a backup it was asked for', async () => {
    const test = await createTestApp();
    cleanups.push(() => test.close());
    const storage = new LocalObjectStorage(path.join(test.config.dataDir, 'objects'));
    const owner = await createUser(test.db);
    await storeUpload(test.db, storage, owner.id);
    // The stored file cannot be read: the server gives up midway.
    const failing: ObjectStorage = Object.assign(Object.create(storage) as ObjectStorage, {
      read: () => Promise.reject(new Error('disk failure')),
    });
    const stop = await listenForBackups({ database: test.database, storage: failing, dataDir: test.config.dataDir }, test.app.log);
    cleanups.push(stop);
    const archive = path.join(test.config.dataDir, 'backup.tar');
    await expect(requestBackup(test.config.dataDir, archive)).rejects.toThrow(/^The server could not finish the backup/);
    expect(readdirSync(test.config.dataDir).filter((name) => name.startsWith('backup.tar'))).toEqual([]);
  });

  it('refuses an archive that is damaged', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-backup-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'not-a-backup.tar');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, randomBytes(4096)));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: path.join(dir, 'data'), SESSION_SECRET: 'x'.repeat(32) });
    await expect(restoreBackupFile(file, config, new LocalObjectStorage(path.join(dir, 'data', 'objects')))).rejects.toBeInstanceOf(BackupError);
  });
  it('keeps a resumable upload whose last byte arrived but was not checked yet, and checks it after a restore', async () => {
    const test = await createTestApp();
    cleanups.push(() => test.close());
    const storage = new LocalObjectStorage(path.join(test.config.dataDir, 'objects'));
    const artist = await createArtist(test.db);
    /** A resumable upload as tus leaves it: its row `receiving` without a lease, its bytes (some or all) in the store. */
    const resumable = async (bytes: Buffer, sent: number) => {
      const id = newId();
      const key = objectKey('incoming', id);
      await test.db.insert(uploads).values({ id, userId: artist.id, status: 'receiving', uploadExpiresAt: new Date(Date.now() + 3_600_000) });
      await storage.resumable.create(new Upload({ id: key, size: bytes.length, offset: 0 }));
      await storage.resumable.write(Readable.from([bytes.subarray(0, sent)]), key, 0);
      return { id, bytes };
    };
    const video = Buffer.concat([videoHeaderBytes(), randomBytes(80_000)]);
    const whole = await resumable(video, video.length);
    const half = await resumable(randomBytes(50_000), 20_000);

    const archive = path.join(mkdtempSync(path.join(os.tmpdir(), 'hub-backup-test-')), 'backup.tar');
    cleanups.push(() => rmSync(path.dirname(archive), { recursive: true, force: true }));
    const manifest = await writeBackupFile({ database: test.database, storage, dataDir: test.config.dataDir }, archive);
    // The whole one is in the archive; the one still arriving is no file yet (and was not deleted either).
    expect(manifest.objects).toEqual([expect.objectContaining({ key: objectKey('incoming', whole.id), size: video.length, resumable: true })]);
    expect(manifest.missing).toEqual([]);
    expect(manifest.objects.some((o) => o.key.includes(half.id))).toBe(false);

    const target = await emptyTarget(test.database, { SESSION_SECRET: test.config.sessionSecret });
    await restoreBackupFile(archive, target.config, target.storage);
    const restored = await openDatabase({ databaseUrl: target.databaseUrl, pgliteDir: path.join(target.config.dataDir, 'db') });
    const app = await buildApp({ config: target.config, database: restored, client: 'none', logger: false });
    cleanups.push(async () => {
      await app.close();
      await restored.close();
    });
    await app.ready();
    // The artist's check of the upload runs after the restore as it would have before it, and serves the bytes.
    const cookie = await sessionCookie(app, restored.db, artist);
    const checked = await app.inject({
      method: 'PUT',
      url: '/api/video-files',
      headers: { cookie, origin: TEST_ORIGIN },
      payload: { videoFileURL: `/api/video-uploads/${whole.id}`, fileName: 'clip.mp4', fileSize: video.length },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    const file = await app.inject({ method: 'GET', url: checked.json<{ objectPath: string }>().objectPath, headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(video)).toBe(true);
  }, 120_000);

  it('refuses in one line, and leaves DATA_DIR as it found it, whatever stops a restore', async () => {
    const test = await createTestApp();
    cleanups.push(() => test.close());
    const storage = new LocalObjectStorage(path.join(test.config.dataDir, 'objects'));
    await storeUpload(test.db, storage, (await createUser(test.db)).id);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-backup-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const archive = path.join(dir, 'backup.tar');
    const manifest = await writeBackupFile({ database: test.database, storage, dataDir: test.config.dataDir }, archive);
    const garbage = path.join(dir, 'garbage.tar');
    writeFileSync(garbage, randomBytes(4096));
    const flip = (bytes: Buffer) => {
      const copy = Buffer.from(bytes);
      for (let i = 0; i < 200; i++) copy[Math.floor(copy.length / 2) + i]! ^= 0xff;
      return copy;
    };
    const forged = {
      // Damaged in the middle, its checksum forged to match: only unpacking it can tell.
      corruptDump: await rewriteArchive(archive, path.join(dir, 'corrupt-dump.tar'), { entries: (name, bytes) => (name.startsWith('database/') ? flip(bytes) : bytes) }),
      wrongCount: await rewriteArchive(archive, path.join(dir, 'wrong-count.tar'), { manifest: (m) => (m.database.tables['public.users']! += 1) }),
      otherKind: await rewriteArchive(archive, path.join(dir, 'other-kind.tar'), { manifest: (m) => (m.database.kind = m.database.kind === 'pglite' ? 'postgres' : 'pglite') }),
    };
    // On the embedded database also: a dump that unzips, but to no database at all.
    const notATar = manifest.database.kind === 'pglite' ? await rewriteArchive(archive, path.join(dir, 'not-a-tar.tar'), { entries: (name, bytes) => (name.startsWith('database/') ? gzipSync(randomBytes(100_000)) : bytes) }) : undefined;

    /** A fresh DATA_DIR (absent, or an empty folder) and, on PostgreSQL, a fresh database. */
    const target = async (dataDir: 'absent' | 'empty' = 'absent') => {
      const parent = mkdtempSync(path.join(os.tmpdir(), 'hub-restore-test-'));
      cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
      const dataDirPath = path.join(parent, 'data');
      if (dataDir === 'empty') mkdirSync(dataDirPath);
      const { databaseUrl } = await emptyTarget(test.database);
      return { dataDir: dataDirPath, env: { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: TEST_ORIGIN, DATA_DIR: dataDirPath, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } };
    };
    const expectRefused = async (file: string, env: Record<string, string>, message: RegExp) => {
      const refused = restoreIntoEmptyTarget(file, env);
      await expect(refused).rejects.toThrow(message);
      const error = await refused.then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error).toBeInstanceOf(BackupError);
      expect(error!.message).not.toContain('\n');
    };

    const cases: [string, string, RegExp][] = [
      ['a file that is not there', path.join(dir, 'nothing.tar'), /^Cannot read /],
      ['a file that is no archive', garbage, /damaged header at byte 0/],
      ['a damaged dump with a forged checksum', forged.corruptDump, manifest.database.kind === 'pglite' ? /^The backup's database cannot be unpacked \(.*\): nothing was restored$/ : /^pg_restore failed: /],
      ['a manifest whose counts are not the dump’s', forged.wrongCount, /^Restored public\.users has \d+ rows, the backup \d+: nothing was restored$/],
      ['a backup of the other kind of database', forged.otherKind, /^This backup is of /],
      ...(notATar ? [['a dump that is no database', notATar, /^The backup's database is damaged/] as [string, string, RegExp]] : []),
    ];
    for (const [what, file, message] of cases) {
      const absent = await target('absent');
      await expectRefused(file, absent.env, message);
      expect(pathsUnder(absent.dataDir), what).toBeNull();
      const empty = await target('empty');
      await expectRefused(file, empty.env, message);
      expect(pathsUnder(empty.dataDir), what).toEqual([]);
    }

    // A target that is not empty keeps what it held, and gains nothing.
    const filled = await target('empty');
    mkdirSync(path.join(filled.dataDir, 'objects', 'uploads'), { recursive: true });
    writeFileSync(path.join(filled.dataDir, 'objects', 'uploads', 'a-file-already-there'), 'x');
    await expectRefused(archive, filled.env, /^Refusing to restore: the file store in .* is not empty/);
    expect(pathsUnder(filled.dataDir)).toEqual(['objects', path.join('objects', 'uploads'), path.join('objects', 'uploads', 'a-file-already-there')]);
    const held = await target('empty');
    const heldEnv = test.database.kind === 'postgres' ? { ...held.env, DATABASE_URL: test.database.connectionString! } : held.env;
    if (test.database.kind === 'pglite') {
      mkdirSync(path.join(held.dataDir, 'db'));
      writeFileSync(path.join(held.dataDir, 'db', 'PG_VERSION'), '17');
    }
    const heldAsFound = pathsUnder(held.dataDir);
    await expectRefused(archive, heldEnv, /^Refusing to restore: the (embedded database in .*|database at DATABASE_URL) is not empty/);
    expect(pathsUnder(held.dataDir)).toEqual(heldAsFound);

    // The command itself prints that one line, and no stack, for the damaged dump.
    const absent = await target('absent');
    const command = spawnSync(path.resolve('node_modules/.bin/tsx'), ['src/server/restore-cli.ts', forged.corruptDump], { env: { ...process.env, ...absent.env }, encoding: 'utf8' });
    expect(command.status).toBe(1);
    expect(command.stdout).toBe('');
    expect(command.stderr.trim().split('\n')).toHaveLength(1);
    expect(pathsUnder(absent.dataDir)).toBeNull();
  }, 240_000);

  it('signs the manifest with BACKUP_KEY, and refuses what does not verify, a signed archive without the key and an unsigned one with it', async () => {
    const key = `backup-key-${randomBytes(16).toString('hex')}`;
    const test = await createTestApp({ BACKUP_KEY: key });
    cleanups.push(() => test.close());
    const storage = new LocalObjectStorage(path.join(test.config.dataDir, 'objects'));
    const { id } = await storeUpload(test.db, storage, (await createUser(test.db)).id);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hub-backup-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const signed = path.join(dir, 'signed.tar');
    await writeBackupFile({ database: test.database, storage, dataDir: test.config.dataDir, key: test.config.backupKey }, signed);
    expect(listTarNames(signed)).toContain('manifest.hmac');
    // The key itself is nowhere in the archive.
    expect((await bytesOfArchive(signed)).includes(key)).toBe(false);
    const unsigned = path.join(dir, 'unsigned.tar');
    await writeBackupFile({ database: test.database, storage, dataDir: test.config.dataDir }, unsigned);
    expect(listTarNames(unsigned)).not.toContain('manifest.hmac');

    // A file changed on disk, its checksum brought in line: every checksum matches, the signature does not.
    const changed = await rewriteArchive(signed, path.join(dir, 'changed.tar'), { entries: (name, bytes) => (name === `objects/uploads/${id}` ? randomBytes(bytes.length) : bytes) });
    await expect(verifyBackupFile(changed)).resolves.toBeTruthy();
    const refusals: [string, string, Record<string, string>, RegExp][] = [
      ['changed', changed, { BACKUP_KEY: key }, /changed.tar does not verify with BACKUP_KEY: it was changed after it was written, or taken with another key$/],
      ['another key', signed, { BACKUP_KEY: `another-key-${'x'.repeat(32)}` }, /signed.tar does not verify with BACKUP_KEY/],
      ['no key', signed, {}, /signed.tar is signed: set BACKUP_KEY to the key it was taken with to restore it$/],
      ['unsigned', unsigned, { BACKUP_KEY: key }, /unsigned.tar is not signed and BACKUP_KEY is set: restore it with --unsigned/],
    ];
    for (const [what, file, env, message] of refusals) {
      const target = await emptyTarget(test.database, env);
      const refused = restoreBackupFile(file, target.config, target.storage);
      await expect(refused, what).rejects.toBeInstanceOf(BackupError);
      await expect(refused, what).rejects.toThrow(message);
      // Refused before anything was written.
      expect(pathsUnder(path.join(target.config.dataDir, 'objects'))!.filter((name) => statSync(path.join(target.config.dataDir, 'objects', name)).isFile()), what).toEqual([]);
      expect(existsSync(path.join(target.config.dataDir, 'db')), what).toBe(false);
    }

    // With its key a signed archive restores; with the key set, an unsigned one only when asked.
    const target = await emptyTarget(test.database, { BACKUP_KEY: key });
    expect((await restoreBackupFile(signed, target.config, target.storage)).manifest.objects).toHaveLength(1);
    const other = await emptyTarget(test.database, { BACKUP_KEY: key });
    expect((await restoreBackupFile(unsigned, other.config, other.storage, { allowUnsigned: true })).manifest.objects).toHaveLength(1);
  }, 240_000);
});
