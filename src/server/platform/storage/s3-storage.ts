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
import { S3Store } from '@tus/s3-store';
import type { Config } from '../../config';
import {
  assertValidKey,
  ByteLimit,
  dispositionOf,
  ObjectNotFoundError,
  ObjectTooLargeError,
  type ObjectStorage,
  type Served,
  type ServeOptions,
} from './object-storage';

export type S3Options = NonNullable<Config['s3']>;

/** Size of the parts a resumable upload is sent to S3 in (S3's minimum is 5 MiB). */
const RESUMABLE_PART_BYTES = 8 * 1024 * 1024;

/**
 * An S3-compatible store (AWS SDK v3). Browsers PUT to presigned URLs and GET from presigned
 * URLs, so the bytes of ordinary uploads never pass through this server; `receive`/`read`
 * stream, with multipart upload for bodies of unknown length. Resumable uploads go through
 * this server into an S3 multipart upload (@tus/s3-store), so every instance can continue one.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly driver = 's3' as const;
  readonly browserOrigins: string[];
  readonly resumable: S3Store;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.browserOrigins = [s3BrowserOrigin(options)];
    const clientConfig = s3ClientConfig(options);
    this.client = new S3Client(clientConfig);
    this.resumable = new S3Store({
      partSize: RESUMABLE_PART_BYTES,
      s3ClientConfig: { ...clientConfig, bucket: options.bucket },
    });
  }

  async presignUpload(key: string, expiresInSeconds: number): Promise<string> {
    assertValidKey(key);
    // A presigned PUT cannot carry a size range (only a presigned POST policy can); the size is
    // checked with HeadObject when the upload is normalised, and oversized objects are removed.
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInSeconds,
    });
  }

  /** The browser fetches the bytes from the store itself, which answers Range and ETag. */
  async serve(key: string, _request: unknown, options: ServeOptions): Promise<Served> {
    assertValidKey(key);
    const redirect = await getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentType: options.contentType,
        // Another origin than the product's, and the store sets no CSP: it is named an attachment there too.
        ResponseContentDisposition: options.contentDisposition ?? dispositionOf(options.contentType),
      }),
      { expiresIn: options.expiresInSeconds },
    );
    return { redirect };
  }

  async receive(key: string, body: Readable, maxBytes: number): Promise<{ size: number }> {
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

  async check(key: string): Promise<{ size: number } | null> {
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
    // An unfinished resumable upload: abort its multipart upload (the store keeps its parts
    // otherwise). There is none for most keys, which is not an error.
    await Promise.all(keys.map((key) => this.resumable.remove(key).catch(() => {})));
    // One request per object: DeleteObjects needs a Content-MD5 that some S3-compatible stores
    // insist on and others reject; a submission has at most a few dozen files. `.info` and
    // `.part` are what @tus/s3-store keeps beside a resumable upload.
    const objects = keys.flatMap((key) => [key, `${key}.info`, `${key}.part`]);
    await Promise.all(objects.map((key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))));
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** The origin browsers PUT presigned uploads to, for the Content-Security-Policy's connect-src. */
function s3BrowserOrigin(options: S3Options): string {
  if (!options.endpoint) return `https://${options.bucket}.s3.${options.region}.amazonaws.com`;
  const endpoint = new URL(options.endpoint);
  return options.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${options.bucket}.${endpoint.host}`;
}

/** How every S3 client of the app reaches the store (the driver, and the backup's check that a bucket is empty). */
export function s3ClientConfig(options: S3Options) {
  return {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Checksums only where S3 demands them: a presigned URL must not require the browser to
    // send a checksum header it cannot compute, and not every S3-compatible store knows CRC32.
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
  };
}
