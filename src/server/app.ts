import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { PublicConfig } from '@shared/api';
import { MAILED_LINK_DOCUMENT, mailedLinkPage } from '@shared/first-pages';
import type { Config } from './config';
import { adminRoutes, artistCommentRoutes } from './features/admin/routes';
import { accountRoutes, passwordResetRoutes, teamRoutes } from './features/auth/account-routes';
import { authRoutes } from './features/auth/routes';
import { messageRoutes } from './features/messages/routes';
import { notificationRoutes } from './features/notifications/routes';
import { collectMetrics, metricsRoutes } from './features/operations/metrics';
import { declareOperationsJobs } from './features/operations/operations-jobs';
import { paymentRoutes } from './features/payments/routes';
import { billingRoutes } from './features/billing/routes';
import { declareAuthJobs } from './features/auth/auth-jobs';
import { declareRefundJobs } from './features/billing/refund-jobs';
import { useDecisionSettings } from './domain/submission/decision-date';
import { catchUpDecisionDeadlines, declareDecisionJobs } from './features/decisions/decision-jobs';
import { declareNotificationJobs } from './features/notifications/notification-jobs';
import { createProductionServices, declareProductionJobs } from './features/production/production-jobs';
import { productionRoutes } from './features/production/routes';
import { profileRoutes } from './features/profile/routes';
import { handoverRoutes } from './features/handover/routes';
import { WebhookDispatcher } from './features/handover/webhook-dispatcher';
import { rightsRoutes } from './features/rights/routes';
import { payeeRoutes } from './features/payees/routes';
import { submissionRoutes } from './features/submissions/routes';
import { uploadRoutes } from './features/uploads/routes';
import { declareUploadJobs } from './features/uploads/upload-jobs';
import { EMAIL_KINDS, type EmailKinds } from './domain/email/email-kinds';
import { EMAIL_TEMPLATES_MODULE } from './domain/email/email-templates';
import { BODY_PROGRESS, registerBodyProgress, type BodyProgress } from './platform/body-progress';
import { COMPRESS_THRESHOLD_BYTES, sendDocument } from './platform/compressed-document';
import type { Database } from './platform/db/client';
import { errorBody, registerErrorHandling, tooManyRequests } from './platform/errors';
import { Outbox } from './platform/email/outbox';
import { declareOutboxJobs } from './platform/email/outbox-jobs';
import { firstPageDocuments } from './platform/first-page-documents';
import { registerInputChecks } from './platform/input-checks';
import { productLogger, RequestLog } from './platform/request-log';
import { JobQueue } from './platform/jobs/job-queue';
import { toPublicUser } from './platform/public-user';
import { postgresRateLimitStore } from './platform/rate-limits';
import { handleSocketError, realtimePlugin } from './platform/realtime/plugin';
import { registerSecurity } from './platform/security';
import { sessionsPlugin } from './platform/sessions';
import { createObjectStorage } from './platform/storage/create-storage';
import { userReadsPlugin } from './platform/user-reads';
import type { ObjectStorage } from './platform/storage/object-storage';

export const clientDistDir = fileURLToPath(new URL('../../dist/client', import.meta.url));

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Serve the client: from the build (default), through Vite's dev server, or not at all (API tests). */
  client?: 'dist' | 'vite' | 'none';
  /** Where the built client lives (default: dist/client); tests point it at a small build of their own. */
  clientDir?: string;
  /** Called with each route as it is registered (the route-walk test lists every route this way). */
  onRoute?: (route: RouteOptions) => void;
  /** The time as the product's rules see it (deadlines, the 14-day check); tests move it. */
  clock?: () => Date;
  /** The object store; made from the configuration when not given (main.ts makes it, to log its driver). */
  storage?: ObjectStorage;
  /** How fast request bodies must keep arriving (default BODY_PROGRESS); tests shorten the window. */
  bodyProgress?: BodyProgress;
  /** How often an idle instance looks for webhook deliveries that are due (default 1 s). */
  webhookPollMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Background work, once across all instances (platform/jobs/job-queue.ts). */
    jobs: JobQueue;
    /** Emails, written with the change that causes them (platform/email/outbox.ts). */
    outbox: Outbox<EmailKinds>;
  }
}

