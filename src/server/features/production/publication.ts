import type { FastifyBaseLogger } from 'fastify';
import { and, asc, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { analyticsRetryAt, isViralHit, viewsNeeded, viewWindow, viralCheckAt, type CountSource, type Publication } from '@shared/production';
import { VIRAL_HITS_NEEDED } from '@shared/production-texts';
import { isPublishable } from '@shared/submissions';
import { transitionSubmissions } from '../../domain/submission/transition';
import type { Db, Tx } from '../../platform/db/client';
import { bonusEarnings, dailyViews, publications, submissions, users, viewReadings } from '../../platform/db/schema';
import type { EmailQueue } from '../../domain/email/email-kinds';
import { apiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { JobQueue } from '../../platform/jobs/job-queue';
import { lockDeskSubmission } from './access';
import type { LabelChannel } from './channel';
import { readSubscriberCount, readViewCount, youTubeVideoId, YouTubeError, type YouTubeConfig } from './youtube';
import { readDailyViews } from './youtube-api';
import { recordHistory, type HistoryEntry } from '../../domain/submission/history';
import { recordEarningShares } from '../../domain/bonus/earning-shares';

export const VIRAL_CHECK_JOB = 'production.viral-check';
export interface ViralCheckJob {
  submissionId: string;
  /** The check this job was scheduled for; a publication moved to another date has another job. */
  checkAt: string;
}

/** One live job per publication and date: the key `enqueue` dedupes on (the publication, the backstop). */
export const viralCheckKey = (job: ViralCheckJob) => `viral-check:${job.submissionId}:${job.checkAt}`;

/** Once the check has run, its figures stay: a later view count is a correction, not a new publication. */
const CHECK_HAS_RUN = 'The 14-day check has run: correct its views instead';

export interface PublicationDeps {
  db: Db;
  jobs: Pick<JobQueue, 'enqueue'>;
  outbox: EmailQueue;
  youtube: YouTubeConfig | undefined;
  /** The label's channel connected by OAuth (CONTRACT §16); when connected, it is read instead of the API key. */
  channel?: LabelChannel | undefined;
  bonusPerTrackUsd: string;
  log: FastifyBaseLogger;
}

/**
 * PUT /api/admin/submissions/{id}/publication (CONTRACT §13): records the video's URL and the
 * publishing time, locks the channel's subscriber count (read from the YouTube Data API when it
 * is configured, else as the team entered it) and sets the status `published`. The 14-day check
 * is queued in the same transaction, to start at `publishedAt + 14 days` (at once when that is
 * already past). The first recording emails the artist, and earns the bonus when the artist
 * already has three hits.
 *
 * Once the check has run, the publication is fixed: the figures it was judged on stay.
 */
export async function recordPublication(
  deps: PublicationDeps,
  adminId: string,
  submissionId: string,
  input: { videoUrl: string; publishedAt: string; subscriberCount?: number | undefined },
  now: Date,
  /** The admin's override of the rights gate (`requireRights`), recorded with the publication. */
  rightsOverride: HistoryEntry | null = null,
): Promise<void> {
  const { db, youtube } = deps;
  const publishedAt = new Date(input.publishedAt);
  const [existing] = await db.select().from(publications).where(eq(publications.submissionId, submissionId));
  if (existing?.checkedAt) throw apiError('conflict', CHECK_HAS_RUN);

  // Read before the transaction: a slow API must not hold the row lock. Locked once read.
  let subscribers: { count: number; source: CountSource };
  if (existing?.subscriberSource === 'youtube') subscribers = { count: existing.subscriberCount, source: 'youtube' };
  else if ((await deps.channel?.isConnected()) || youtube) {
    try {
      // A connected channel takes precedence over the API key (CONTRACT §16).
      const count = (await deps.channel?.isConnected()) ? await deps.channel!.subscriberCount() : await readSubscriberCount(youtube!);
      subscribers = { count, source: 'youtube' };
    } catch (error) {
      deps.log.error({ err: error, submissionId }, 'could not read the subscriber count');
      throw apiError('youtube_unavailable');
    }
  } else if (input.subscriberCount !== undefined) subscribers = { count: input.subscriberCount, source: 'admin' };
  else if (existing) subscribers = { count: existing.subscriberCount, source: 'admin' };
  else throw apiError('subscriber_count_required');

  const checkAt = viralCheckAt(publishedAt);
  await db.transaction(async (tx) => {
    const submission = await lockDeskSubmission(tx, submissionId);
    if (!isPublishable(submission.status)) throw apiError('not_ready_to_publish');
    const values = {
      videoUrl: input.videoUrl,
      publishedAt,
      subscriberCount: subscribers.count,
      subscriberSource: subscribers.source,
      checkAt,
      publishedBy: adminId,
      updatedAt: now,
    };
    const [written] = await tx
      .insert(publications)
      .values({ submissionId, ...values })
      .onConflictDoUpdate({ target: publications.submissionId, set: values, setWhere: sql`${publications.checkedAt} is null` })
      .returning({ submissionId: publications.submissionId });
    if (!written) throw apiError('conflict', CHECK_HAS_RUN);
    if (rightsOverride) await recordHistory(tx, submissionId, rightsOverride);
    await transitionSubmissions(tx, [submission], { to: 'published', reason: 'published', by: adminId, now });
    await recordHistory(tx, submissionId, {
      kind: 'publication',
      by: adminId,
      from: existing?.videoUrl ?? null,
      to: `${input.videoUrl} at ${publishedAt.toISOString()}`,
      at: now,
    });

    const job: ViralCheckJob = { submissionId, checkAt: checkAt.toISOString() };
    await deps.jobs.enqueue(VIRAL_CHECK_JOB, job, { startAfter: checkAt, singletonKey: viralCheckKey(job), tx });

    if (!existing) {
      await deps.outbox.queue(tx, {
        kind: 'video_published',
        userId: submission.userId,
        data: {
          submissionId,
          songTitle: submission.songTitle,
          videoUrl: input.videoUrl,
          publishedAt: publishedAt.toISOString(),
          checkAt: checkAt.toISOString(),
          viewsNeeded: viewsNeeded(subscribers.count),
        },
      });
      await earnBonusIfUnlocked(tx, deps.outbox, submission.userId, submissionId, deps.bonusPerTrackUsd, now);
    }
  });
}

/** Hits recorded for the artist so far. */
async function viralHitsOf(tx: Tx | Db, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(publications)
    .innerJoin(submissions, eq(submissions.id, publications.submissionId))
    .where(and(eq(submissions.userId, userId), eq(publications.viralHit, true), isNotNull(publications.hitRecordedAt)));
  return row?.n ?? 0;
}

/**
 * SPEC §1: after the third hit, each track published later earns BONUS_PER_TRACK_USD, split among
 * the song's owners (CONTRACT §24). The artist's row is locked so two publications at once count the same hits.
 */
async function earnBonusIfUnlocked(tx: Tx, outbox: EmailQueue, userId: string, submissionId: string, amount: string, now: Date): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  if ((await viralHitsOf(tx, userId)) < VIRAL_HITS_NEEDED) return;
  const earned = await tx.insert(bonusEarnings).values({ submissionId, userId, amount, createdAt: now }).onConflictDoNothing().returning({ id: bonusEarnings.submissionId });
  // Split among the song's owners as they stand now (CONTRACT §24); each co-owner's first share mails their link.
  if (earned.length > 0) await recordEarningShares(tx, outbox, submissionId, now);
}

/**
 * Records a view count at 14 days (the check's reading or a correction), decides the hit by the
 * rule, keeps the reading in the history and tells the artist of a new hit.
 */
async function recordViews(
  tx: Tx,
  outbox: EmailQueue,
  publication: typeof publications.$inferSelect,
  reading: { views: number; source: CountSource; recordedBy: string | null },
  now: Date,
  check?: { lateSeconds: number },
): Promise<void> {
  const hit = isViralHit(reading.views, publication.subscriberCount);
  const newHit = hit && !publication.hitRecordedAt;
  await tx
    .update(publications)
    .set({
      viewsAt14Days: reading.views,
      viralHit: hit,
      hitRecordedAt: hit ? (publication.hitRecordedAt ?? now) : null,
      ...(check ? { checkedAt: now, checkLateSeconds: check.lateSeconds } : {}),
      updatedAt: now,
    })
    .where(eq(publications.submissionId, publication.submissionId));
  await tx.insert(viewReadings).values({
    id: newId(),
    submissionId: publication.submissionId,
    views: reading.views,
    source: reading.source,
    recordedBy: reading.recordedBy,
    recordedAt: now,
  });
  await recordHistory(tx, publication.submissionId, {
    kind: 'views',
    by: reading.recordedBy,
    from: publication.viewsAt14Days === null ? null : String(publication.viewsAt14Days),
    to: String(reading.views),
    at: now,
  });
  if (newHit) {
    const [submission] = await tx
      .select({ userId: submissions.userId, songTitle: submissions.songTitle })
      .from(submissions)
      .where(eq(submissions.id, publication.submissionId));
    await outbox.queue(tx, {
      kind: 'viral_hit_recorded',
      userId: submission!.userId,
      data: {
        submissionId: publication.submissionId,
        songTitle: submission!.songTitle,
        views: reading.views,
        subscriberCount: publication.subscriberCount,
        viralHits: await viralHitsOf(tx, submission!.userId),
        hitsNeeded: VIRAL_HITS_NEEDED,
      },
    });
  }
}

type CheckOutcome = 'recorded' | 'awaiting_admin' | 'awaiting_analytics' | 'already_checked' | 'rescheduled' | 'stale';

/**
 * The 14-day check (the `production.viral-check` job). Runs once per publication: the row is
 * locked and a checked one is left alone, so a job delivered twice, or by two instances, records
 * one reading. How late it ran (a server that was down at `checkAt`) is recorded. With the
 * channel connected it sums the window's days from Analytics, and while the last day is not
 * reported yet it waits (`checkRetryAt`, see `analyticsRetryAt`); with only an API key it reads
 * `viewCount`; without either, it marks the check due for the team to enter.
 */
export async function runViralCheck(
  deps: Pick<PublicationDeps, 'db' | 'outbox' | 'youtube' | 'jobs' | 'log' | 'channel'>,
  job: ViralCheckJob,
  now: Date,
): Promise<CheckOutcome> {
  const { db, youtube } = deps;
  const [publication] = await db.select().from(publications).where(eq(publications.submissionId, job.submissionId));
  if (!publication || publication.checkAt.toISOString() !== job.checkAt) return 'stale';
  if (publication.checkedAt) return 'already_checked';
  if (publication.checkAt > now) {
    // Started before its time (clocks of the database and this server disagree): try again then.
    await deps.jobs.enqueue(VIRAL_CHECK_JOB, job, { startAfter: publication.checkAt });
    return 'rescheduled';
  }
  const channelConnected = (await deps.channel?.isConnected()) ?? false;
  const videoId = youtube || channelConnected ? youTubeVideoId(publication.videoUrl) : null;
  let views: number | null = null;
  /** Set when Analytics has not reported the window's last day yet and the check may still wait. */
  let retryAt: Date | null = null;
  if (channelConnected && videoId) {
    // The channel's analytics: the sum of exactly the window's 14 days, however late this runs.
    try {
      const window = await readWindowViews(deps.channel!, deps.db, publication, videoId, now);
      views = window.views;
      if (!window.complete) {
        retryAt = analyticsRetryAt(publication.checkAt, now);
        if (!retryAt) deps.log.warn({ submissionId: job.submissionId }, 'YouTube Analytics never reported the window’s last day: recording the days it did');
      }
    } catch (error) {
      deps.log.warn({ err: error, submissionId: job.submissionId }, 'viral check could not read the analytics');
      throw error;
    }
  } else if (youtube && videoId) {
    try {
      views = await readViewCount(youtube, videoId);
    } catch (error) {
      // Thrown on: the queue retries with backoff, and lateness is measured at the reading that works.
      if (error instanceof YouTubeError) deps.log.warn({ err: error, submissionId: job.submissionId }, 'viral check could not read views');
      throw error;
    }
  }
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(publications).where(eq(publications.submissionId, job.submissionId)).for('update');
    if (!locked || locked.checkAt.toISOString() !== job.checkAt) return 'stale';
    if (locked.checkedAt) return 'already_checked';
    if (retryAt) {
      // The backstop (viral-check-backstop.ts) runs the check again once this time has passed.
      await tx.update(publications).set({ checkRetryAt: retryAt, updatedAt: now }).where(eq(publications.submissionId, job.submissionId));
      return 'awaiting_analytics';
    }
    // How late this try ran against when it was due: day 14, or the retry after waiting for Analytics.
    const dueAt = locked.checkRetryAt ?? locked.checkAt;
    const lateSeconds = Math.max(0, Math.round((now.getTime() - dueAt.getTime()) / 1000));
    if (views === null) {
      await tx
        .update(publications)
        .set({ checkedAt: now, checkLateSeconds: lateSeconds, updatedAt: now })
        .where(eq(publications.submissionId, job.submissionId));
      return 'awaiting_admin';
    }
    await recordViews(tx, deps.outbox, locked, { views, source: 'youtube', recordedBy: null }, now, { lateSeconds });
    return 'recorded';
  });
}

