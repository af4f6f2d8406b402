import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { TUS_RESUMABLE } from '@tus/utils';
import {
  artworkFileSchema,
  characterFilesSchema,
  deliverableFileSchema,
  musicFileSchema,
  referenceFilesSchema,
  urlMetadataSchema,
  videoFileSchema,
} from '@shared/submission-schemas';
import { RESUMABLE_UPLOADS_PATH } from '@shared/submissions';
import { attachmentFileSchema } from '@shared/messages';
import { downloadExtension, downloadQuerySchema } from '@shared/downloads';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { queueAudioPeaks } from '../../domain/audio/record-audio-peaks';
import { apiError, HttpError, parseInput, rangeNotSatisfiable } from '../../platform/errors';
import { rateLimited } from '../../platform/rate-limits';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';
import { objectKey, ObjectNotFoundError, RangeNotSatisfiableError, type ObjectStorage } from '../../platform/storage/object-storage';
import type { FileKind } from './file-types';
import { fetchUrlMetadata } from './url-metadata';
import { createVideoUploads, TUS_CAPABILITIES } from './video-uploads';
import {
  findDownloadableUpload,
  issueUploadUrl,
  normaliseUpload,
  receiveUpload,
  UploadBusyError,
} from './uploads';
import { attachment } from '../../platform/content-disposition';

interface UploadRoutesOptions {
  db: Db;
  config: Config;
  storage: ObjectStorage;
}

/** How long a presigned S3 download link handed out by GET /objects/uploads/{id} lives. */
const DOWNLOAD_URL_TTL_S = 5 * 60;

