import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { LATE_REFUND_JOB, REJECTION_REFUND_JOB, refundLateDeliveries, refundRejected } from '../../domain/billing/refunds';
import type { Db } from '../../platform/db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { createStripeClient } from '../../platform/stripe/stripe-client';

interface RefundJobDeps {
  db: Db;
  config: Config;
  outbox: EmailQueue;
  log: FastifyBaseLogger;
  /** The time as the feature sees it: a test moves it; the queue's own timing stays the database's. */
  now: () => Date;
}

/**
 * The billing feature's jobs, declared here and not inside a routes plugin (ARCHITECTURE "ways of
 * working" 2). Both call the one refund rule in domain/billing/refunds.ts that the routes call:
 * the backstop finds every rejected, paid, undelivered submission not refunded yet (CONTRACT §19);
 * with LATE_DELIVERY_REFUND=auto, every paid one past its deadline (§13). Every 5 minutes, once
 * across all instances. Without Stripe there is nothing to refund with, so neither is scheduled.
 */
export function declareRefundJobs(jobs: JobQueue, { db, config, outbox, log, now }: RefundJobDeps): void {
  if (!config.stripe) return;
  const stripe = createStripeClient(config.stripe);
  jobs.every(REJECTION_REFUND_JOB, '*/5 * * * *', () => refundRejected(db, stripe, outbox, { actorId: null, now: now(), seller: config.billing }, log));
  if (config.production.lateDeliveryRefund === 'auto') {
    jobs.every(LATE_REFUND_JOB, '*/5 * * * *', () => refundLateDeliveries(db, stripe, outbox, { now: now(), seller: config.billing }, log));
  }
}
