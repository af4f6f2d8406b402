import path from 'node:path';
import type { Config } from '../../config';
import { LocalObjectStorage } from './local-storage';
import type { ObjectStorage } from './object-storage';
import { s3BrowserOrigin, S3ObjectStorage } from './s3-storage';

/** S3 when S3_BUCKET is set, else files on local disk under DATA_DIR/objects (CONTRACT §1). */
export function createObjectStorage(config: Config): ObjectStorage {
  return config.s3 ? new S3ObjectStorage(config.s3) : new LocalObjectStorage(path.join(config.dataDir, 'objects'));
}

/** Origins outside this server that the browser sends file bytes to (for connect-src). */
export function storageConnectSources(config: Config): string[] {
  return config.s3 ? [s3BrowserOrigin(config.s3)] : [];
}
