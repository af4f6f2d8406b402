import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { chmod, rename, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import { BackupError, verifyBackupFile, writeBackup, type BackupManifest, type BackupSources } from './backup';

/**
 * How `npm run backup` reaches an embedded database a running server holds (decision 053 lets
 * only one process open it; docs/decisions/150-backups.md): the server listens on a Unix socket
 * in DATA_DIR, readable by DATA_DIR's owner alone, and answers each connection with a whole
 * archive. Whoever can open that socket can already read DATA_DIR itself, so it grants nothing new.
 */
const backupSocketPath = (dataDir: string) => path.join(dataDir, 'backup.sock');

/** Starts answering backup requests; the returned function stops. One backup runs at a time. */
export async function listenForBackups(sources: BackupSources, log: FastifyBaseLogger): Promise<() => Promise<void>> {
  const socketPath = backupSocketPath(sources.dataDir);
  // Left by a server that was killed: this process owns DATA_DIR now (the database lock says so).
  await rm(socketPath, { force: true });
  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    queue = queue.then(() =>
      writeBackup(sources, socket).then(
        (manifest) => log.info({ objects: manifest.objects.length }, 'backup sent'),
        (error: unknown) => {
          log.error({ err: error }, 'backup failed');
          socket.destroy();
        },
      ),
    );
  });
  server.listen(socketPath);
  await once(server, 'listening');
  await chmod(socketPath, 0o600);
  return async () => {
    await new Promise((resolve) => server.close(resolve));
    await queue;
    await rm(socketPath, { force: true });
  };
}

/** Asks the server holding `dataDir` for a backup and writes it to `file`. */
export async function requestBackup(dataDir: string, file: string): Promise<BackupManifest> {
  const socketPath = backupSocketPath(dataDir);
  const partial = `${file}.partial`;
  const socket = net.createConnection(socketPath);
  try {
    await once(socket, 'connect');
  } catch {
    throw new BackupError(`The server holding ${dataDir} does not answer on ${socketPath}: restart it with this version, or stop it and back up again`);
  }
  try {
    // A server that fails midway drops the connection: the archive is then cut short (no manifest).
    const failed = () => {
      throw new BackupError('The server could not finish the backup (its log says why)');
    };
    await pipeline(socket, createWriteStream(partial, { mode: 0o600 })).catch(failed);
    const manifest = await verifyBackupFile(partial).catch(failed);
    await rename(partial, file);
    return manifest;
  } finally {
    await rm(partial, { force: true });
  }
}
