import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/client';
import { parseInput } from '../../platform/errors';
import { requireAdmin, userOf } from '../../platform/sessions';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { removeUploadBytes } from '../../platform/storage/upload-files';
import { deleteSubmission } from '../submissions/submissions';
import {
  changeSubmissionStatus,
  findAdminSubmission,
  listAdminSubmissions,
  listSubmissionHistory,
  saveSubmissionNotes,
  submissionOwnerId,
} from './admin-submissions';
import { adminListQuerySchema, notesSchema, statusChangeSchema } from '@shared/admin';

type WithId = { Params: { id: string } };

/** The label's review desk (CONTRACT §8). Every route: 401 signed out, 403 for artists. */
export async function adminRoutes(app: FastifyInstance, { db, storage }: { db: Db; storage: ObjectStorage }) {
  app.addHook('onRequest', async (request) => {
    // Guarded before the body is even parsed: artists learn nothing from validation errors.
    if (request.url.startsWith('/api/admin/')) await requireAdmin(request);
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/api/admin/submissions', async (request) =>
    listAdminSubmissions(db, parseInput(adminListQuerySchema, request.query)),
  );

  app.get<WithId>('/api/admin/submissions/:id', async (request) => findAdminSubmission(db, request.params.id));

  app.patch<WithId>('/api/admin/submissions/:id/status', async (request) => {
    const input = parseInput(statusChangeSchema, request.body);
    const admin = userOf(request);
    await changeSubmissionStatus(db, admin.id, request.params.id, input);
    request.log.info({ submissionId: request.params.id, status: input.status, adminId: admin.id }, 'status changed');
    return findAdminSubmission(db, request.params.id);
  });

  app.patch<WithId>('/api/admin/submissions/:id/notes', async (request) => {
    const { notes } = parseInput(notesSchema, request.body);
    await saveSubmissionNotes(db, userOf(request).id, request.params.id, notes);
    return findAdminSubmission(db, request.params.id);
  });

  app.delete<WithId>('/api/admin/submissions/:id', async (request, reply) => {
    // The submissions feature's delete (rows and upload records in one transaction), run as the owner.
    const ownerId = await submissionOwnerId(db, request.params.id);
    const fileIds = await deleteSubmission(db, ownerId, request.params.id);
    request.log.info({ submissionId: request.params.id, adminId: userOf(request).id }, 'submission deleted by admin');
    try {
      await removeUploadBytes(storage, fileIds);
    } catch (error) {
      request.log.error({ err: error, uploadIds: fileIds }, 'could not remove the files of a deleted submission');
    }
    return reply.status(204).send();
  });

  app.get<WithId>('/api/admin/submissions/:id/history', async (request) =>
    listSubmissionHistory(db, request.params.id),
  );
}
