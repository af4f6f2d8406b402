import path from 'node:path';
import type { Config } from '../../config';
import { LocalObjectStorage } from './local-storage';
import type { ObjectStorage } from './object-storage';
import { S3ObjectStorage } from './s3-storage';

/**
 * The one place that picks the driver (CONTRACT §1): S3 when S3_BUCKET is set, else files on
 * local disk under DATA_DIR/objects. Everything else talks to the ObjectStorage interface.
 */
export function createObjectStorage(config: Config): ObjectStorage {
  return config.s3 ? new S3ObjectStorage(config.s3) : new LocalObjectStorage(path.join(config.dataDir, 'objects'));
}
