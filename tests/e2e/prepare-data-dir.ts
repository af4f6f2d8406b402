import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensurePgliteTemplate } from '../../src/server/test/pglite-template';

/**
 * Run before the browser journeys' shared server starts (the webServer command in
 * playwright.config.ts): makes the migrated embedded database if this schema version has none
 * yet (the unit tests' template, src/server/test/pglite-template.ts), and copies it into each
 * directory named on the command line. The shared server starts on one copy, and each spec's own
 * server copies another (own-server.ts): a server then opens a migrated
 * database instead of creating and migrating one, about 4 s of CPU less for each of the dozen
 * servers the journeys start (measured on 2 cores).
 */
const template = await ensurePgliteTemplate();
for (const target of process.argv.slice(2)) {
  rmSync(target, { recursive: true, force: true });
  cpSync(template, path.resolve(target), { recursive: true });
}
