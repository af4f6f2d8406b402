import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { writeBackupFile, type BackupSources } from './backup';

const NAME = /^backup-\d{8}T\d{6}Z\.tar$/;

/** `backup-20261125T031700Z.tar`: names that sort by time. */
const backupName = (at: Date) => `backup-${at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z')}.tar`;

/**
 * With BACKUP_DIR set, a backup is a cron job on the queue (CONTRACT §20, declared by
 * operations-jobs.ts): one instance takes it at each scheduled time, however many run, and the
 * oldest archives beyond BACKUP_KEEP go.
 */
export async function runScheduledBackup(sources: BackupSources, backup: NonNullable<Config['backup']>, log: FastifyBaseLogger): Promise<void> {
  await mkdir(backup.dir, { recursive: true });
  const file = path.join(backup.dir, backupName(new Date()));
  const manifest = await writeBackupFile(sources, file);
  log.info({ file, objects: manifest.objects.length }, 'scheduled backup written');
  const archives = (await readdir(backup.dir)).filter((name) => NAME.test(name)).sort();
  for (const old of archives.slice(0, Math.max(0, archives.length - backup.keep))) await rm(path.join(backup.dir, old), { force: true });
}
