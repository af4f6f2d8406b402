import type { EmailQueue } from '../../domain/email/email-kinds';
import type { Db } from '../../platform/db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { queueAdminDigests } from './admin-digest';

/** The notifications feature's jobs, declared here and not inside a routes plugin (ARCHITECTURE "ways of working" 2). */
export function declareNotificationJobs(jobs: JobQueue, { db, outbox }: { db: Db; outbox: EmailQueue }): void {
  // 08:00 UTC, before a European working day starts.
  jobs.every('notifications.admin-digest', '0 8 * * *', () => queueAdminDigests(db, outbox));
}
