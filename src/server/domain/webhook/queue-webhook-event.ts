import { arrayContains, eq } from 'drizzle-orm';
import { WEBHOOK_PING, type WebhookEventType } from '@shared/webhooks';
import type { Tx } from '../../platform/db/client';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../platform/db/schema';
import { newId } from '../../platform/ids';

/**
 * THE way a fact reaches the label's webhooks (CONTRACT §28, decision 198): written in the
 * transaction that records the fact, so the event exists exactly when the fact does — a rollback
 * leaves no event, a crash after commit loses none. One event row, and one delivery row for each
 * endpoint subscribed to `type` at that moment; the dispatcher (features/handover/webhook-dispatcher.ts)
 * sends them. Nothing is written when no endpoint listens. `data` is what the event says, made by
 * the writer of the fact (or a function that reads it, called only when someone listens); never a secret.
 */
export async function queueWebhookEvent(
  tx: Tx,
  type: WebhookEventType,
  data: Record<string, unknown> | (() => Promise<Record<string, unknown>>),
  now = new Date(),
): Promise<void> {
  const endpoints = await tx.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(arrayContains(webhookEndpoints.events, [type]));
  if (endpoints.length === 0) return;
  await insertEvent(tx, type, typeof data === 'function' ? await data() : data, endpoints.map((e) => e.id), now);
}

/** "Send a ping": an event for one endpoint only, delivered and retried like any other. */
export async function queueWebhookPing(tx: Tx, endpointId: string, now = new Date()): Promise<string> {
  const [endpoint] = await tx.select({ id: webhookEndpoints.id, url: webhookEndpoints.url }).from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
  if (!endpoint) throw new Error(`No webhook endpoint ${endpointId}`);
  return insertEvent(tx, WEBHOOK_PING, { endpointId: endpoint.id, url: endpoint.url }, [endpoint.id], now);
}

async function insertEvent(tx: Tx, type: string, data: Record<string, unknown>, endpointIds: string[], now: Date): Promise<string> {
  const id = newId();
  await tx.insert(webhookEvents).values({ id, type, data, createdAt: now });
  await tx.insert(webhookDeliveries).values(endpointIds.map((endpointId) => ({ id: newId(), eventId: id, endpointId, nextAttemptAt: now, createdAt: now })));
  return id;
}