/** The whole product as a Fastify instance that has not started listening. */
export async function buildApp({
  config,
  database,
  logger,
  client = 'dist',
  clientDir = clientDistDir,
  onRoute,
  clock = () => new Date(),
  storage = createObjectStorage(config),
  bodyProgress = BODY_PROGRESS,
  webhookPollMs = 1000,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: productLogger(logger ?? { level: config.logLevel }),
    logController: new RequestLog(),
    // Only the proxies TRUST_PROXY names may tell the client's address (CONTRACT §9); without
    // it, X-Forwarded-For is ignored and the TCP peer is the client. N hops: the N nearest.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The router's own refusals (a path that is not valid percent-encoded UTF-8) in the API's shape.
    frameworkErrors: (error, _request, reply) => {
      void (reply as unknown as FastifyReply).status(400).send(errorBody('invalid_url'));
    },
  });
  const { db } = database;
  useDecisionSettings(config.decisions);

  if (onRoute) app.addHook('onRoute', onRoute);
  registerErrorHandling(app);
  registerInputChecks(app);
  // First, so that its timing hook sees every route (CONTRACT §20).
  const metrics = collectMetrics(app, database);
  registerBodyProgress(app, bodyProgress);
  // Text responses of 1 KB or more, brotli or gzip as the browser accepts (CONTRACT §15). Small
  // answers are compressed in one synchronous call; binary types (audio, video, images) are left
  // alone by their MIME type. Request bodies are never inflated: uploads arrive as sent.
  await app.register(compress, { threshold: COMPRESS_THRESHOLD_BYTES, encodings: ['br', 'gzip'], globalDecompression: false });
  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(rateLimit, {
    global: false,
    // Counted in PostgreSQL so that a limit holds across instances; run after the route's guard
    // so that a signed-in user's limit follows the user (platform/rate-limits.ts).
    store: postgresRateLimitStore(db),
    hook: 'preHandler',
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl),
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 }, errorHandler: (error, socket, request) => handleSocketError(error, socket, request) });
  await registerSecurity(app, config.publicOrigin, storage.browserOrigins);
  await app.register(sessionsPlugin, { database, secureCookies: config.publicUrl.protocol === 'https:' });
  await app.register(realtimePlugin, { database, publicOrigin: config.publicOrigin });
  await app.register(userReadsPlugin, { database });

  const jobs = new JobQueue(database, app.log);
  app.decorate('jobs', jobs);
  const outbox = new Outbox(EMAIL_KINDS, db, jobs, config, app.log, { templates: EMAIL_TEMPLATES_MODULE });
  app.decorate('outbox', outbox);
  const production = createProductionServices({ db, config, storage, jobs, outbox, log: app.log, now: clock });

  // Every background job, in one list: each feature's *-jobs.ts declares its own (name, retries,
  // schedule), all in the one style `declare…Jobs(jobs, deps)`, and nothing else defines a job
  // (decision 200; the tree scan in domain/submission/transition.test.ts holds it). Workers start
  // once the app is ready (onReady below). The webhook dispatcher is not a job: it is a poller
  // every instance runs (CONTRACT §28), started and stopped beside the queue.
  const jobDeps = { db, database, config, storage, outbox, sessions: app.sessions, production, log: app.log, now: clock };
  const JOBS: ((jobs: JobQueue, deps: typeof jobDeps) => void)[] = [
    declareOutboxJobs,
    declareOperationsJobs,
    declareAuthJobs,
    declareUploadJobs,
    declareNotificationJobs,
    declareRefundJobs,
    declareDecisionJobs,
    declareProductionJobs,
  ];
  for (const declare of JOBS) declare(jobs, jobDeps);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok' };
    } catch {
      return reply.status(503).send(errorBody('database_unavailable'));
    }
  });
  app.get('/api/config', async (): Promise<PublicConfig> => ({
    stripePublishableKey: config.stripe?.publishableKey ?? null,
    googleEnabled: config.google !== undefined,
    signInProvider: config.signInProviderName ?? null,
    mailEnabled: app.outbox.smtpConfigured,
    vatRatePercent: config.billing.vatRatePercent ?? null,
    labelName: config.billing.legalName ?? null,
  }));

  await app.register(authRoutes, { db, config });
  await app.register(passwordResetRoutes, { db, config, storage });
  await app.register(accountRoutes, { db, config, storage });
  await app.register(teamRoutes, { db, config, storage });
  await app.register(profileRoutes, { db });
  await app.register(uploadRoutes, { db, config, storage });
  await app.register(submissionRoutes, { db, storage, config });
  await app.register(adminRoutes, { db, storage, config });
  await app.register(artistCommentRoutes, { db });
  await app.register(messageRoutes, { db, emailDelayS: config.mail.messageDelayS });
  await app.register(paymentRoutes, { db, config, now: clock });
  await app.register(billingRoutes, { db, config });
  await app.register(notificationRoutes, { db, config });
  await app.register(productionRoutes, { db, config, storage, now: clock, emailDelayS: config.mail.messageDelayS, services: production });
  await app.register(rightsRoutes, { db, config, now: clock });
  await app.register(handoverRoutes, { db, config, storage });
  await app.register(payeeRoutes, { db, config, now: clock });
  await app.register(metricsRoutes, { registry: metrics, token: config.metricsToken });

  await serveClient(app, client, clientDir);
  // The webhook outbox (CONTRACT §28): every instance sends what is due, each delivery claimed by one.
  const webhooks = new WebhookDispatcher(db, {
    tokenKey: config.production.tokenKey,
    allowPrivate: config.webhooks.allowPrivate,
    pollMs: webhookPollMs,
    log: app.log,
  });
  // Every job is defined by now; workers start once the app is ready and stop before the database closes.
  app.addHook('onReady', async () => {
    await jobs.start();
    await catchUpDecisionDeadlines(jobs);
    webhooks.start();
  });
  app.addHook('onClose', async () => {
    await webhooks.stop();
    await jobs.stop();
    await outbox.close();
  });
  return app;
}

