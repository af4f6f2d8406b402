import type { FastifyInstance } from 'fastify';
import { queuePlaceOf } from '../../domain/submission/decision-queue';
import {
  artistStatsSchema,
  createSubmissionSchema,
  draftSubmissionSchema,
  submissionListItemSchema,
  submissionsQuerySchema,
  type OwnSubmission,
  type SubmissionListItem,
} from '@shared/submission-schemas';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import type { Config } from '../../config';
import { removeSubmission } from '../../domain/submission/remove-submission';
import type { Db } from '../../platform/db/client';
import { createStripeClient } from '../../platform/stripe/stripe-client';
import { apiError, parseInput } from '../../platform/errors';
import { sendWithEtag } from '../../platform/etag';
import { rateLimited } from '../../platform/rate-limits';
import { responseListSchema, responseSchema } from '../../platform/response-schemas';
import { requireUser, userOf } from '../../platform/sessions';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { artistStats } from './stats';
import {
  attachedFiles,
  createDraft,
  createSubmission,
  findSubmission,
  listItemsOf,
  listSubmissions,
  markSubmissionSeen,
  submitDraft,
  updateDraft,
} from './submissions';
import { toSubmission } from '../../domain/submission/to-submission';
import { keepCurrentTerms } from './licence';
import { addSubmissionVersion, listSubmissionVersions } from '../../domain/submission/versions';
import { newVersionSchema } from '@shared/versions';

type WithId = { Params: { id: string } };

export async function submissionRoutes(app: FastifyInstance, { db, storage, config }: { db: Db; storage: ObjectStorage; config: Config }) {
  const stripe = config.stripe ? createStripeClient(config.stripe) : undefined;
  // The artist's dashboard reads (the list's first page, the counts) are answered from memory
  // until their submissions change, on whichever instance (platform/user-reads.ts).
  const reads = app.userReads;
  app.addHook('onReady', () => keepCurrentTerms(db));
  app.addHook('preHandler', requireUser);
  // Callback hooks, not async ones: the dashboard's reads run them (issue 16).
  app.addHook('onRequest', (request, reply, done) => {
    // The list may be kept by the browser and revalidated with its ETag; nothing else is kept.
    // The route the router matched decides, not the URL's text (`/api/%73ubmissions` is the list too).
    const list = request.method === 'GET' && request.routeOptions.url === '/api/submissions';
    reply.header('cache-control', list ? 'private, no-cache' : 'no-store');
    done();
  });
  // Ids are made by the server; anything else (a NUL, a huge string) cannot name a submission.
  app.addHook('preHandler', (request, _reply, done) => {
    const { id } = (request.params ?? {}) as { id?: string };
    done(id !== undefined && !OBJECT_ID_PATTERN.test(id) ? apiError('submission_not_found') : undefined);
  });

  app.post('/api/submissions', rateLimited('submissions'), async (request, reply) => {
    const input = parseInput(createSubmissionSchema, request.body);
    const row = await createSubmission(db, app.outbox, userOf(request).id, input);
    request.log.info({ submissionId: row.id, tier: row.pricingTier }, 'submission created');
    return reply.status(201).send(toSubmission(row));
  });

  app.post('/api/submissions/drafts', rateLimited('drafts'), async (request, reply) => {
    const input = parseInput(draftSubmissionSchema, request.body);
    const row = await createDraft(db, userOf(request).id, input);
    return reply.status(201).send(toSubmission(row));
  });

  // The wizard saves as the artist types (debounced), hence a generous limit.
  app.patch<WithId>('/api/submissions/:id', rateLimited('draftEdits'), async (request) => {
    const changes = parseInput(draftSubmissionSchema, request.body);
    return toSubmission(await updateDraft(db, userOf(request).id, request.params.id, changes));
  });

  app.post<WithId>('/api/submissions/:id/submit', rateLimited('submissions'), async (request) => {
    const changes = parseInput(draftSubmissionSchema, request.body);
    const row = await submitDraft(db, app.outbox, userOf(request).id, request.params.id, changes, (draft) =>
      parseInput(createSubmissionSchema, draft),
    );
    request.log.info({ submissionId: row.id, tier: row.pricingTier }, 'draft submitted');
    return toSubmission(row);
  });

  // A page, newest first, with what each row shows beside it (queue places, agreements), written by
  // a compiled serialiser; an unchanged page answers 304.
  app.get('/api/submissions', { schema: { response: { 200: responseListSchema(submissionListItemSchema) } } }, async (request, reply) => {
    const page = parseInput(submissionsQuerySchema, request.query);
    const userId = userOf(request).id;
    const read = async () => listItemsOf(db, await listSubmissions(db, userId, page));
    const serialise = (list: unknown) => String(reply.serialize(list));
    // A place in the queue moves when the team decides another artist's submission: a page that
    // shows one is forgotten on anyone's change, not only this artist's.
    const showsPlaces = (list: SubmissionListItem[]) => list.some((item) => item.queuePosition !== null);
    // Only first pages are remembered: a cursor names one of many pages, rarely asked twice.
    const answer = page.before
      ? await reads.fresh(read, serialise)
      : await reads.answer(userId, `list:${page.limit}`, read, serialise, showsPlaces);
    return sendWithEtag(request, reply, answer);
  });

  app.get<WithId>('/api/submissions/:id', async (request): Promise<OwnSubmission> => {
    const row = await findSubmission(db, userOf(request), request.params.id);
    return { ...toSubmission(row), files: await attachedFiles(db, row.id), queue: await queuePlaceOf(db, row) };
  });

  // Revise and resubmit (CONTRACT §27): the owner answers a request for changes with a new version.
  app.post<WithId>('/api/submissions/:id/versions', rateLimited('submissions'), async (request, reply) => {
    const input = parseInput(newVersionSchema, request.body);
    const version = await addSubmissionVersion(db, userOf(request).id, request.params.id, input);
    request.log.info({ submissionId: request.params.id, round: version.round }, 'new version sent');
    return reply.status(201).send(version);
  });

  // Every version, oldest first: for the owner and for the team.
  app.get<WithId>('/api/submissions/:id/versions', async (request) => listSubmissionVersions(db, userOf(request), request.params.id));

  app.post<WithId>('/api/submissions/:id/seen', async (request, reply) => {
    await markSubmissionSeen(db, userOf(request).id, request.params.id);
    return reply.status(204).send();
  });

  app.delete<WithId>('/api/submissions/:id', async (request, reply) => {
    // Paid work is refunded under the same lock that checks it is still the artist's to withdraw
    // (CONTRACT §21); a refund Stripe refuses deletes nothing.
    const deps = { db, stripe, outbox: app.outbox, storage, seller: config.billing, log: request.log };
    await removeSubmission(deps, request.params.id, { kind: 'artist', userId: userOf(request).id });
    return reply.status(204).send();
  });

  app.get('/api/stats', { schema: { response: { 200: responseSchema(artistStatsSchema) } } }, async (request, reply) => {
    const userId = userOf(request).id;
    const { body } = await reads.answer(userId, 'stats', () => artistStats(db, userId), (stats) => String(reply.serialize(stats)));
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
