import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { ensureAdminAccount } from './features/auth/accounts';
import { listenForBackups } from './features/operations/backup-socket';
import { DatabaseInUseError, openDatabase } from './platform/db/client';
import { createObjectStorage } from './platform/storage/create-storage';

/** Reads the configuration, migrates, listens, and shuts down cleanly on SIGINT/SIGTERM. */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'db'),
  });
  const dev = process.argv.includes('--dev');
  const storage = createObjectStorage(config);
  const app = await buildApp({ config, database, storage, client: dev ? 'vite' : 'dist' });

  if (config.admin) {
    const admin = await ensureAdminAccount(database.db, config.admin);
    if (admin) app.log.info({ email: admin.email }, 'admin account ready');
    else {
      app.log.warn(
        { email: config.admin.email },
        'ADMIN_EMAIL belongs to an account whose address is not verified, so it was not made an admin: verify the address (a password reset link sent to it does) and restart, or use npm run admin',
      );
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // The embedded database is this process's alone: `npm run backup` asks it for the archive.
  if (database.kind === 'pglite') {
    const stopBackups = await listenForBackups({ database, storage, dataDir: config.dataDir, key: config.backupKey }, app.log);
    app.addHook('onClose', stopBackups);
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl.toString(), database: database.kind, storage: storage.driver },
    'submission hub ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
