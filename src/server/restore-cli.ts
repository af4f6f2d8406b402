import path from 'node:path';
import { loadConfig } from './config';
import { restoreBackupFile } from './features/operations/backup';
import { exitWhenDone } from './operations-cli-exit';
import { createObjectStorage } from './platform/storage/create-storage';

/**
 * `npm run restore -- FILE`: fills an empty DATA_DIR (or the empty database at DATABASE_URL) and
 * the configured object store from a backup (CONTRACT §20); any other target is refused.
 */
const USAGE = 'Usage: npm run restore -- FILE';

async function run(): Promise<number> {
  const [file, ...rest] = process.argv.slice(2);
  if (!file || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const started = performance.now();
  const { manifest, tables, channelOpens } = await restoreBackupFile(path.resolve(file), config, createObjectStorage(config));
  const rows = Object.values(tables).reduce((sum, n) => sum + n, 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Restored ${rows} rows in ${Object.keys(tables).length} tables and ${manifest.objects.length} files from ${file} (taken ${manifest.createdAt}), in ${seconds} s; every count and checksum matches`,
  );
  // The archive holds no secret (CONTRACT §23): what was signed or sealed with one works again
  // only where the secret is the backed-up server's.
  console.log(
    'Sessions are kept by the hash of their id and cookies are signed with SESSION_SECRET: on a server with another secret, everyone signs in again.',
  );
  if (channelOpens === false) {
    console.log("The label's channel does not open with this server's key (TOKEN_ENCRYPTION_KEY, or SESSION_SECRET when unset): connect it again at /admin/channel.");
  }
  return 0;
}

exitWhenDone(run);
