import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, isNull, lte, lt, or } from 'drizzle-orm';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_WAITS_S, WEBHOOK_TIMEOUT_MS } from '@shared/webhooks';
import type { Db } from '../../platform/db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookDeliveryRow } from '../../platform/db/schema';
import { newId } from '../../platform/ids';
import { guardedAgent } from '../../platform/ssrf-guard';
import { openToken } from '../../platform/token-box';

/** How long a claimed delivery is this instance's: well past the 10 s timeout, short enough that a crash delays it little. */
const LEASE_MS = 60_000;
/** Deliveries claimed at once by one instance. */
const BATCH = 8;
/** Deliveries stop being retried this long after their event (CONTRACT §28). */
const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Bytes of a receiver's answer read (and dropped) at most. */
const ANSWER_MAX_BYTES = 64 * 1024;

/** `Hub-Signature: t={unix seconds},v1={hex HMAC-SHA256 of "{t}.{body}"}` (CONTRACT §28). */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** When attempt `attempts + 1` is due after `attempts` failures, or null: give up. */
export function nextAttemptAt(attempts: number, eventCreatedAt: Date, now: Date): Date | null {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const wait = WEBHOOK_RETRY_WAITS_S[attempts - 1];
  if (wait === undefined) return null;
  const at = new Date(now.getTime() + wait * 1000);
  return at.getTime() - eventCreatedAt.getTime() > RETRY_WINDOW_MS ? null : at;
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One POST of `body`, no redirect followed, answered within the timeout or failed. */
function post(url: URL, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<Outcome> {
  const started = Date.now();
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: Omit<Outcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: Date.now() - started });
    };
    const req = client.request(url, {
      method: 'POST',
      agent: guardedAgent(url, { allowPrivate }),
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`));
    }, WEBHOOK_TIMEOUT_MS);
    req.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > ANSWER_MAX_BYTES) response.destroy();
      });
      const finish = () => {
        const status = response.statusCode ?? 0;
        done({ statusCode: status, error: status >= 200 && status < 300 ? null : `The endpoint answered ${status}` });
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
    });
    req.on('error', (error) => done({ statusCode: null, error: error.message.slice(0, 300) }));
    req.end(body);
  });
}

/**
 * Sends the webhook outbox (decision 198). Every instance runs one: it claims due deliveries
 * with FOR UPDATE SKIP LOCKED and a lease (as the YouTube uploads are claimed), so each attempt
 * is made by one instance; a claim whose instance died lapses and another takes it. Each attempt
 * is recorded with its status code; a failure is retried after WEBHOOK_RETRY_WAITS_S, at most 12
 * attempts within 24 hours, always with the same event id.
 */
export class WebhookDispatcher {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly options: { tokenKey: Buffer; allowPrivate: boolean; pollMs: number; log: FastifyBaseLogger },
  ) {}

  /** Looks first after one polling interval: the app's other start-up work has the database first. */
  start(): void {
    this.stopped = false;
    this.schedule(this.options.pollMs);
  }

  /** Stops claiming; waits (briefly) for attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const deadline = Date.now() + WEBHOOK_TIMEOUT_MS + 1000;
    while (this.inFlight.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => setTimeout(resolve, 100))]);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  /** One round: claim what is due, send it; again at once if the round was full. */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let claimed: WebhookDeliveryRow[] = [];
    try {
      claimed = await this.claim();
      const round = Promise.allSettled(claimed.map((d) => this.attempt(d))).then(() => undefined);
      this.inFlight.add(round);
      await round;
      this.inFlight.delete(round);
    } catch (error) {
      if (!this.stopped) this.options.log.warn({ err: error }, 'the webhook dispatcher could not claim deliveries');
    } finally {
      this.running = false;
      this.schedule(claimed.length === BATCH ? 0 : this.options.pollMs);
    }
    return claimed.length;
  }

  private async claim(): Promise<WebhookDeliveryRow[]> {
    const now = new Date();
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.status, 'pending'),
            lte(webhookDeliveries.nextAttemptAt, now),
            or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
          ),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      const rows: WebhookDeliveryRow[] = [];
      for (const { id } of due) {
        const [row] = await tx
          .update(webhookDeliveries)
          .set({ leaseUntil: new Date(now.getTime() + LEASE_MS) })
          .where(eq(webhookDeliveries.id, id))
          .returning();
        if (row) rows.push(row);
      }
      return rows;
    });
  }

  /** One attempt at one claimed delivery, recorded; the lease is what makes it ours. */
  private async attempt(delivery: WebhookDeliveryRow): Promise<void> {
    const [joined] = await this.db
      .select({ event: webhookEvents, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, delivery.id));
    if (!joined) return; // the endpoint was removed meanwhile: its deliveries went with it
    const { event, endpoint } = joined;
    const body = JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data });
    let outcome: Outcome;
    let secret: string | null = null;
    try {
      secret = openToken(this.options.tokenKey, endpoint.secret);
    } catch {
      // Restored on another key (CONTRACT §23: a backup is not a key): the secret is gone for good.
      outcome = { statusCode: null, error: 'The signing secret does not open with this server’s key: remove the endpoint and add it again', durationMs: 0 };
    }
    if (secret !== null) {
      const t = Math.floor(Date.now() / 1000);
      outcome = await post(
        new URL(endpoint.url),
        body,
        {
          'content-type': 'application/json',
          'user-agent': 'LabelSubmissionHub-Webhooks/1.0',
          'hub-signature': signWebhook(secret, body, t),
          'hub-event-id': event.id,
          'hub-event-type': event.type,
        },
        this.options.allowPrivate,
      );
    }
    await this.record(delivery, event.createdAt, outcome!, secret === null);
  }

  private async record(delivery: WebhookDeliveryRow, eventCreatedAt: Date, outcome: Outcome, hopeless: boolean): Promise<void> {
    const now = new Date();
    const attempt = delivery.attempts + 1;
    const delivered = outcome.error === null;
    const next = delivered || hopeless ? null : nextAttemptAt(attempt, eventCreatedAt, now);
    await this.db.transaction(async (tx) => {
      // Still ours: the lease we took (a lapsed lease taken over by another instance is theirs now).
      const [mine] = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempts), eq(webhookDeliveries.status, 'pending')))
        .for('update');
      if (!mine) return;
      await tx.insert(webhookAttempts).values({
        id: newId(),
        deliveryId: delivery.id,
        attempt,
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs: outcome.durationMs,
        attemptedAt: now,
      });
      await tx
        .update(webhookDeliveries)
        .set({
          attempts: attempt,
          leaseUntil: null,
          ...(delivered ? { status: 'delivered' as const, deliveredAt: now } : next ? { nextAttemptAt: next } : { status: 'failed' as const }),
        })
        .where(eq(webhookDeliveries.id, delivery.id));
    });
    if (!delivered && !next) this.options.log.warn({ deliveryId: delivery.id, attempts: attempt }, 'webhook delivery given up');
  }
}
