import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { setRole } from './features/auth/accounts';
import { DatabaseInUseError, openDatabase } from './platform/db/client';
import { announceUserChanged } from './platform/sessions';
import { HttpError } from './platform/errors';

/** `npm run admin -- promote <email>` / `demote <email>`: change a user's role. */
const USAGE = 'Usage: npm run admin -- promote <email> | demote <email>';

async function run() {
  const [command, email] = process.argv.slice(2);
  if ((command !== 'promote' && command !== 'demote') || !email) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  // On the embedded database, refused while a server holds it (its change would be lost).
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  try {
    const user = await setRole(database.db, email, command === 'promote' ? 'admin' : 'user');
    // Running servers on the same PostgreSQL apply the new role to open sessions at once.
    await announceUserChanged(database.db, user.id);
    console.log(`${user.email} is now ${user.role === 'admin' ? 'an admin' : 'an artist (role user)'}`);
    return 0;
  } catch (error) {
    if (error instanceof HttpError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof DatabaseInUseError ? error.message : error);
    process.exit(1);
  },
);
