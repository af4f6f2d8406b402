import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import {
  deliverablesSchema,
  deliveryCommentPatchSchema,
  deliveryCommentSchema,
  earningStatusSchema,
  publicationSchema,
  revisionSchema,
  viewsSchema,
  viralReviewSchema,
  youtubePublishSchema,
  type BonusState,
  type DeliveryComment,
} from '@shared/production';
import { draftPublication } from '@shared/publication-draft';
import { requireRights } from '../../domain/submission/rights';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import { eq } from 'drizzle-orm';
import { users } from '../../platform/db/schema';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { apiError, parseInput } from '../../platform/errors';
import { rateLimited } from '../../platform/rate-limits';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { createStripeClient } from '../../platform/stripe/stripe-client';
import { findVisibleSubmission } from './access';
import { allLedgers, bonusOf, markEarning } from './bonus';
import { deliverFiles, listDeliveries, serveDeliverable, zipDeliverables } from './deliveries';
import { addDeliveryComment, commentAudience, listDeliveryComments, loadDeliveryComment, resolveDeliveryComment } from './delivery-comments';
import type { ProductionServices } from './production-jobs';
import { channelRoutes } from './channel-routes';
import { productionState } from './production-state';
import { enterViews, recordPublication, reviewViralHit } from './publication';
import { refundSubmission } from '../../domain/billing/refunds';
import { requestRevision } from './revisions';
import { cancelYouTubePublish, requestYouTubePublish, youtubeUploadStatus } from './youtube-upload';
import { approveCut } from '../../domain/submission/approve-cut';
import { attachment } from '../../platform/content-disposition';

type WithId = { Params: { id: string } };
type WithDelivery = { Params: { id: string; deliveryId: string } };
type WithComment = { Params: { id: string; deliveryId: string; commentId: string } };

/** The loader other instances use when a comment is too large to travel in a NOTIFY payload. */
const DELIVERY_COMMENT_LOADER = 'delivery_comment';

interface ProductionOptions {
  db: Db;
  config: Config;
  storage: ObjectStorage;
  /** The time as the feature sees it: a test moves it; the queue's own timing stays the database's. */
  now: () => Date;
  /** How long a comment on a delivery waits unread before it is emailed (CONTRACT §10, §17). */
  emailDelayS: number;
  /** The channel and publishing state the routes share with the feature's jobs (production-jobs.ts). */
  services: ProductionServices;
}

/**
 * After approval (CONTRACT §13): deliveries, revisions, refunds, the publication and its 14-day
 * check, the bonus ledger. Two route groups, each with its guard on what the router matched.
 */
