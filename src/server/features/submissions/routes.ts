import type { FastifyInstance } from 'fastify';
import { createSubmissionSchema } from '@shared/submission-schemas';
import type { Db } from '../../platform/db/client';
import { parseInput } from '../../platform/errors';
import { requireUser, userOf } from '../../platform/sessions';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { removeUploadBytes } from '../../platform/storage/upload-files';
import { artistStats } from './stats';
import { createSubmission, deleteSubmission, findSubmission, listSubmissions } from './submissions';
import { toSubmission } from './to-submission';

export async function submissionRoutes(app: FastifyInstance, { db, storage }: { db: Db; storage: ObjectStorage }) {
  app.addHook('preHandler', requireUser);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post('/api/submissions', { config: { rateLimit: { max: 120, timeWindow: '1 hour' } } }, async (request, reply) => {
    const input = parseInput(createSubmissionSchema, request.body);
    const row = await createSubmission(db, userOf(request).id, input);
    request.log.info({ submissionId: row.id, tier: row.pricingTier }, 'submission created');
    return reply.status(201).send(toSubmission(row));
  });

  app.get('/api/submissions', async (request) => (await listSubmissions(db, userOf(request).id)).map(toSubmission));

  app.get<{ Params: { id: string } }>('/api/submissions/:id', async (request) =>
    toSubmission(await findSubmission(db, userOf(request), request.params.id)),
  );

  app.delete<{ Params: { id: string } }>('/api/submissions/:id', async (request, reply) => {
    const fileIds = await deleteSubmission(db, userOf(request).id, request.params.id);
    try {
      await removeUploadBytes(storage, fileIds);
    } catch (error) {
      // The rows are gone; the bytes stay as orphans in the store. Logged so they can be swept.
      request.log.error({ err: error, uploadIds: fileIds }, 'could not remove the files of a deleted submission');
    }
    return reply.status(204).send();
  });

  app.get('/api/stats', async (request) => artistStats(db, userOf(request).id));
}
