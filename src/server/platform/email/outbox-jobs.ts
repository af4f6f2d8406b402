import type { JobQueue } from '../jobs/job-queue';
import { SEND_EMAIL_JOB } from './outbox';

/** What the send job needs of the outbox: one attempt at one email (Outbox.deliver). */
interface OutboxDelivery {
  deliver(outboxId: string): Promise<void>;
}

/**
 * The outbox's job (docs/decisions/081, 082, 180), declared here like every job (decision 200): the
 * outbox writes each email with its `email.send` job in the caller's transaction, and this job
 * sends it, up to 4 at a time per instance.
 */
export function declareOutboxJobs(jobs: JobQueue, { outbox }: { outbox: OutboxDelivery }): void {
  jobs.define<{ outboxId: string }>(
    SEND_EMAIL_JOB,
    // 10 s, 20 s, 40 s … the handler itself gives up once the email is 24 hours old. An attempt
    // whose process died is retried once it has been running 60 s (the render's 15 s timeout
    // and the mailer's timeouts add up to less) and the queue's maintenance has noticed: within
    // about 1.5 minutes.
    { retryLimit: 16, retryDelayS: 10, retryBackoff: true, expireInS: 60, pollingIntervalS: 0.5, concurrency: 4 },
    ({ outboxId }) => outbox.deliver(outboxId),
  );
}
