import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, ByteLimit, ObjectNotFoundError, type ObjectStorage } from './object-storage';

/**
 * Files on local disk under `root` (DATA_DIR/objects). Writes go to `root/tmp` first and are
 * renamed into place, so a reader never sees half a file and a failed upload leaves nothing behind.
 */
export class LocalObjectStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  private readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
  }

  /** The file of a key; the key's shape (checked here) keeps it inside `root`. */
  pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, key);
  }

  async presignPut(_key: string, _expiresInSeconds: number): Promise<undefined> {
    return undefined;
  }

  async presignGet(_key: string, _options: { contentType: string; expiresInSeconds: number }): Promise<undefined> {
    return undefined;
  }

  async put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await mkdir(this.tmpDir, { recursive: true });
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(this.tmpDir, randomUUID());
    const limit = new ByteLimit(maxBytes);
    try {
      await pipeline(body, limit, createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
      await rename(tmp, target);
      return { size: limit.bytes };
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(this.pathOf(from), target);
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(from);
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }
}

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';