export async function uploadRoutes(app: FastifyInstance, { db, config, storage }: UploadRoutesOptions) {
  const signedIn = { preHandler: requireUser };

  // Another request holds the upload's claim: say when it lapses, so a retry comes at the right time.
  app.addHook('onError', async (_request, reply, error) => {
    if (error instanceof UploadBusyError) reply.header('retry-after', String(error.retryAfterS));
  });

  app.post(
    '/api/objects/upload',
    { ...signedIn, ...rateLimited('uploads') },
    async (request) => {
      const uploadURL = await issueUploadUrl(db, storage, {
        userId: userOf(request).id,
        publicUrl: config.publicUrl,
        secret: config.sessionSecret,
      });
      return { uploadURL };
    },
  );

  // Where the bytes go when the store has no presigned upload URL (local disk). The route works
  // with any driver, so it needs no knowledge of which one is configured.
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

    // Resumable video uploads (tus): the id comes from the route the router matched, once, and
    // is the only upload tus may act on (decision 147).
    const videos = createVideoUploads(db, storage, config.publicUrl);
    // Every answer of an upload endpoint says which protocol version it speaks, refusals
    // included (CONTRACT §23): set as the answer goes out, so the refusals of hooks that run
    // before this plugin's own (the server-wide Origin check's 403) carry it as well as the
    // session's 401, the rate limit's 429 and tus's own.
    raw.addHook('onSend', (request, reply, payload, done) => {
      if (request.routeOptions.url?.startsWith(RESUMABLE_UPLOADS_PATH)) reply.header('tus-resumable', TUS_RESUMABLE);
      done(null, payload);
    });
    const tus = async (request: FastifyRequest, reply: FastifyReply) => {
      const { id } = request.params as { id?: string };
      const answer = await videos.answer({ user: userOf(request), method: request.method, id, headers: request.headers, body: request.raw });
      return reply.code(answer.status).headers(answer.headers).send();
    };
    raw.post(RESUMABLE_UPLOADS_PATH, { ...signedIn, ...rateLimited('videoUploads') }, tus);
    raw.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: `${RESUMABLE_UPLOADS_PATH}/:id`, ...signedIn, handler: tus });
    // What the server speaks (CONTRACT §23): public, as it tells nothing about anyone's uploads.
    const capabilities = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(204).headers(TUS_CAPABILITIES).send();
    raw.options(RESUMABLE_UPLOADS_PATH, capabilities);
    raw.options(`${RESUMABLE_UPLOADS_PATH}/:id`, capabilities);
  });

  const normalise = (user: Parameters<typeof normaliseUpload>[2]['user'], kind: FileKind, url: string, fileName?: string) =>
    normaliseUpload(db, storage, { user, kind, url, fileName });

  /** Several files at once: the first failing one answers, with its position in the list. */
  async function normaliseAll(user: Parameters<typeof normalise>[0], urls: string[], field: string, fileNames: string[] = []) {
    const objectPaths: string[] = [];
    for (const [index, url] of urls.entries()) {
      try {
        objectPaths.push(await normalise(user, 'image', url, fileNames[index]));
      } catch (error) {
        if (error instanceof HttpError) {
          throw apiError(error.code, error.message, [{ path: `${field}.${index}`, message: error.message }]);
        }
        throw error;
      }
    }
    return { objectPaths };
  }

  app.put('/api/music-files', signedIn, async (request) => {
    const input = parseInput(musicFileSchema, request.body);
    const objectPath = await normalise(userOf(request), 'music', input.musicFileURL, input.fileName);
    // The review desk's waveform: computed once, by a job, rather than in this request or in
    // every admin's browser (decision 113). Queued before answering, so an acknowledged upload has it.
    await queueAudioPeaks(app.jobs, objectPath.slice(objectPath.lastIndexOf('/') + 1));
    return { objectPath };
  });

  app.put('/api/video-files', signedIn, async (request) => {
    const input = parseInput(videoFileSchema, request.body);
    return { objectPath: await normalise(userOf(request), 'video', input.videoFileURL, input.fileName) };
  });

  // The team's deliverables (CONTRACT §13), uploaded like any file (resumably when large).
  app.put('/api/admin/deliverable-files', { preHandler: requireAdmin }, async (request) => {
    const input = parseInput(deliverableFileSchema, request.body);
    return { objectPath: await normalise(userOf(request), 'deliverable', input.deliverableFileURL, input.fileName) };
  });

  app.put('/api/artwork-files', signedIn, async (request) => {
    const input = parseInput(artworkFileSchema, request.body);
    return { objectPath: await normalise(userOf(request), 'image', input.artworkFileURL, input.fileName) };
  });

  // A file for a message (CONTRACT §18): images, audio, video or PDF, by its bytes.
  app.put('/api/attachment-files', signedIn, async (request) => {
    const input = parseInput(attachmentFileSchema, request.body);
    return { objectPath: await normalise(userOf(request), 'attachment', input.fileURL, input.fileName) };
  });

  app.put('/api/reference-files', signedIn, async (request) => {
    const input = parseInput(referenceFilesSchema, request.body);
    return normaliseAll(userOf(request), input.referenceFileURLs, 'referenceFileURLs', input.fileNames);
  });

  app.put('/api/character-files', signedIn, async (request) => {
    const input = parseInput(characterFilesSchema, request.body);
    return normaliseAll(userOf(request), input.characterFileURLs, 'characterFileURLs', input.fileNames);
  });

  // Stored files go out as they are: audio, video and images gain nothing from compression, and
  // a compressed 206 would no longer match the byte range it answers. `?download={name}` sends
  // them as an attachment named {name}.{extension of the checked type} (SPEC §7), so the desk's
  // "Download Files" is a plain link the browser streams to disk, never bytes held in the page.
  app.get<{ Params: { id: string } }>('/objects/uploads/:id', { ...signedIn, compress: false }, async (request, reply) => {
    const { download } = parseInput(downloadQuerySchema, request.query);
    const upload = await findDownloadableUpload(db, userOf(request), request.params.id);
    let served;
    try {
      served = await storage.serve(objectKey('uploads', upload.id), request.raw, {
        contentType: upload.contentType!,
        expiresInSeconds: DOWNLOAD_URL_TTL_S,
        // The name is letters, digits, - and _ (its schema): nothing to quote or encode.
        contentDisposition: download ? attachment(`${download}.${downloadExtension('', upload.contentType)}`) : undefined,
      });
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw apiError('file_not_found');
      if (error instanceof RangeNotSatisfiableError) throw rangeNotSatisfiable(error.size);
      throw error;
    }
    if ('redirect' in served) {
      reply.header('cache-control', 'private, no-store');
      return reply.redirect(served.redirect, 302);
    }
    reply.code(served.statusCode).headers(served.headers);
    // Files never change once checked; the browser may keep them, revalidating after an hour.
    reply.header('cache-control', 'private, max-age=3600');
    return reply.send(served.stream);
  });

  app.post(
    '/api/url-metadata',
    { ...signedIn, ...rateLimited('urlMetadata') },
    async (request) => {
      const { url } = parseInput(urlMetadataSchema, request.body);
      return fetchUrlMetadata(url);
    },
  );
}
