import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { writeBackupFile, type BackupManifest } from './features/operations/backup';
import { requestBackup } from './features/operations/backup-socket';
import { DatabaseInUseError, openDatabase } from './platform/db/client';
import { exitWhenDone } from './operations-cli-exit';
import { createObjectStorage } from './platform/storage/create-storage';

/**
 * `npm run backup -- --out FILE`: one archive of the database, the stored files and a manifest
 * (CONTRACT §20), taken while the server runs. On PostgreSQL this process takes it (pg_dump);
 * on the embedded database a running server owns the data, so the server takes it and sends it.
 */
const USAGE = 'Usage: npm run backup -- --out FILE';

async function run(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: false });
  if (!values.out) {
    console.error(USAGE);
    return 2;
  }
  const file = path.resolve(values.out);
  const config = loadConfig();
  const started = performance.now();
  let manifest: BackupManifest;
  let database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
  }
  if (database) {
    try {
      manifest = await writeBackupFile({ database, storage: createObjectStorage(config), dataDir: config.dataDir, key: config.backupKey }, file);
    } finally {
      await database.close();
    }
  } else {
    manifest = await requestBackup(config.dataDir, file);
  }
  const rows = Object.values(manifest.database.tables).reduce((sum, n) => sum + n, 0);
  const bytes = manifest.objects.reduce((sum, object) => sum + object.size, 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Backup written to ${file}: ${rows} rows in ${Object.keys(manifest.database.tables).length} tables, ${manifest.objects.length} files (${bytes} bytes), in ${seconds} s`,
  );
  if (manifest.missing.length > 0) console.log(`${manifest.missing.length} files were deleted after the snapshot and are not in it`);
  return 0;
}

exitWhenDone(run);
