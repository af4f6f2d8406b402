import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { BackupError } from './features/operations/backup';
import { moveDatabase, moveObjects } from './features/operations/move-to-postgres';
import { openDatabase } from './platform/db/client';
import { exitWhenDone } from './operations-cli-exit';
import { createObjectStorage } from './platform/storage/create-storage';
import { LocalObjectStorage } from './platform/storage/local-storage';

/**
 * `npm run move-to-postgres -- --to postgres://… [--objects]` (CONTRACT §20): for a label that
 * outgrows one machine. Run with the server stopped (a write after the copy would stay behind).
 */
const USAGE = 'Usage: npm run move-to-postgres -- --to postgres://user:password@host/database [--objects]';

async function run(): Promise<number> {
  const { values } = parseArgs({ options: { to: { type: 'string' }, objects: { type: 'boolean', default: false } } });
  if (!values.to || !/^postgres(ql)?:\/\//.test(values.to)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  if (config.databaseUrl) throw new BackupError('DATABASE_URL is set: the move reads the embedded database in DATA_DIR, so unset it');
  const started = performance.now();
  const source = await openDatabase({ pgliteDir: path.join(config.dataDir, 'db') });
  try {
    const tables = await moveDatabase(source, values.to);
    const rows = Object.values(tables).reduce((sum, n) => sum + n, 0);
    console.log(`Moved ${rows} rows in ${Object.keys(tables).length} tables; every count and checksum matches`);
    if (values.objects) {
      const moved = await moveObjects(source, new LocalObjectStorage(path.join(config.dataDir, 'objects')), createObjectStorage(config), config);
      console.log(`Copied ${moved.objects} files (${moved.bytes} bytes) to the bucket ${config.s3!.bucket}; every checksum matches`);
    }
  } finally {
    await source.close();
  }
  console.log(
    `Done in ${((performance.now() - started) / 1000).toFixed(1)} s. Start the server with DATABASE_URL set to that database${values.objects ? ' and the same S3_* variables' : ''}.`,
  );
  return 0;
}

exitWhenDone(run);