/**
 * The window's daily views from the Analytics API (`day` rows from the publish date to 13 days
 * later), kept in `daily_views` for the artist's chart: the sum of the days reported so far, and
 * whether the window's last day is among them (Analytics reports days two to three days late).
 */
export async function readWindowViews(
  channel: LabelChannel,
  db: Db,
  publication: { submissionId: string; publishedAt: Date },
  videoId: string,
  now: Date,
): Promise<{ views: number; complete: boolean }> {
  const { startDate, endDate } = viewWindow(publication.publishedAt);
  const rows = await channel.withToken((token) => readDailyViews(channel.urls, token, videoId, startDate, endDate));
  const inWindow = rows.filter((r) => r.date >= startDate && r.date <= endDate);
  for (const row of inWindow) {
    await db
      .insert(dailyViews)
      .values({ submissionId: publication.submissionId, day: row.date, views: row.views, recordedAt: now })
      .onConflictDoUpdate({ target: [dailyViews.submissionId, dailyViews.day], set: { views: row.views, recordedAt: now } });
  }
  return { views: inWindow.reduce((sum, r) => sum + r.views, 0), complete: inWindow.some((r) => r.date === endDate) };
}

/**
 * Daily during the window (a scheduled job): each publication not yet checked, on a connected
 * channel, gets its daily figures so far, so the artist's chart climbs before day 14.
 */
