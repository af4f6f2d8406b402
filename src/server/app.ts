import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { PublicConfig } from '@shared/api';
import type { Config } from './config';
import { adminRoutes } from './features/admin/routes';
import { authRoutes } from './features/auth/routes';
import { pruneLoginFailures } from './features/auth/login-throttle';
import { messageRoutes } from './features/messages/routes';
import { paymentRoutes } from './features/payments/routes';
import { profileRoutes } from './features/profile/routes';
import { submissionRoutes } from './features/submissions/routes';
import { uploadRoutes } from './features/uploads/routes';
import type { Database } from './platform/db/client';
import { registerErrorHandling } from './platform/errors';
import { Maintenance } from './platform/maintenance';
import { realtimePlugin } from './platform/realtime/plugin';
import { registerSecurity } from './platform/security';
import { sessionsPlugin } from './platform/sessions';
import { createObjectStorage, storageConnectSources } from './platform/storage/create-storage';
import { removeUnattachedUploads } from './platform/storage/upload-files';

export const clientDistDir = fileURLToPath(new URL('../../dist/client', import.meta.url));

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Serve the client: from the build (default), through Vite's dev server, or not at all (API tests). */
  client?: 'dist' | 'vite' | 'none';
}

declare module 'fastify' {
  interface FastifyInstance {
    maintenance: Maintenance;
  }
}

/** The whole product as a Fastify instance that has not started listening. */
export async function buildApp({ config, database, logger, client = 'dist' }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    // Behind a proxy the client's address (for login throttling) comes from X-Forwarded-For.
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  });
  const { db } = database;
  const storage = createObjectStorage(config);

  registerErrorHandling(app);
  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(rateLimit, { global: false });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await registerSecurity(app, config.publicOrigin, storageConnectSources(config));
  await app.register(sessionsPlugin, { db, secureCookies: config.publicUrl.protocol === 'https:' });
  await app.register(realtimePlugin, { database, publicOrigin: config.publicOrigin });

  const maintenance = new Maintenance(app.log);
  app.decorate('maintenance', maintenance);
  maintenance.add({ name: 'prune expired sessions', run: () => app.sessions.pruneExpired() });
  maintenance.add({ name: 'prune old login failures', run: () => pruneLoginFailures(db) });
  maintenance.add({ name: 'remove unattached uploads', run: () => removeUnattachedUploads(db, storage) });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ message: 'Database unavailable' });
    }
  });
  app.get('/api/config', async (): Promise<PublicConfig> => ({
    stripePublishableKey: config.stripe?.publishableKey ?? null,
    googleEnabled: config.google !== undefined,
  }));

  await app.register(authRoutes, { db, config });
  await app.register(profileRoutes, { db });
  await app.register(uploadRoutes, { db, config, storage });
  await app.register(submissionRoutes, { db, storage });
  await app.register(adminRoutes, { db, storage });
  await app.register(messageRoutes, { db });
  await app.register(paymentRoutes, { db, config });

  await serveClient(app, client);
  app.addHook('onReady', async () => maintenance.start());
  app.addHook('onClose', async () => maintenance.stop());
  return app;
}

const isApiPath = (url: string) => url.startsWith('/api/') || url.startsWith('/objects/') || url === '/ws';

async function serveClient(app: FastifyInstance, client: AppOptions['client']) {
  const notFound = (url: string) => ({ message: `Route ${url.split('?')[0]} not found` });

  if (client === 'vite') {
    // Development: Vite's dev server with hot reload, on this same port.
    const { createServer } = await import('vite');
    const vite = await createServer({
      configFile: path.resolve(clientDistDir, '../../vite.config.ts'),
      server: { middlewareMode: true, hmr: { server: app.server } },
      appType: 'spa',
    });
    await app.register(import('@fastify/middie'));
    app.use((req, res, next) => (isApiPath(req.url ?? '') ? next() : vite.middlewares(req, res, next)));
    app.addHook('onClose', () => vite.close());
    app.setNotFoundHandler((request, reply) => reply.status(404).send(notFound(request.url)));
    return;
  }

  if (client === 'dist' && existsSync(path.join(clientDistDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: clientDistDir,
      wildcard: false,
      index: false,
      // Hashed assets never change; index.html must always be fetched fresh.
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.setNotFoundHandler((request, reply) => {
      if (request.method === 'GET' && !isApiPath(request.url)) {
        reply.header('cache-control', 'no-cache');
        return reply.sendFile('index.html');
      }
      return reply.status(404).send(notFound(request.url));
    });
    return;
  }

  app.setNotFoundHandler((request, reply) => reply.status(404).send(notFound(request.url)));
}
