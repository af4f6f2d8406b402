import type { FastifyInstance, FastifyRequest } from 'fastify';
import contentDisposition from 'content-disposition';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { apiError } from '../../platform/errors';
import { requireAdmin, userOf } from '../../platform/sessions';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { deskSubmission, evidencePack, releasePackage } from './packages';
import { webhookRoutes } from './webhook-routes';

type WithId = { Params: { id: string } };

const idGuard = async (request: FastifyRequest) => {
  const { id } = (request.params ?? {}) as { id?: string };
  if (id !== undefined && !OBJECT_ID_PATTERN.test(id)) throw apiError('submission_not_found');
};

/** "Song - release.zip", as a download whatever the song's title holds. */
const downloadAs = (songTitle: string, what: string) => contentDisposition(`${songTitle.trim() || 'submission'} - ${what}`, { type: 'attachment' });

/**
 * Handover (CONTRACT §28): the team's release package and evidence pack of a submission, and the
 * label's webhooks. Admins only.
 */
export async function handoverRoutes(app: FastifyInstance, deps: { db: Db; config: Config; storage: ObjectStorage }) {
  const { db } = deps;
  await app.register(async (team) => {
    team.addHook('onRequest', requireAdmin);
    team.addHook('preHandler', idGuard);

    team.get<WithId>('/api/admin/submissions/:id/release.zip', async (request, reply) => {
      const submission = await deskSubmission(db, request.params.id);
      const stream = await releasePackage(deps, submission, (error) =>
        request.log.error({ err: error, submissionId: submission.id }, 'the release package stopped halfway'),
      );
      request.log.info({ submissionId: submission.id, adminId: userOf(request).id }, 'release package downloaded');
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', downloadAs(submission.songTitle, 'release.zip'))
        .header('cache-control', 'private, no-store')
        .send(stream);
    });

    team.get<WithId>('/api/admin/submissions/:id/evidence.zip', async (request, reply) => {
      const submission = await deskSubmission(db, request.params.id);
      const stream = await evidencePack(deps, submission, (error) =>
        request.log.error({ err: error, submissionId: submission.id }, 'the evidence pack stopped halfway'),
      );
      request.log.info({ submissionId: submission.id, adminId: userOf(request).id }, 'evidence pack downloaded');
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', downloadAs(submission.songTitle, 'evidence.zip'))
        .header('cache-control', 'private, no-store')
        .send(stream);
    });
  });
  await app.register(webhookRoutes, deps);
}