export async function refreshDailyViews(deps: Pick<PublicationDeps, 'db' | 'channel' | 'log'>, now: Date): Promise<number> {
  if (!deps.channel || !(await deps.channel.isConnected())) return 0;
  const open = await deps.db.select().from(publications).where(isNull(publications.checkedAt));
  let refreshed = 0;
  for (const publication of open) {
    const videoId = youTubeVideoId(publication.videoUrl);
    if (!videoId || publication.publishedAt > now) continue;
    try {
      await readWindowViews(deps.channel, deps.db, publication, videoId, now);
      refreshed++;
    } catch (error) {
      deps.log.warn({ err: error, submissionId: publication.submissionId }, 'daily views not refreshed');
    }
  }
  return refreshed;
}

/**
 * PUT /api/admin/submissions/{id}/views: the team enters (or corrects) the views at 14 days.
 * Each figure is kept in the history; the hit follows the latest one.
 */
export async function enterViews(db: Db, outbox: EmailQueue, adminId: string, submissionId: string, views: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await lockDeskSubmission(tx, submissionId);
    const [publication] = await tx.select().from(publications).where(eq(publications.submissionId, submissionId)).for('update');
    if (!publication) throw apiError('not_published');
    if (publication.checkAt > now) {
      throw apiError('views_too_early', `The views are measured at 14 days, on ${publication.checkAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    }
    await recordViews(tx, outbox, publication, { views, source: 'admin', recordedBy: adminId }, now);
  });
}

/** The publication as both sides see it, with every reading. */
export async function findPublication(db: Db, submissionId: string): Promise<Publication | null> {
  const [row] = await db.select().from(publications).where(eq(publications.submissionId, submissionId));
  if (!row) return null;
  const readings = await db.select().from(viewReadings).where(eq(viewReadings.submissionId, submissionId)).orderBy(asc(viewReadings.recordedAt));
  return {
    videoUrl: row.videoUrl,
    publishedAt: row.publishedAt.toISOString(),
    subscriberCount: row.subscriberCount,
    subscriberSource: row.subscriberSource,
    viewsNeeded: viewsNeeded(row.subscriberCount),
    checkAt: row.checkAt.toISOString(),
    checkedAt: row.checkedAt?.toISOString() ?? null,
    checkLateSeconds: row.checkLateSeconds,
    checkRetryAt: row.checkRetryAt?.toISOString() ?? null,
    viewsAt14Days: row.viewsAt14Days,
    viralHit: row.viralHit,
    readings: readings.map((r) => ({ views: r.views, source: r.source, recordedAt: r.recordedAt.toISOString(), recordedBy: r.recordedBy })),
  };
}
