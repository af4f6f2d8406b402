import type { FastifyInstance } from 'fastify';
import { notificationSettingsSchema, outboxQuerySchema, unsubscribeSchema, type UnsubscribeResult } from '@shared/notifications';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { getNotificationSettings, updateNotificationSettings } from '../../platform/email/notification-settings';
import { readUnsubscribeToken } from '../../platform/email/unsubscribe-token';
import { apiError, parseInput } from '../../platform/errors';
import { requireAdmin, requireUser, userOf } from '../../platform/sessions';

const partialSettingsSchema = notificationSettingsSchema.partial();

/** Email preferences, one-click unsubscribe (RFC 8058) and the team's Outbox (CONTRACT §10). */
export async function notificationRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  app.get('/api/notification-settings', { preHandler: requireUser }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return getNotificationSettings(db, userOf(request).id);
  });

  app.put('/api/notification-settings', { preHandler: requireUser }, async (request) => {
    const change = parseInput(partialSettingsSchema, request.body);
    return updateNotificationSettings(db, userOf(request).id, change);
  });

  // Mail providers post `List-Unsubscribe=One-Click` as a form (RFC 8058); the token is in the URL.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) =>
    done(null, body),
  );
  // A plain GET of the List-Unsubscribe URL is a person's browser (mail clients open it there):
  // the page that asks, whose one button posts. Opening a link changes nothing (mail scanners open links).
  app.get('/api/unsubscribe', async (request, reply) => {
    const { token } = parseInput(unsubscribeSchema, request.query);
    reply.header('cache-control', 'no-store');
    return reply.redirect(`/unsubscribe?${new URLSearchParams({ token }).toString()}`, 303);
  });
  app.post('/api/unsubscribe', async (request): Promise<UnsubscribeResult> => {
    const { token } = parseInput(unsubscribeSchema, request.query);
    const target = readUnsubscribeToken(config.sessionSecret, token);
    if (!target) throw apiError('invalid_unsubscribe_link');
    try {
      await updateNotificationSettings(db, target.userId, { [target.preference]: false });
    } catch (error) {
      // The account is gone: there is nothing left to send to it either way.
      if (!isForeignKeyViolation(error)) throw error;
    }
    request.log.info({ userId: target.userId, preference: target.preference }, 'unsubscribed');
    return { preference: target.preference };
  });

  app.get('/api/admin/outbox', { preHandler: requireAdmin }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return app.outbox.list(parseInput(outboxQuerySchema, request.query));
  });
}

function isForeignKeyViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && depth < 3; depth++) {
    if ((e as { code?: unknown }).code === '23503') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
