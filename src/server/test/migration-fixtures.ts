import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../platform/db/client';

/**
 * An embedded database migrated up to just before the migration `tag`, as an install that has not
 * run it yet: a migration's test fills it with rows of that time, then `migrateRest()` runs `tag`
 * and those after it. `close()` ends the database and removes its copy of the migrations folder.
 */
export async function databaseBefore(tag: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `migration-${tag.slice(0, 4)}-`));
  const folder = path.join(dir, 'before');
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag} in the journal`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  const client = await PGlite.create({ extensions: { pg_trgm } });
  const db = drizzle(client);
  await migrate(db, { migrationsFolder: folder });
  return {
    client,
    migrateRest: () => migrate(db, { migrationsFolder }),
    async close() {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
