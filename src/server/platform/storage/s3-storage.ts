import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import type { Config } from '../../config';
import { assertValidKey, ByteLimit, ObjectNotFoundError, ObjectTooLargeError, type ObjectStorage } from './object-storage';

export type S3Options = NonNullable<Config['s3']>;

/**
 * An S3-compatible store (AWS SDK v3). Browsers PUT to presigned URLs and GET from presigned
 * URLs, so file bytes never pass through this server in production; `put`/`read` stream, with
 * multipart upload for bodies of unknown length.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      // Checksums only where S3 demands them: a presigned URL must not require the browser to
      // send a checksum header it cannot compute, and not every S3-compatible store knows CRC32.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async presignPut(key: string, expiresInSeconds: number): Promise<string> {
    assertValidKey(key);
    // A presigned PUT cannot carry a size range (only a presigned POST policy can); the size is
    // checked with HeadObject when the upload is normalised, and oversized objects are removed.
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  async presignGet(key: string, options: { contentType: string; expiresInSeconds: number }): Promise<string> {
    assertValidKey(key);
    return getSignedUrl(
      this.client,
      new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentType: options.contentType }),
      { expiresIn: options.expiresInSeconds },
    );
  }

  async put(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
    assertValidKey(key);
    const limit = new ByteLimit(maxBytes);
    body.on('error', (error) => limit.destroy(error));
    body.pipe(limit);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: limit },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
    });
    try {
      await upload.done();
      return { size: limit.bytes };
    } catch (error) {
      await upload.abort().catch(() => {});
      await this.delete([key]).catch(() => {});
      if (limit.bytes > maxBytes) throw new ObjectTooLargeError(maxBytes);
      throw error;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    assertValidKey(key);
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: result.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertValidKey(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return result.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async move(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertValidKey(to);
    try {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from}` }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(from);
      throw error;
    }
    await this.delete([from]);
  }

  async delete(keys: string[]): Promise<void> {
    keys.forEach(assertValidKey);
    // One request per key: DeleteObjects needs a Content-MD5 that some S3-compatible stores
    // insist on and others reject; a submission has at most a few dozen files.
    await Promise.all(keys.map((key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))));
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** The origin browsers PUT presigned uploads to, for the Content-Security-Policy's connect-src. */
export function s3BrowserOrigin(options: S3Options): string {
  if (!options.endpoint) return `https://${options.bucket}.s3.${options.region}.amazonaws.com`;
  const endpoint = new URL(options.endpoint);
  return options.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${options.bucket}.${endpoint.host}`;
}
