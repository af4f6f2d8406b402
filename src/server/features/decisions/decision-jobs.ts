import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { runDecisionDeadlines, type DeadlineOutcome } from '../../domain/submission/decision-deadlines';
import type { EmailQueue } from '../../domain/email/email-kinds';
import type { Db } from '../../platform/db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { createStripeClient } from '../../platform/stripe/stripe-client';

/** Every minute, once across all instances: what fell due since (CONTRACT §26). */
export const DECISION_DEADLINES_JOB = 'decisions.deadlines';
/** One run at the very moment the next reminder or date falls due, queued by the run before. */
export const DECISION_TICK_JOB = 'decisions.tick';
/** A tick is queued for a moment within this horizon; later ones are found by a later run. */
const TICK_HORIZON_MS = 90_000;

interface DecisionJobDeps {
  db: Db;
  config: Config;
  outbox: EmailQueue;
  log: FastifyBaseLogger;
}

/**
 * The decision clock's jobs (CONTRACT §26, decision 196). The minute's run is the backstop: after a
 * restart, or with nothing queued, whatever fell due is done within a minute of its time, once
 * across all instances (the queue's cron runs it on one; each action is claimed by its own
 * conditional write, so even two runs at once do each thing once). Each run also queues one tick
 * at the next moment due within the next minute and a half (keyed by that moment, so two runs queue
 * one), which brings reminders and late actions to within seconds of their time.
 *
 * The clock starts on the real time of the change that starts it (the one transition), so its
 * deadlines are kept on that same time, not on the clock a test moves for another feature.
 */
export function declareDecisionJobs(jobs: JobQueue, { db, config, outbox, log }: DecisionJobDeps): void {
  const now = () => new Date();
  const stripe = config.stripe ? createStripeClient(config.stripe) : null;
  const deps = { db, outbox, stripe, seller: config.billing, log };
  const run = async (): Promise<DeadlineOutcome> => {
    const at = now();
    const outcome = await runDecisionDeadlines(deps, at);
    if (outcome.next && outcome.next.getTime() - at.getTime() <= TICK_HORIZON_MS) {
      await jobs.enqueue(DECISION_TICK_JOB, {}, { startAfter: outcome.next, singletonKey: outcome.next.toISOString() });
    }
    if (outcome.reminded + outcome.overdue + outcome.refunded + outcome.closed > 0) log.info({ ...outcome }, 'decision deadlines kept');
    return outcome;
  };
  jobs.every(DECISION_DEADLINES_JOB, '* * * * *', run, { pollingIntervalS: 5 });
  jobs.define(DECISION_TICK_JOB, { retryLimit: 2, retryDelayS: 5, retryBackoff: false, expireInS: 300, pollingIntervalS: 1 }, run);
}

/**
 * Once the queue has started: one tick now, so what fell due while no instance ran (a restart, a
 * deploy) is done within seconds rather than at the next minute. Keyed, so instances starting
 * together queue one.
 */
export async function catchUpDecisionDeadlines(jobs: JobQueue): Promise<void> {
  await jobs.enqueue(DECISION_TICK_JOB, {}, { singletonKey: 'catch-up' });
}
