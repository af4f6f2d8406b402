import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder, openDatabase } from '../platform/db/client';

/**
 * The migrated embedded database that the test suites start from, one per schema version: the
 * unit tests copy it for each file (src/server/test/global-setup.ts), the browser journeys for each
 * server they start (tests/e2e/prepare-data-dir.ts). Creating a PGlite database and migrating it
 * costs seconds of CPU; copying a directory does not.
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const templateDir = path.resolve('node_modules/.cache/hub-tests', `pglite-${migrationsVersion()}`);
  if (!existsSync(path.join(templateDir, 'PG_VERSION'))) {
    const building = `${templateDir}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(path.dirname(building), { recursive: true });
    const database = await openDatabase({ pgliteDir: building });
    await database.close();
    rmSync(templateDir, { recursive: true, force: true });
    renameSync(building, templateDir);
  }
  return templateDir;
}

/** The schema's version: a hash of the migrations' files. */
export function migrationsVersion(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsFolder, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(full));
  }
  return hash.digest('hex').slice(0, 12);
}
