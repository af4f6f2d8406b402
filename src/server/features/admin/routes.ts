import type { FastifyInstance, FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { createStripeClient } from '../../platform/stripe/stripe-client';
import { refundRejected } from '../../domain/billing/refunds';
import { removeFiles, removeSubmission } from '../../domain/submission/remove-submission';
import { apiError, parseInput } from '../../platform/errors';
import { rateLimited } from '../../platform/rate-limits';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import {
  changeSubmissionStatus,
  findAdminSubmission,
  listAdminSubmissions,
  listSubmissionHistory,
  listTeam,
  saveSubmissionNotes,
} from './admin-submissions';
import { applyBulkAction } from './bulk-actions';
import { exportSubmissionsCsv } from './csv-export';
import {
  assignSubmission,
  changeSubmissionTags,
  checkAssignee,
  findWaveform,
  listRatings,
  rateSubmission,
  recordListening,
  availabilityOf,
  setAvailability,
} from './review-desk';
import { availabilitySchema } from '@shared/admin';
import { createReviewTemplate, deleteReviewTemplate, listReviewTemplates, updateReviewTemplate } from './review-templates';
import { addTrackComment, listArtistComments, listTeamComments } from './track-comments';
import { listUnseenActivity, markActivitySeen } from '../../domain/submission/artist-activity';
import { activitySeenSchema } from '@shared/artist-activity-schema';
import { adminCsvQuerySchema, adminListQuerySchema, notesSchema, statusChangeSchema } from '@shared/admin';
import {
  assignSchema,
  bulkActionSchema,
  listeningSchema,
  ratingSchema,
  reviewTemplateSchema,
  tagsSchema,
  trackCommentSchema,
  waveformQuerySchema,
} from '@shared/review-desk';
import { attachment } from '../../platform/content-disposition';

type WithId = { Params: { id: string } };

/** The label's review desk (CONTRACT §8, §14). Every route: 401 signed out, 403 for artists. */
export async function adminRoutes(app: FastifyInstance, { db, storage, config }: { db: Db; storage: ObjectStorage; config: Config }) {
  const stripe = config.stripe ? createStripeClient(config.stripe) : undefined;
  /**
   * After a rejection is committed: the paid, undelivered ones among `ids` are refunded (CONTRACT
   * §19). Not in the status change's transaction: Stripe is called outside it, and a failure
   * leaves the refund to the backstop job (production feature) instead of undoing the rejection.
   */
  const refundTurnedDown = async (ids: readonly string[], adminId: string, log: FastifyBaseLogger) => {
    if (!stripe) return;
    await refundRejected(db, stripe, app.outbox, { submissionIds: ids, actorId: adminId, now: new Date(), seller: config.billing }, log);
  };
  // Every route of this plugin, as the router matched it (never the URL's text: CONTRACT §9), and
  // before the body is even parsed: artists learn nothing from validation errors.
  app.addHook('onRequest', requireAdmin);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get('/api/admin/submissions', async (request) =>
    listAdminSubmissions(db, userOf(request).id, parseInput(adminListQuerySchema, request.query)),
  );

  app.get('/api/admin/submissions.csv', async (request, reply) => {
    const filter = parseInput(adminCsvQuerySchema, request.query);
    const stamp = new Date().toISOString().slice(0, 10);
    const csv = exportSubmissionsCsv(db, userOf(request).id, filter, config.publicUrl.origin, (error) =>
      request.log.error({ err: error }, 'the CSV export stopped halfway'),
    );
    request.log.info({ adminId: userOf(request).id, filter }, 'submissions exported as CSV');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(`submissions-${stamp}.csv`))
      .send(csv);
  });

  app.get('/api/admin/team', async () => listTeam(db));
  // CONTRACT §26: the admin's own availability for fair assignment.
  app.get('/api/admin/me/availability', async (request) => availabilityOf(db, userOf(request).id));
  app.put('/api/admin/me/availability', async (request) => setAvailability(db, userOf(request).id, parseInput(availabilitySchema, request.body)));

  app.post('/api/admin/submissions/bulk', async (request) => {
    const action = parseInput(bulkActionSchema, request.body);
    const admin = userOf(request);
    // A delete removes each through the one removal (CONTRACT §21): paid, undelivered work is
    // refunded under the locks the bulk holds, and a refusal deletes none.
    const removal = { stripe, outbox: app.outbox, seller: config.billing, log: request.log };
    const { updated, removedUploadIds } = await applyBulkAction(db, app.outbox, admin.id, action, removal);
    request.log.info({ adminId: admin.id, action: action.action, ids: action.ids }, 'bulk change');
    if (action.action === 'status' && action.status === 'rejected') await refundTurnedDown(action.ids, admin.id, request.log);
    await removeFiles({ storage, log: request.log }, removedUploadIds);
    return { updated };
  });

  app.get<WithId>('/api/admin/submissions/:id', async (request) => findAdminSubmission(db, request.params.id));

  app.patch<WithId>('/api/admin/submissions/:id/status', async (request) => {
    const input = parseInput(statusChangeSchema, request.body);
    const admin = userOf(request);
    await changeSubmissionStatus(db, app.outbox, admin.id, request.params.id, input);
    request.log.info({ submissionId: request.params.id, status: input.status, adminId: admin.id }, 'status changed');
    if (input.status === 'rejected') await refundTurnedDown([request.params.id], admin.id, request.log);
    return findAdminSubmission(db, request.params.id);
  });

  app.patch<WithId>('/api/admin/submissions/:id/notes', async (request) => {
    const { notes } = parseInput(notesSchema, request.body);
    await saveSubmissionNotes(db, userOf(request).id, request.params.id, notes);
    return findAdminSubmission(db, request.params.id);
  });

  app.put<WithId>('/api/admin/submissions/:id/assignee', async (request) => {
    const { assigneeId } = parseInput(assignSchema, request.body);
    await checkAssignee(db, assigneeId);
    await assignSubmission(db, userOf(request).id, request.params.id, assigneeId);
    return findAdminSubmission(db, request.params.id);
  });

  app.put<WithId>('/api/admin/submissions/:id/tags', async (request) => {
    const { tags } = parseInput(tagsSchema, request.body);
    await changeSubmissionTags(db, userOf(request).id, request.params.id, { set: tags });
    return findAdminSubmission(db, request.params.id);
  });

  app.get<WithId>('/api/admin/submissions/:id/ratings', async (request) => listRatings(db, request.params.id));

  app.put<WithId>('/api/admin/submissions/:id/rating', async (request) => {
    const input = parseInput(ratingSchema, request.body);
    await rateSubmission(db, userOf(request).id, request.params.id, input);
    return listRatings(db, request.params.id);
  });

  app.get<WithId>('/api/admin/submissions/:id/comments', async (request) => listTeamComments(db, request.params.id));

  // What the artists did that this admin has not seen yet (issue 33 part 4): the desk's row
  // badges and the header's count; seen when the admin opens the submission (or, withdrawn, the desk).
  app.get('/api/admin/activity', async (request) => listUnseenActivity(db, userOf(request).id));
  app.post('/api/admin/activity/seen', async (request, reply) => {
    const { submissionIds } = parseInput(activitySeenSchema, request.body);
    await markActivitySeen(db, userOf(request).id, submissionIds, new Date());
    return reply.status(204).send();
  });

  app.post<WithId>('/api/admin/submissions/:id/comments', rateLimited('comments'), async (request, reply) => {
    const input = parseInput(trackCommentSchema, request.body);
    return reply.status(201).send(await addTrackComment(db, userOf(request).id, request.params.id, input));
  });

  app.get<WithId>('/api/admin/submissions/:id/waveform', async (request) => {
    const { round } = parseInput(waveformQuerySchema, request.query);
    const waveform = await findWaveform(db, request.params.id, round);
    if (!waveform) throw apiError('waveform_not_found');
    return waveform;
  });

  app.post<WithId>('/api/admin/submissions/:id/listening', async (request) =>
    recordListening(db, request.params.id, parseInput(listeningSchema, request.body)),
  );

  app.delete<WithId>('/api/admin/submissions/:id', async (request, reply) => {
    // The team's delete refunds paid, undelivered work the same way, under the same lock (CONTRACT §21).
    const deps = { db, stripe, outbox: app.outbox, storage, seller: config.billing, log: request.log };
    await removeSubmission(deps, request.params.id, { kind: 'team', adminId: userOf(request).id });
    return reply.status(204).send();
  });

  app.get<WithId>('/api/admin/submissions/:id/history', async (request) =>
    listSubmissionHistory(db, request.params.id),
  );

  app.get('/api/admin/review-templates', async () => listReviewTemplates(db));

  app.post('/api/admin/review-templates', async (request, reply) => {
    const input = parseInput(reviewTemplateSchema, request.body);
    return reply.status(201).send(await createReviewTemplate(db, userOf(request).id, input));
  });

  app.put<WithId>('/api/admin/review-templates/:id', async (request) =>
    updateReviewTemplate(db, request.params.id, parseInput(reviewTemplateSchema, request.body)),
  );

  app.delete<WithId>('/api/admin/review-templates/:id', async (request, reply) => {
    await deleteReviewTemplate(db, request.params.id);
    return reply.status(204).send();
  });
}

/**
 * GET /api/submissions/{id}/comments: the comments the team made visible, for the submission's
 * artist. Someone else's submission is "not found" (CONTRACT §2), admins included: they read
 * every comment at the admin route.
 */
export async function artistCommentRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get<WithId>('/api/submissions/:id/comments', { preHandler: requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return listArtistComments(db, userOf(request).id, request.params.id);
  });
}
