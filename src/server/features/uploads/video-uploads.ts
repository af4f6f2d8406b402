import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server as TusServer } from '@tus/server';
import { and, eq, sql } from 'drizzle-orm';
import { FILE_LIMITS, OBJECT_ID_PATTERN, RESUMABLE_UPLOADS_PATH } from '@shared/submissions';
import type { Db } from '../../platform/db/client';
import { uploads, type UserRow } from '../../platform/db/schema';
import { apiError, errorBody } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { objectKey, type ObjectStorage } from '../../platform/storage/object-storage';
import { FILE_RULES } from './file-types';

/**
 * Resumable uploads of finished videos (CONTRACT §12, decision 071) with the tus protocol:
 * `POST /api/video-uploads` (Upload-Length ≤ 2 GiB) creates one and answers its URL,
 * `HEAD` tells how many bytes arrived, `PATCH` continues from there, `DELETE` abandons it.
 * The bytes go through the storage driver's tus store straight to `incoming/<id>`, where
 * `PUT /api/video-files` checks them like every other upload.
 */
const VIDEO_UPLOADS_PATH = RESUMABLE_UPLOADS_PATH;

/** How long a resumable upload may take from creation to its last byte. */
export const VIDEO_UPLOAD_TTL_S = 12 * 60 * 60;

/** The signed-in user of each request handed to tus, for the hooks that run inside it. */
const requestUsers = new WeakMap<IncomingMessage, UserRow>();

export interface VideoUploads {
  /**
   * Checks a tus request of `user` (the router matched it, `requireUser` ran): refuses it with
   * an HttpError, answers a DELETE itself ('done'), or leaves it to `handle` ('tus').
   */
  authorize(user: UserRow, method: string, headers: IncomingMessage['headers'], id: string | undefined): Promise<'tus' | 'done'>;
  /** Lets tus answer an authorized request. */
  handle(user: UserRow, request: IncomingMessage, response: ServerResponse): Promise<void>;
}

export function createVideoUploads(db: Db, storage: ObjectStorage, publicUrl: URL): VideoUploads {
  const tus = new TusServer({
    path: VIDEO_UPLOADS_PATH,
    datastore: storage.resumable,
    maxSize: FILE_LIMITS.videoBytes,
    respectForwardedHeaders: false,
    // tus ids are the object keys (`incoming/<id>`); URLs carry only the id.
    generateUrl: (_req, { id }) => new URL(`${VIDEO_UPLOADS_PATH}/${id.slice('incoming/'.length)}`, publicUrl).toString(),
    getFileIdFromRequest: (_req, last) => (last && OBJECT_ID_PATTERN.test(last) ? objectKey('incoming', last) : undefined),
    namingFunction: async (req) => {
      const user = req.runtime?.node?.req ? requestUsers.get(req.runtime.node.req as IncomingMessage) : undefined;
      // tus writes this body as it is: the same {message, code} every other error answers with.
      if (!user) throw { status_code: 401, body: JSON.stringify(errorBody('unauthorized', 'Sign in to upload')) };
      const id = newId();
      // `receiving` with no lease: tus locks the upload while a PATCH writes to it.
      await db.insert(uploads).values({
        id,
        userId: user.id,
        status: 'receiving',
        uploadExpiresAt: new Date(Date.now() + VIDEO_UPLOAD_TTL_S * 1000),
      });
      return objectKey('incoming', id);
    },
  });

  return {
    async authorize(user, method, headers, id) {
      if (method === 'POST') {
        if (id !== undefined) throw apiError('upload_not_found');
        const length = Number(headers['upload-length']);
        if (!Number.isSafeInteger(length) || length <= 0) throw apiError('upload_length_required');
        if (length > FILE_LIMITS.videoBytes) throw apiError('file_too_large', FILE_RULES.video.tooLarge);
      } else {
        if (id === undefined || !OBJECT_ID_PATTERN.test(id)) throw apiError('upload_not_found');
        const [row] = await db
          .select()
          .from(uploads)
          .where(and(eq(uploads.id, id), eq(uploads.userId, user.id), sql`${uploads.leaseUntil} is null`));
        // Someone else's upload, or one that is not resumable, is simply not found.
        if (!row || row.submissionId !== null) throw apiError('upload_not_found');
        if (method === 'DELETE') {
          if (row.contentType !== null) throw apiError('upload_url_used');
          await db.delete(uploads).where(eq(uploads.id, id));
          await storage.delete([objectKey('incoming', id)]);
          return 'done';
        }
        // Single use: once checked (or expired) the URL takes no more bytes.
        const open = row.contentType === null && row.status === 'receiving' && row.uploadExpiresAt > new Date();
        if (method === 'PATCH' && !open) throw apiError('upload_url_used');
        if (method === 'HEAD' && row.contentType !== null) throw apiError('upload_url_used');
      }
      return 'tus';
    },

    async handle(user, request, response) {
      requestUsers.set(request, user);
      await tus.handle(request, response);
    },
  };
}