const isApiPath = (url: string) => url.startsWith('/api/') || url.startsWith('/objects/') || url === '/ws';

async function serveClient(app: FastifyInstance, client: AppOptions['client'], clientDir: string) {
  const notFound = (url: string) => errorBody('route_not_found', `Route ${url.split('?')[0]} not found`);

  if (client === 'vite') {
    // Development: Vite's dev server with hot reload, on this same port.
    const { createServer } = await import('vite');
    const vite = await createServer({
      configFile: path.resolve(clientDistDir, '../../vite.config.ts'),
      server: { middlewareMode: true, hmr: { server: app.server } },
      appType: 'spa',
    });
    await app.register(import('@fastify/middie'));
    app.use((req, res, next) => {
      const url = req.url ?? '';
      if (isApiPath(url)) return next();
      // The addresses of a link in an email get their own light document, as the build serves them (decision 202).
      const query = url.indexOf('?');
      if (mailedLinkPage(query === -1 ? url : url.slice(0, query))) req.url = `/${MAILED_LINK_DOCUMENT}${query === -1 ? '' : url.slice(query)}`;
      vite.middlewares(req, res, next);
    });
    app.addHook('onClose', () => vite.close());
    app.setNotFoundHandler((request, reply) => reply.status(404).send(notFound(request.url)));
    return;
  }

  const documents = client === 'dist' ? firstPageDocuments(clientDir) : undefined;
  if (documents) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside every text asset (vite.config.ts): served as they
      // are, with no compression work per request.
      preCompressed: true,
      // Hashed assets never change; index.html must always be fetched fresh.
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.setNotFoundHandler(async (request, reply) => {
      if (request.method === 'GET' && !isApiPath(request.url)) {
        // The page says who is signed in (decision 144): never stored when it names someone, as
        // GET /api/user is not; otherwise fetched fresh each time like any index.html.
        const user = await app.sessions.currentUser(request);
        reply.header('cache-control', user ? 'private, no-store' : 'no-cache');
        return sendDocument(request, reply, documents.documentFor(request.url.split('?')[0]!, user && toPublicUser(user)));
      }
      return reply.status(404).send(notFound(request.url));
    });
    return;
  }

  app.setNotFoundHandler((request, reply) => reply.status(404).send(notFound(request.url)));
}
