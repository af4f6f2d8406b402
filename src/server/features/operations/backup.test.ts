import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { openDatabase, type Database } from '../../platform/db/client';
import { uploads, users } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { LocalObjectStorage } from '../../platform/storage/local-storage';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { withDatabase } from '../../test/global-setup';
import { createTestApp, createUser, type TestApp } from '../../test/helpers';
import { BackupError, restoreBackupFile, verifyBackupFile, writeBackupFile } from './backup';
import { listenForBackups, requestBackup } from './backup-socket';

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
});
