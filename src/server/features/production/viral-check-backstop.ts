import { and, asc, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client';
import { publications } from '../../platform/db/schema';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { VIRAL_CHECK_JOB, viralCheckKey, type ViralCheckJob } from './publication';

export const VIRAL_CHECK_BACKSTOP_JOB = 'production.viral-check-backstop';
/** Every ten minutes: a lost check runs at most this much later than it could have. */
export const VIRAL_CHECK_BACKSTOP_CRON = '*/10 * * * *';
/** Due checks queued per run; more wait for the next run (each is a job of its own to carry out). */
const BATCH = 500;

/**
 * The backstop of the 14-day check (CONTRACT §13). The job queued with the publication can be
 * lost: its retries run out while YouTube is down, or pg-boss drops a job that waited past its
 * retention while the server was off. Every ten minutes this finds the publications whose
 * `checkAt` has passed and that have no reading yet (`publications_check_idx` holds exactly
 * those) and queues their check under the publication's own key, which `enqueue` skips while a
 * job with it is waiting, retrying or running. It is also how a check waiting for YouTube
 * Analytics (`checkRetryAt`) runs again: it is left alone until that time. The check itself
 * records one reading however often it runs, so a job added twice at the same moment costs one
 * more API read, nothing more.
 * Answers how many checks it queued.
 */
export async function queueLostViralChecks(
  deps: { db: Db; jobs: Pick<JobQueue, 'enqueue'>; log: FastifyBaseLogger },
  now: Date,
): Promise<number> {
  const due = await deps.db
    .select({ submissionId: publications.submissionId, checkAt: publications.checkAt })
    .from(publications)
    .where(and(isNull(publications.checkedAt), lte(publications.checkAt, now), or(isNull(publications.checkRetryAt), lte(publications.checkRetryAt, now))))
    .orderBy(asc(publications.checkAt))
    .limit(BATCH);
  let queued = 0;
  for (const row of due) {
    const job: ViralCheckJob = { submissionId: row.submissionId, checkAt: row.checkAt.toISOString() };
    if (await deps.jobs.enqueue(VIRAL_CHECK_JOB, job, { singletonKey: viralCheckKey(job) })) queued++;
  }
  if (queued > 0) deps.log.warn({ queued }, 'queued 14-day checks whose job was lost');
  return queued;
}
