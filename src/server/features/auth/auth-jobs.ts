import type { EmailQueue } from '../../domain/email/email-kinds';
import type { Db } from '../../platform/db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { pruneVerificationTokens } from './email-verification';
import { PASSWORD_RESET_JOB, prunePasswordResetTokens, queuePasswordResetEmail } from './password-reset';

/** The accounts feature's jobs, declared here and not inside a routes plugin (ARCHITECTURE "ways of working" 2). */
export function declareAuthJobs(jobs: JobQueue, { db, outbox }: { db: Db; outbox: EmailQueue }): void {
  // The request only enqueues the address, so its answer and timing say nothing (password-reset.ts).
  jobs.define<{ email: string }>(PASSWORD_RESET_JOB, { retryLimit: 5, retryDelayS: 5, retryBackoff: true, pollingIntervalS: 0.5 }, ({ email }) =>
    queuePasswordResetEmail(db, outbox, email),
  );
  jobs.every('maintenance.prune-password-reset-tokens', '23 * * * *', () => prunePasswordResetTokens(db));
  jobs.every('maintenance.prune-verification-tokens', '17 * * * *', () => pruneVerificationTokens(db));
}
