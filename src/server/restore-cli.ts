import path from 'node:path';
import { parseArgs } from 'node:util';
import { restoreIntoEmptyTarget } from './features/operations/restore-target';
import { exitWhenDone } from './operations-cli-exit';

/**
 * `npm run restore -- FILE`: fills an empty DATA_DIR (or the empty database at DATABASE_URL) and
 * the configured object store from a backup (CONTRACT §20); any other target is refused, and a
 * refused or failed restore leaves DATA_DIR as it found it. With BACKUP_KEY set, an archive
 * without a signature is restored only with `--unsigned` (decision 191).
 */
const USAGE = 'Usage: npm run restore -- FILE [--unsigned]';

async function run(): Promise<number> {
  let file: string | undefined;
  let allowUnsigned = false;
  try {
    const { values, positionals } = parseArgs({ options: { unsigned: { type: 'boolean' } }, allowPositionals: true });
    if (positionals.length !== 1) throw new Error(USAGE);
    file = positionals[0]!;
    allowUnsigned = values.unsigned ?? false;
  } catch {
    console.error(USAGE);
    return 2;
  }
  const started = performance.now();
  const { manifest, tables, channelOpens } = await restoreIntoEmptyTarget(path.resolve(file), process.env, { allowUnsigned });
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
    console.log(
      "The label's channel does not open with this server's key (TOKEN_ENCRYPTION_KEY, or SESSION_SECRET when unset): it reads as not connected until it is connected again at /admin/channel.",
    );
  }
  return 0;
}

exitWhenDone(run);
