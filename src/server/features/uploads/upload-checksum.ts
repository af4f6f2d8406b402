import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { apiError } from '../../platform/errors';

/** The algorithms tus's checksum extension may name here, as `Tus-Checksum-Algorithm` lists them. */
export const TUS_CHECKSUM_ALGORITHMS = ['sha1', 'sha256', 'md5'] as const;
type ChecksumAlgorithm = (typeof TUS_CHECKSUM_ALGORITHMS)[number];

export interface UploadChecksum {
  algorithm: ChecksumAlgorithm;
  digest: Buffer;
}

/**
 * `Upload-Checksum: <algorithm> <base64 digest>` (tus checksum extension); undefined when absent.
 * An algorithm this server does not list is a 400, as the protocol says.
 */
export function readUploadChecksum(value: string | undefined): UploadChecksum | undefined {
  if (value === undefined) return undefined;
  const match = /^([a-z0-9-]+) ([A-Za-z0-9+/]+={0,2})$/.exec(value.trim());
  const algorithm = match?.[1] as ChecksumAlgorithm | undefined;
  if (!match || !algorithm || !TUS_CHECKSUM_ALGORITHMS.includes(algorithm)) {
    throw apiError('invalid_upload_header', `Upload-Checksum must be one of ${TUS_CHECKSUM_ALGORITHMS.join(', ')} and a base64 digest`);
  }
  return { algorithm, digest: Buffer.from(match[2]!, 'base64') };
}

/** A chunk that matched its checksum, held on disk until tus has written it. */
export interface HeldChunk {
  body: Readable;
  release(): Promise<void>;
}

/**
 * Holds the request's bytes in a temporary file while hashing them, so that a chunk whose
 * checksum does not match never reaches the upload: 460 and the offset unchanged. Stores
 * cannot take bytes back (S3 parts, appended files), so checking before writing is the only way
 * to discard; the cost is one more write and read of the chunk, only when the client asks.
 */
export async function holdCheckedChunk(body: Readable, checksum: UploadChecksum): Promise<HeldChunk> {
  const path = join(tmpdir(), `tus-chunk-${randomUUID()}`);
  const release = () => rm(path, { force: true });
  const hash = createHash(checksum.algorithm);
  body.on('data', (chunk: Buffer) => hash.update(chunk));
  try {
    await pipeline(body, createWriteStream(path));
  } catch {
    // The client went away mid-chunk: what arrived is not the chunk it summed.
    await release();
    throw apiError('upload_checksum_mismatch');
  }
  if (!hash.digest().equals(checksum.digest)) {
    await release();
    throw apiError('upload_checksum_mismatch');
  }
  return { body: createReadStream(path), release };
}
