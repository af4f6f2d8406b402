import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Options } from '../platform/storage/s3-storage';

export interface TestS3Server {
  options: S3Options;
  /** The S3_* environment that points an app at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A local S3-compatible server (s3rver) on a free port with one empty bucket, for tests. */
export async function startS3Server(bucket = 'test-uploads'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'hub-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  server.middleware.unshift(multipartListingAndAbort(path.join(directory, bucket)));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const options: S3Options = {
    bucket,
    region: 'us-east-1',
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  return {
    options,
    env: {
      S3_BUCKET: bucket,
      S3_REGION: options.region,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver stores multipart uploads but does not answer ListParts or AbortMultipartUpload, both of
 * which resumable uploads (@tus/s3-store) use. This answers them from s3rver's own part files
 * (`<bucket>/._S3rver_uploads/<uploadId>/<partNumber>` and `.md5`), as S3 does.
 */
function multipartListingAndAbort(bucketDir: string) {
  const noSuchUpload =
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
  return async (ctx: { method: string; url: string; status: number; type: string; body: unknown }, next: () => Promise<void>) => {
    const url = new URL(ctx.url, 'http://s3.invalid');
    const uploadId = url.searchParams.get('uploadId');
    if (!uploadId || !['GET', 'DELETE'].includes(ctx.method)) return next();
    const dir = path.join(bucketDir, '._S3rver_uploads', uploadId);
    if (!/^[0-9a-f]+$/.test(uploadId) || !existsSync(dir)) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = noSuchUpload;
      return;
    }
    if (ctx.method === 'DELETE') {
      rmSync(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const parts = readdirSync(dir)
      .filter((name) => /^\d+$/.test(name) && existsSync(path.join(dir, `${name}.md5`)))
      .map(Number)
      .sort((a, b) => a - b)
      .map(
        (n) =>
          `<Part><PartNumber>${n}</PartNumber><ETag>"${readFileSync(path.join(dir, `${n}.md5`), 'utf8')}"</ETag>` +
          `<Size>${statSync(path.join(dir, String(n))).size}</Size></Part>`,
      );
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><UploadId>${uploadId}</UploadId>` +
      `<IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
}
