import { ConfigError } from './config';
import { BackupError } from './features/operations/backup';
import { DatabaseInUseError } from './platform/db/client';

/**
 * How the operations commands (backup, restore, move-to-postgres) end: the exit code their run
 * answers, or 1 with one line for a failure they expect (bad configuration, a refused target, a
 * database held by a server) and the whole error for anything else.
 */
export function exitWhenDone(run: () => Promise<number>): void {
  run().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const known = error instanceof ConfigError || error instanceof BackupError || error instanceof DatabaseInUseError;
      console.error(known ? error.message : error);
      process.exit(1);
    },
  );
}
