import send from '@fastify/send';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import {
  artworkFileSchema,
  characterFilesSchema,
  musicFileSchema,
  referenceFilesSchema,
  urlMetadataSchema,
} from '@shared/submission-schemas';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { HttpError, notFound, parseInput } from '../../platform/errors';
import { requireUser, userOf } from '../../platform/sessions';
import { LocalObjectStorage } from '../../platform/storage/local-storage';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import type { FileKind } from './file-types';
import { fetchUrlMetadata } from './url-metadata';
import {
  findDownloadableUpload,
  issueUploadUrl,
  normaliseUpload,
  receiveUpload,
  UPLOAD_MESSAGES,
} from './uploads';

interface UploadRoutesOptions {
  db: Db;
  config: Config;
  storage: ObjectStorage;
}

/** How long a presigned S3 download link handed out by GET /objects/uploads/{id} lives. */
const DOWNLOAD_URL_TTL_S = 5 * 60;

export async function uploadRoutes(app: FastifyInstance, { db, config, storage }: UploadRoutesOptions) {
  const signedIn = { preHandler: requireUser };

  app.post(
    '/api/objects/upload',
    { ...signedIn, config: { rateLimit: { max: 600, timeWindow: '1 hour' } } },
    async (request) => {
      const uploadURL = await issueUploadUrl(db, storage, {
        userId: userOf(request).id,
        publicUrl: config.publicUrl,
        secret: config.sessionSecret,
      });
      return { uploadURL };
    },
  );

  if (storage instanceof LocalObjectStorage) {
    await app.register(async (raw) => {
      // The file's bytes arrive as the raw body, whatever its Content-Type: hand the stream
      // through untouched (only in this plugin) so it is written as it arrives.
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      raw.put<{ Params: { id: string }; Querystring: { token?: string } }>(
        '/api/uploads/:id',
        signedIn,
        async (request) => {
          const length = request.headers['content-length'];
          const { size } = await receiveUpload(db, storage, {
            id: request.params.id,
            token: typeof request.query.token === 'string' ? request.query.token : '',
            user: userOf(request),
            secret: config.sessionSecret,
            body: (request.body as Readable | undefined) ?? request.raw,
            declaredLength: length === undefined ? undefined : Number(length),
          });
          return { size };
        },
      );
    });
  }

  const normalise = (user: Parameters<typeof normaliseUpload>[2]['user'], kind: FileKind, url: string, fileName?: string) =>
    normaliseUpload(db, storage, { user, kind, url, fileName });

  /** Several files at once: the first failing one answers, with its position in the list. */
  async function normaliseAll(user: Parameters<typeof normalise>[0], urls: string[], field: string) {
    const objectPaths: string[] = [];
    for (const [index, url] of urls.entries()) {
      try {
        objectPaths.push(await normalise(user, 'image', url));
      } catch (error) {
        if (error instanceof HttpError) {
          throw new HttpError(error.statusCode, error.message, [{ path: `${field}.${index}`, message: error.message }]);
        }
        throw error;
      }
    }
    return { objectPaths };
  }

  app.put('/api/music-files', signedIn, async (request) => {
    const input = parseInput(musicFileSchema, request.body);
    return { objectPath: await normalise(userOf(request), 'music', input.musicFileURL, input.fileName) };
  });

  app.put('/api/artwork-files', signedIn, async (request) => {
    const input = parseInput(artworkFileSchema, request.body);
    return { objectPath: await normalise(userOf(request), 'image', input.artworkFileURL, input.fileName) };
  });

  app.put('/api/reference-files', signedIn, async (request) => {
    const input = parseInput(referenceFilesSchema, request.body);
    return normaliseAll(userOf(request), input.referenceFileURLs, 'referenceFileURLs');
  });

  app.put('/api/character-files', signedIn, async (request) => {
    const input = parseInput(characterFilesSchema, request.body);
    return normaliseAll(userOf(request), input.characterFileURLs, 'characterFileURLs');
  });

  app.get<{ Params: { id: string } }>('/objects/uploads/:id', signedIn, async (request, reply) => {
    const upload = await findDownloadableUpload(db, userOf(request), request.params.id);
    const key = objectKey('uploads', upload.id);
    const contentType = upload.contentType!;

    // S3: the browser fetches the bytes from the store itself, which answers Range and ETag.
    const presigned = await storage.presignGet(key, { contentType, expiresInSeconds: DOWNLOAD_URL_TTL_S });
    if (presigned) {
      reply.header('cache-control', 'private, no-store');
      return reply.redirect(presigned, 302);
    }

    // Local disk: @fastify/send answers Range (206/416), ETag and If-None-Match (304). The key
    // is `uploads/<checked id>`, and send refuses anything outside its root in any case.
    const local = storage as LocalObjectStorage;
    const result = await send(request.raw, `/${key}`, {
      root: local.root,
      etag: true,
      lastModified: true,
      cacheControl: false,
      dotfiles: 'deny',
      index: false,
    });
    if (result.type === 'error') throw notFound(UPLOAD_MESSAGES.fileNotFound);
    reply.code(result.statusCode).headers(result.headers as Record<string, string>);
    if (result.statusCode === 200 || result.statusCode === 206) reply.header('content-type', contentType);
    // Files never change once checked; the browser may keep them, revalidating after an hour.
    reply.header('cache-control', 'private, max-age=3600');
    return reply.send(result.stream);
  });

  app.post(
    '/api/url-metadata',
    { ...signedIn, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (request) => {
      const { url } = parseInput(urlMetadataSchema, request.body);
      return fetchUrlMetadata(url);
    },
  );
}
