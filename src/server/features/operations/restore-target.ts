import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { dataDirOf, loadConfig } from '../../config';
import { createObjectStorage } from '../../platform/storage/create-storage';
import { restoreBackupFile, type RestoreResult } from './backup';

/**
 * A restore that is refused or fails leaves DATA_DIR as it found it (CONTRACT §23), not only its
 * database: loading the configuration writes the development session secret there, opening the
 * file store makes `objects/` and its folders, the embedded database is staged in `db.restoring/`.
 * So the paths DATA_DIR held are noted before any of that, and whatever was not among them is
 * removed again. Inside `db` nothing is noted: a restore writes there only by replacing an empty
 * one, after everything succeeded.
 */
export interface DataDirAsFound {
  dir: string;
  existed: boolean;
  paths: Set<string>;
}

const NOT_WALKED = new Set(['db']);

async function listPaths(dir: string, into: Set<string>, relative = ''): Promise<void> {
  let entries;
  try {
    entries = await readdir(path.join(dir, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const name = path.join(relative, entry.name);
    into.add(name);
    if (entry.isDirectory() && !(relative === '' && NOT_WALKED.has(entry.name))) await listPaths(dir, into, name);
  }
}

export async function noteDataDir(dir: string): Promise<DataDirAsFound> {
  const existed = await lstat(dir).then(
    () => true,
    () => false,
  );
  const paths = new Set<string>();
  if (existed) await listPaths(dir, paths);
  return { dir, existed, paths };
}

/** Removes what was added to DATA_DIR since it was noted; DATA_DIR itself when it was not there. */
export async function returnDataDir(found: DataDirAsFound): Promise<void> {
  if (!found.existed) {
    await rm(found.dir, { recursive: true, force: true });
    return;
  }
  const now = new Set<string>();
  await listPaths(found.dir, now);
  // Parents before children: a folder that was not there goes with everything in it.
  for (const name of [...now].sort()) {
    if (found.paths.has(name)) continue;
    const parent = path.dirname(name);
    if (parent !== '.' && !found.paths.has(parent)) continue;
    await rm(path.join(found.dir, name), { recursive: true, force: true });
  }
}

/**
 * `npm run restore`: the configuration and the file store of the environment, the restore, and
 * on any refusal or failure DATA_DIR as it was found.
 */
export async function restoreIntoEmptyTarget(file: string, env: NodeJS.ProcessEnv, options: { allowUnsigned?: boolean } = {}): Promise<RestoreResult> {
  const found = await noteDataDir(dataDirOf(env));
  try {
    const config = loadConfig(env);
    return await restoreBackupFile(file, config, createObjectStorage(config), options);
  } catch (error) {
    await returnDataDir(found);
    throw error;
  }
}
