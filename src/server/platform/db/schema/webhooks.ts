// Handover's webhooks: endpoints, events, deliveries and their attempts (CONTRACT §28). One area of the schema (index.ts, decision 200).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf } from './columns';
import { users } from './accounts';
// Relative, not '@shared/…': drizzle-kit loads these files without the tsconfig path aliases.
import { WEBHOOK_DELIVERY_STATUSES } from '../../../../shared/webhooks';

/**
 * An endpoint of the label's other tools that receives webhooks (CONTRACT §28). `secret` is the
 * signing secret sealed with the token key (platform/token-box.ts), never the secret itself.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  secret: text('secret').notNull(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A fact as it happened, written in the transaction that made it (domain/webhook/queue-webhook-event.ts). */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The webhook outbox: one row per event and endpoint, claimed by one instance at a time
 * (`leaseUntil`), retried at `nextAttemptAt` until delivered or given up (decision 198).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_key').on(t.eventId, t.endpointId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    oneOf('webhook_deliveries_status_check', t.status, WEBHOOK_DELIVERY_STATUSES),
  ],
);

/** Each attempt at a delivery, with the receiver's status code (null: no answer). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_key').on(t.deliveryId, t.attempt)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
