import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../platform/db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { pruneRateLimitCounters } from '../../platform/rate-limits';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { runScheduledBackup } from './scheduled-backup';

interface OperationsJobDeps {
  database: Database;
  config: Config;
  storage: ObjectStorage;
  /** The sessions of platform/sessions.ts (app.sessions): expired ones are pruned. */
  sessions: { pruneExpired(): Promise<number> };
  log: FastifyBaseLogger;
}

/** The operations feature's jobs, declared here like every job (decision 200): the house's clean-up and the scheduled backup. */
export function declareOperationsJobs(jobs: JobQueue, { database, config, storage, sessions, log }: OperationsJobDeps): void {
  // Clean-up: each an idempotent DELETE, run by one instance every quarter of an hour.
  jobs.every('maintenance.prune-sessions', '*/15 * * * *', () => sessions.pruneExpired());
  jobs.every('maintenance.prune-rate-limit-counters', '*/15 * * * *', () => pruneRateLimitCounters(database.db));
  // With BACKUP_DIR set, a backup at each BACKUP_CRON time, on one instance (CONTRACT §20). A large
  // store takes a while; a backup still running is not a dead worker.
  const { backup } = config;
  if (backup) {
    const sources = { database, storage, dataDir: config.dataDir, key: config.backupKey };
    jobs.every('operations.backup', backup.cron, () => runScheduledBackup(sources, backup, log), { expireInS: 6 * 3600 });
  }
}
