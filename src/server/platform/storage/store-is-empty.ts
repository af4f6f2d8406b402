import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config';
import { s3ClientConfig } from './s3-storage';

/**
 * Whether the configured object store holds no object at all: a restore or a move fills only an
 * empty store, so it never mixes a backup's files with others (CONTRACT §20).
 */
export async function isObjectStoreEmpty(config: Config): Promise<boolean> {
  if (config.s3) {
    const client = new S3Client(s3ClientConfig(config.s3));
    try {
      // One page of the default size rather than MaxKeys 1: some S3-compatible servers (s3rver)
      // fail a listing that has to be cut short, and a page costs one request either way.
      const listed = await client.send(new ListObjectsV2Command({ Bucket: config.s3.bucket }));
      return (listed.KeyCount ?? listed.Contents?.length ?? 0) === 0;
    } finally {
      client.destroy();
    }
  }
  return !(await holdsAFile(path.join(config.dataDir, 'objects')));
}

async function holdsAFile(dir: string): Promise<boolean> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) return true;
    if (await holdsAFile(path.join(dir, entry.name))) return true;
  }
  return false;
}