export async function productionRoutes(app: FastifyInstance, { db, config, storage, now, emailDelayS, services }: ProductionOptions) {
  const stripe: Stripe | undefined = config.stripe ? createStripeClient(config.stripe) : undefined;
  const { channel, publication: deps, uploads: uploadDeps } = services;

  app.realtime.registerLoader(DELIVERY_COMMENT_LOADER, async (id) => {
    const loaded = await loadDeliveryComment(db, id);
    return loaded ? { type: 'delivery_comment' as const, ...loaded } : null;
  });
  /**
   * A comment as it now stands (new, resolved or reopened; stored already) is pushed as
   * delivery_comment to the owner and every admin, on every instance; clients replace it by its id.
   * The NOTIFY to other instances is not waited for (the hub logs a failure there).
   */
  const pushComment = async (submission: { id: string; userId: string }, comment: DeliveryComment) => {
    const audience = await commentAudience(db, submission.userId);
    void app.realtime.publish(audience, { type: 'delivery_comment', comment, submissionId: submission.id }, { loader: DELIVERY_COMMENT_LOADER, id: comment.id });
  };

  await app.register(async (team) => {
    team.addHook('onRequest', requireAdmin);
    team.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    team.addHook('preHandler', async (request) => {
      const { id } = (request.params ?? {}) as { id?: string };
      if (id !== undefined && !OBJECT_ID_PATTERN.test(id)) throw apiError('submission_not_found');
    });

    channelRoutes(team, { channel, config, now });

    team.post<WithId>('/api/admin/submissions/:id/deliverables', rateLimited('deliveries'), async (request, reply) => {
      const input = parseInput(deliverablesSchema, request.body);
      const admin = userOf(request);
      const delivery = await deliverFiles(db, app.outbox, admin.id, request.params.id, input, now());
      request.log.info({ submissionId: request.params.id, adminId: admin.id, files: delivery.files.length }, 'files delivered');
      return reply.status(201).send(delivery);
    });

    team.post<WithId>('/api/admin/submissions/:id/refund', async (request) => {
      if (!stripe) throw apiError('payments_not_configured');
      const admin = userOf(request);
      await refundSubmission(db, stripe, app.outbox, { submissionId: request.params.id, reason: 'admin', actorId: admin.id, now: now(), seller: config.billing }, request.log);
      return productionState(db, await findVisibleSubmission(db, admin, request.params.id), now());
    });

    team.put<WithId>('/api/admin/submissions/:id/publication', async (request) => {
      const input = parseInput(publicationSchema, request.body);
      const admin = userOf(request);
      const override = await requireRights(db, admin.id, request.params.id, request.body);
      await recordPublication(deps, admin.id, request.params.id, input, now(), override);
      request.log.info({ submissionId: request.params.id, adminId: admin.id }, 'publication recorded');
      return productionState(db, await findVisibleSubmission(db, admin, request.params.id), now());
    });

    team.put<WithId>('/api/admin/submissions/:id/views', async (request) => {
      const { viewsAt14Days } = parseInput(viewsSchema, request.body);
      const admin = userOf(request);
      await enterViews(db, app.outbox, admin.id, request.params.id, viewsAt14Days, now());
      return productionState(db, await findVisibleSubmission(db, admin, request.params.id), now());
    });

    // CONTRACT §25: a person decides a suspect viral hit.
    team.post<WithId>('/api/admin/submissions/:id/viral-review', async (request) => {
      const input = parseInput(viralReviewSchema, request.body);
      const admin = userOf(request);
      await reviewViralHit(db, app.outbox, admin.id, request.params.id, input, now());
      request.log.info({ submissionId: request.params.id, adminId: admin.id, decision: input.decision }, 'viral hit reviewed');
      return productionState(db, await findVisibleSubmission(db, admin, request.params.id), now());
    });

    team.get<WithId>('/api/admin/submissions/:id/publication-draft', async (request) => {
      const submission = await findVisibleSubmission(db, userOf(request), request.params.id);
      const [artist] = await db.select().from(users).where(eq(users.id, submission.userId));
      return draftPublication(submission, artist);
    });

    team.post<WithId>('/api/admin/submissions/:id/youtube', rateLimited('publications'), async (request, reply) => {
      const input = parseInput(youtubePublishSchema, request.body);
      const admin = userOf(request);
      const override = await requireRights(db, admin.id, request.params.id, request.body);
      const status = await requestYouTubePublish(uploadDeps, admin.id, request.params.id, input, override);
      request.log.info({ submissionId: request.params.id, adminId: admin.id }, 'publishing on YouTube queued');
      return reply.status(202).send(status);
    });

    team.get<WithId>('/api/admin/submissions/:id/youtube', async (request) => {
      const submission = await findVisibleSubmission(db, userOf(request), request.params.id);
      return youtubeUploadStatus(db, submission.id);
    });

    team.delete<WithId>('/api/admin/submissions/:id/youtube', async (request, reply) => {
      const admin = userOf(request);
      const submission = await findVisibleSubmission(db, admin, request.params.id);
      await cancelYouTubePublish(uploadDeps, admin.id, submission.id);
      return reply.status(204).send();
    });

    team.get('/api/admin/bonus', async () => allLedgers(db));

    team.patch<WithId>('/api/admin/bonus/earnings/:id', async (request) => {
      const { status } = parseInput(earningStatusSchema, request.body);
      return markEarning(db, userOf(request).id, request.params.id, status, now());
    });
  });

  await app.register(async (artist) => {
    artist.addHook('onRequest', requireUser);
    artist.addHook('preHandler', async (request) => {
      const { id, fileId, deliveryId, commentId } = (request.params ?? {}) as Record<string, string | undefined>;
      if (id !== undefined && !OBJECT_ID_PATTERN.test(id)) throw apiError('submission_not_found');
      if (fileId !== undefined && !OBJECT_ID_PATTERN.test(fileId)) throw apiError('deliverable_not_found');
      if (deliveryId !== undefined && !OBJECT_ID_PATTERN.test(deliveryId)) throw apiError('delivery_not_found');
      if (commentId !== undefined && !OBJECT_ID_PATTERN.test(commentId)) throw apiError('delivery_comment_not_found');
    });

    // Comments on a delivery and the approval of a cut (CONTRACT §17): the owner and the team.
    artist.post<WithDelivery>('/api/submissions/:id/deliveries/:deliveryId/comments', rateLimited('comments'), async (request, reply) => {
      const user = userOf(request);
      const submission = await findVisibleSubmission(db, user, request.params.id);
      const input = parseInput(deliveryCommentSchema, request.body);
      const comment = await addDeliveryComment(db, app.outbox, user, submission, request.params.deliveryId, input, emailDelayS);
      await pushComment(submission, comment);
      return reply.status(201).send(comment);
    });

    artist.get<WithDelivery>('/api/submissions/:id/deliveries/:deliveryId/comments', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = userOf(request);
      const submission = await findVisibleSubmission(db, user, request.params.id);
      return listDeliveryComments(db, user, submission, request.params.deliveryId, now());
    });

    artist.patch<WithComment>('/api/submissions/:id/deliveries/:deliveryId/comments/:commentId', async (request) => {
      const submission = await findVisibleSubmission(db, userOf(request), request.params.id);
      const { resolved } = parseInput(deliveryCommentPatchSchema, request.body);
      const comment = await resolveDeliveryComment(db, submission, request.params.deliveryId, request.params.commentId, resolved);
      // The other side's open player and thread show the mark at once (CONTRACT §17).
      await pushComment(submission, comment);
      return comment;
    });

    artist.post<WithDelivery>('/api/submissions/:id/deliveries/:deliveryId/approve', async (request) => {
      const user = userOf(request);
      const submission = await findVisibleSubmission(db, user, request.params.id);
      await approveCut(db, user, submission, request.params.deliveryId, now());
      request.log.info({ submissionId: submission.id, deliveryId: request.params.deliveryId }, 'cut approved');
      return productionState(db, await findVisibleSubmission(db, user, submission.id), now());
    });

    artist.get<WithId>('/api/submissions/:id/production', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return productionState(db, await findVisibleSubmission(db, userOf(request), request.params.id), now());
    });

    artist.get<WithId>('/api/submissions/:id/deliverables', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const submission = await findVisibleSubmission(db, userOf(request), request.params.id);
      return listDeliveries(db, submission.id);
    });

    artist.get<WithId>('/api/submissions/:id/deliverables.zip', async (request, reply) => {
      const submission = await findVisibleSubmission(db, userOf(request), request.params.id);
      const { stream } = await zipDeliverables(db, storage, submission.id, (error) =>
        request.log.error({ err: error, submissionId: submission.id }, 'the deliverables ZIP stopped halfway'),
      );
      const name = `${submission.songTitle || 'deliverables'} - deliverables.zip`;
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', attachment(name))
        .header('cache-control', 'private, no-store')
        .send(stream);
    });

    artist.get<{ Params: { id: string; fileId: string }; Querystring: { download?: string } }>(
      '/api/submissions/:id/deliverables/:fileId',
      async (request, reply) => {
        const submission = await findVisibleSubmission(db, userOf(request), request.params.id);
        const { file, served } = await serveDeliverable(db, storage, submission.id, request.params.fileId, request.raw);
        if ('redirect' in served) {
          reply.header('cache-control', 'private, no-store');
          return reply.redirect(served.redirect, 302);
        }
        reply.code(served.statusCode).headers(served.headers);
        reply.header('cache-control', 'private, max-age=3600');
        if (request.query.download !== undefined) reply.header('content-disposition', attachment(file.fileName));
        return reply.send(served.stream);
      },
    );

    artist.post<WithId>('/api/submissions/:id/revisions', async (request, reply) => {
      const { note } = parseInput(revisionSchema, request.body);
      const revision = await requestRevision(db, userOf(request).id, request.params.id, note, now());
      request.log.info({ submissionId: request.params.id }, 'revision requested');
      return reply.status(201).send(revision);
    });

    artist.get('/api/bonus', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const state: BonusState = { ...(await bonusOf(db, userOf(request).id)), bonusPerTrack: config.production.bonusPerTrackUsd };
      return state;
    });
  });
}
