import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import {
  WEBHOOK_ENDPOINTS_MAX,
  createWebhookSchema,
  type CreatedWebhook,
  type WebhookAttempt,
  type WebhookDeliveredType,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@shared/webhooks';
import { OBJECT_ID_PATTERN } from '@shared/submissions';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookEndpointRow } from '../../platform/db/schema';
import { apiError, parseInput } from '../../platform/errors';
import { newId, newToken } from '../../platform/ids';
import { requireAdmin, userOf } from '../../platform/sessions';
import { privateAddressOf } from '../../platform/ssrf-guard';
import { sealToken } from '../../platform/token-box';
import { queueWebhookPing } from '../../domain/webhook/queue-webhook-event';

type WithId = { Params: { id: string } };
/** The attempts GET …/deliveries lists, newest first. */
const ATTEMPTS_LISTED = 100;

async function latestAttempts(db: Db, endpointIds: string[]): Promise<Map<string, WebhookEndpoint['lastDelivery']>> {
  const latest = new Map<string, WebhookEndpoint['lastDelivery']>();
  for (const endpointId of endpointIds) {
    const [row] = await db
      .select({ statusCode: webhookAttempts.statusCode, error: webhookAttempts.error, at: webhookAttempts.attemptedAt })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id))
      .limit(1);
    latest.set(endpointId, row ? { statusCode: row.statusCode, error: row.error, at: row.at.toISOString() } : null);
  }
  return latest;
}

const toEndpoint = (row: WebhookEndpointRow, lastDelivery: WebhookEndpoint['lastDelivery']): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.events as WebhookEventType[],
  createdAt: row.createdAt.toISOString(),
  lastDelivery,
});

/**
 * The label's webhook endpoints (CONTRACT §28), admins only: add one (its signing secret shown in
 * this answer only, stored sealed with the token key), list, remove, send a ping, and see every
 * attempt with its status code. A URL on a private or loopback address is refused unless
 * WEBHOOK_ALLOW_PRIVATE=1; the dispatcher checks again when it connects.
 */
export async function webhookRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  const allowPrivate = config.webhooks.allowPrivate;
  await app.register(async (team) => {
    team.addHook('onRequest', requireAdmin);
    team.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    team.addHook('preHandler', async (request: FastifyRequest) => {
      const { id } = (request.params ?? {}) as { id?: string };
      if (id !== undefined && !OBJECT_ID_PATTERN.test(id)) throw apiError('webhook_not_found');
    });

    const endpointOf = async (id: string) => {
      const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1);
      if (!row) throw apiError('webhook_not_found');
      return row;
    };

    team.get('/api/admin/webhooks', async () => {
      const rows = await db.select().from(webhookEndpoints).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
      const latest = await latestAttempts(db, rows.map((r) => r.id));
      return { endpoints: rows.map((r) => toEndpoint(r, latest.get(r.id) ?? null)) };
    });

    team.post('/api/admin/webhooks', async (request, reply) => {
      const input = parseInput(createWebhookSchema, request.body);
      const url = new URL(input.url);
      if (!allowPrivate) {
        const why = await privateAddressOf(url);
        if (why) throw apiError('webhook_url_private', `Webhooks go only to public addresses: ${why}`);
      }
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(webhookEndpoints);
      if (n >= WEBHOOK_ENDPOINTS_MAX) throw apiError('webhook_limit', `A label keeps at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints`);
      const secret = `whsec_${newToken(32)}`;
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ id: newId(), url: url.toString(), events: input.events, secret: sealToken(config.production.tokenKey, secret), createdBy: userOf(request).id })
        .returning();
      request.log.info({ webhookId: row!.id, adminId: userOf(request).id, events: input.events }, 'webhook endpoint added');
      const created: CreatedWebhook = { ...toEndpoint(row!, null), secret };
      return reply.status(201).send(created);
    });

    team.get<WithId>('/api/admin/webhooks/:id', async (request) => {
      const row = await endpointOf(request.params.id);
      const latest = await latestAttempts(db, [row.id]);
      return toEndpoint(row, latest.get(row.id) ?? null);
    });

    team.delete<WithId>('/api/admin/webhooks/:id', async (request, reply) => {
      const removed = await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, request.params.id)).returning({ id: webhookEndpoints.id });
      if (removed.length === 0) throw apiError('webhook_not_found');
      request.log.info({ webhookId: request.params.id, adminId: userOf(request).id }, 'webhook endpoint removed');
      return reply.status(204).send();
    });

    team.post<WithId>('/api/admin/webhooks/:id/ping', async (request, reply) => {
      const row = await endpointOf(request.params.id);
      const eventId = await db.transaction((tx) => queueWebhookPing(tx, row.id));
      return reply.status(202).send({ eventId });
    });

    team.get<WithId>('/api/admin/webhooks/:id/deliveries', async (request) => {
      const row = await endpointOf(request.params.id);
      const rows = await db
        .select({ attempt: webhookAttempts, delivery: webhookDeliveries, event: { id: webhookEvents.id, type: webhookEvents.type } })
        .from(webhookAttempts)
        .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(eq(webhookDeliveries.endpointId, row.id))
        .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.attempt))
        .limit(ATTEMPTS_LISTED);
      const pending = await db
        .select({ delivery: webhookDeliveries, event: { id: webhookEvents.id, type: webhookEvents.type } })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(and(eq(webhookDeliveries.endpointId, row.id), eq(webhookDeliveries.status, 'pending'), inArray(webhookDeliveries.attempts, [0])));
      const attempts: WebhookAttempt[] = rows.map(({ attempt, delivery, event }) => ({
        id: attempt.id,
        eventId: event.id,
        type: event.type as WebhookDeliveredType,
        attempt: attempt.attempt,
        statusCode: attempt.statusCode,
        error: attempt.error,
        durationMs: attempt.durationMs,
        at: attempt.attemptedAt.toISOString(),
        deliveryStatus: delivery.status,
        nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
      }));
      return {
        attempts,
        waiting: pending.map(({ delivery, event }) => ({ eventId: event.id, type: event.type as WebhookDeliveredType, nextAttemptAt: delivery.nextAttemptAt.toISOString() })),
      };
    });
  });
}
