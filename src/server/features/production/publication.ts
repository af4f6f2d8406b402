import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import {
  analyticsRetryAt,
  isViralHit,
  screenReasons,
  viewsNeeded,
  viewWindow,
  viralCheckAt,
  type CountSource,
  type DailyViews,
  type Publication,
  type ScreenStatus,
  type ScreenThresholds,
  type TrafficSource,
  type ViralReviewInput,
} from '@shared/production';
import { VIRAL_HITS_NEEDED, YOUTUBE_ATTEMPTS_MAX } from '@shared/production-texts';
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
import { isQuotaRefusal, readDailyViews, readTrafficSources, retryDelayMs } from './youtube-api';
import { countingHitsOf, screenLetsCount } from '../../domain/bonus/counting-hits';
import { withdrawHit } from '../../domain/bonus/withdraw-hit';
import { screenView, withdrawnView } from './viral-screen';
import { recordHistory, type HistoryEntry } from '../../domain/submission/history';
import { queueWebhookEvent } from '../../domain/webhook/queue-webhook-event';
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
  /** The viral screen's thresholds (CONTRACT §25, VIRAL_SCREEN_*). */
  screen: ScreenThresholds;
  /** The wait after the first refused read (YOUTUBE_RETRY_DELAY_S), doubling after, as publishing's retries (CONTRACT §23). */
  retryDelayMs: number;
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
      await queueWebhookEvent(
        tx,
        'publication.published',
        { submissionId, songTitle: submission.songTitle, artistName: submission.artistName, videoUrl: input.videoUrl, publishedAt: publishedAt.toISOString() },
        now,
      );
    }
  });
}

/**
 * SPEC §1: after the third hit, each track published later earns BONUS_PER_TRACK_USD, split among
 * the song's owners (CONTRACT §24). The artist's row is locked so two publications at once count the same hits.
 */
async function earnBonusIfUnlocked(tx: Tx, outbox: EmailQueue, userId: string, submissionId: string, amount: string, now: Date): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  if ((await countingHitsOf(tx, userId)) < VIRAL_HITS_NEEDED) return;
  const earned = await tx.insert(bonusEarnings).values({ submissionId, userId, amount, createdAt: now }).onConflictDoNothing().returning({ id: bonusEarnings.submissionId });
  if (earned.length === 0) return;
  // Split among the song's owners as they stand now (CONTRACT §24); each co-owner's first share mails their link.
  await recordEarningShares(tx, outbox, submissionId, now);
  // `earning.created` (CONTRACT §28), where the earning and its shares are written.
  await queueWebhookEvent(tx, 'earning.created', { submissionId, amount, currency: 'usd', createdAt: now.toISOString() }, now);
}

/** What the screen found at the 14-day check (CONTRACT §25). */
export interface ScreenResult {
  status: Extract<ScreenStatus, 'clear' | 'suspect'>;
  reasons: string[];
  sources: TrafficSource[];
  averageViewPercentage: number | null;
}

/** After 28 days the product reads the first 14 days' views again (CONTRACT §25). */
const SECOND_LOOK_DAYS = 28;
const DAY_MS = 24 * 60 * 60 * 1000;
export const secondLookAt = (publishedAt: Date) => new Date(publishedAt.getTime() + SECOND_LOOK_DAYS * DAY_MS);

/**
 * Records a view count at 14 days (the check's reading or a correction), decides the hit by the
 * rule, keeps the reading in the history and tells the artist of a new hit. A hit counts (its
 * `hitRecordedAt`) only when the screen lets it: a suspect one waits for the team's decision, a
 * rejected one never counts (CONTRACT §25). Every hit gets its second look at 28 days.
 */
async function recordViews(
  tx: Tx,
  outbox: EmailQueue,
  publication: typeof publications.$inferSelect,
  reading: { views: number; source: CountSource; recordedBy: string | null },
  now: Date,
  check?: { lateSeconds: number; screen: ScreenResult | null },
): Promise<void> {
  const hit = isViralHit(reading.views, publication.subscriberCount);
  const screenStatus = check?.screen?.status ?? publication.screenStatus;
  const counts = hit && screenLetsCount(screenStatus) && !publication.hitWithdrawnAt;
  const newHit = counts && !publication.hitRecordedAt;
  await tx
    .update(publications)
    .set({
      viewsAt14Days: reading.views,
      viralHit: hit,
      hitRecordedAt: counts ? (publication.hitRecordedAt ?? now) : null,
      secondLookAt: hit ? secondLookAt(publication.publishedAt) : publication.secondLookAt,
      ...(check ? { checkedAt: now, checkLateSeconds: check.lateSeconds } : {}),
      ...(check?.screen
        ? {
            screenStatus: check.screen.status,
            screenReasons: check.screen.reasons,
            screenSources: check.screen.sources,
            averageViewPercentage: check.screen.averageViewPercentage,
            screenError: null,
          }
        : {}),
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
  if (check?.screen?.status === 'suspect') {
    await recordHistory(tx, publication.submissionId, { kind: 'viral_review', by: null, from: null, to: `suspect: ${check.screen.reasons.join('; ')}`, at: now });
  }
  if (newHit) await tellHitRecorded(tx, outbox, publication, reading.views);
}

async function tellHitRecorded(tx: Tx, outbox: EmailQueue, publication: typeof publications.$inferSelect, views: number): Promise<void> {
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
      views,
      subscriberCount: publication.subscriberCount,
      viralHits: await countingHitsOf(tx, submission!.userId),
      hitsNeeded: VIRAL_HITS_NEEDED,
    },
  });
}

type CheckOutcome = 'recorded' | 'awaiting_admin' | 'awaiting_analytics' | 'awaiting_quota' | 'already_checked' | 'rescheduled' | 'stale';

/**
 * The 14-day check (the `production.viral-check` job). Runs once per publication: the row is
 * locked and a checked one is left alone, so a job delivered twice, or by two instances, records
 * one reading. How late it ran (a server that was down at `checkAt`) is recorded. With the
 * channel connected it sums the window's days from Analytics, and while the last day is not
 * reported yet it waits (`checkRetryAt`, see `analyticsRetryAt`); with only an API key it reads
 * `viewCount`; without either, it marks the check due for the team to enter.
 *
 * With the channel, a hit is also screened (CONTRACT §25): the day query carries
 * `averageViewPercentage`, and one more query reads the traffic sources, only for a hit and only
 * once the window is complete. A read YouTube refuses for its quota is tried again on publishing's
 * schedule (at most YOUTUBE_ATTEMPTS_MAX tries, about 30 minutes; CONTRACT §23), the desk showing
 * the tries; once they run out a hit whose sources could not be read waits for a person as suspect.
 */
export async function runViralCheck(
  deps: Pick<PublicationDeps, 'db' | 'outbox' | 'youtube' | 'jobs' | 'log' | 'channel' | 'screen' | 'retryDelayMs'>,
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
  let screen: ScreenResult | null = null;
  /** YouTube refused a read for its quota: tried again later (CONTRACT §25 part 4). */
  let quotaRefusal: Error | null = null;
  let window: WindowViews | null = null;
  if (channelConnected && videoId) {
    // The channel's analytics: the sum of exactly the window's 14 days, however late this runs.
    let queries = 0;
    const counted = () => void queries++;
    try {
      window = await readWindowViews(deps.channel!, deps.db, publication, videoId, now, { averageViewPercentage: true, counted });
      views = window.views;
      if (!window.complete) {
        retryAt = analyticsRetryAt(publication.checkAt, now);
        if (!retryAt) deps.log.warn({ submissionId: job.submissionId }, 'YouTube Analytics never reported the window’s last day: recording the days it did');
      }
      if (!retryAt && isViralHit(window.views, publication.subscriberCount)) {
        const { startDate, endDate } = viewWindow(publication.publishedAt);
        const sources = await deps.channel!.withToken((token) => readTrafficSources(deps.channel!.urls, token, videoId, startDate, endDate, counted));
        screen = screenOf(window, sources, deps.screen);
      }
    } catch (error) {
      if (!isQuotaRefusal(error)) {
        deps.log.warn({ err: error, submissionId: job.submissionId }, 'viral check could not read the analytics');
        throw error;
      }
      quotaRefusal = error;
    } finally {
      // Counted against the Analytics quota: one query for the days (with the average watched), one for the sources.
      deps.log.info({ submissionId: job.submissionId, analyticsQueries: queries }, 'viral check read the analytics');
    }
    if (quotaRefusal) {
      const attempts = publication.screenAttempts + 1;
      if (attempts < YOUTUBE_ATTEMPTS_MAX) return awaitQuota(deps, job, attempts, quotaRefusal.message, now);
      if (views === null) {
        await deps.db.update(publications).set({ screenAttempts: attempts, screenError: quotaRefusal.message.slice(0, 500), updatedAt: now }).where(eq(publications.submissionId, job.submissionId));
        throw quotaRefusal;
      }
      retryAt = null;
      if (isViralHit(views, publication.subscriberCount)) {
        screen = {
          status: 'suspect',
          reasons: [`YouTube refused to report the traffic sources ${attempts} times (its quota): a person decides`],
          sources: [],
          averageViewPercentage: window?.averageViewPercentage ?? null,
        };
      }
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
    await recordViews(tx, deps.outbox, locked, { views, source: 'youtube', recordedBy: null }, now, { lateSeconds, screen });
    return 'recorded';
  });
}

/**
 * A read refused for YouTube's quota: the try is counted and shown on the desk, and the check
 * runs again after publishing's wait for that try (15 s, 30 s, … up to 10 minutes by default).
 */
async function awaitQuota(
  deps: Pick<PublicationDeps, 'db' | 'jobs' | 'log' | 'retryDelayMs'>,
  job: ViralCheckJob,
  attempts: number,
  message: string,
  now: Date,
): Promise<'awaiting_quota' | 'already_checked'> {
  const retryAt = new Date(now.getTime() + retryDelayMs(attempts, deps.retryDelayMs));
  deps.log.warn({ submissionId: job.submissionId, attempts, retryAt }, 'YouTube Analytics refused the viral check for its quota; trying again');
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(publications).where(eq(publications.submissionId, job.submissionId)).for('update');
    if (!locked || locked.checkedAt) return 'already_checked';
    await tx
      .update(publications)
      .set({ screenAttempts: attempts, screenError: message.slice(0, 500), checkRetryAt: retryAt, updatedAt: now })
      .where(eq(publications.submissionId, job.submissionId));
    await deps.jobs.enqueue(VIRAL_CHECK_JOB, job, { startAfter: retryAt, singletonKey: `${viralCheckKey(job)}:quota-${attempts}`, tx });
    return 'awaiting_quota';
  });
}

/** The three rules over what the window's reads found. */
function screenOf(window: WindowViews, sources: TrafficSource[], thresholds: ScreenThresholds): ScreenResult {
  const evidence = { sources, days: window.days, averageViewPercentage: window.averageViewPercentage };
  const reasons = screenReasons(evidence, thresholds);
  return { status: reasons.length ? 'suspect' : 'clear', reasons, sources, averageViewPercentage: window.averageViewPercentage };
}

interface WindowViews {
  views: number;
  complete: boolean;
  days: DailyViews[];
  /** The window's average percentage watched (each day's weighted by its views), when asked for and reported. */
  averageViewPercentage: number | null;
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
  options: { averageViewPercentage?: boolean; counted?: () => void } = {},
): Promise<WindowViews> {
  const { startDate, endDate } = viewWindow(publication.publishedAt);
  const rows = await channel.withToken((token) => readDailyViews(channel.urls, token, videoId, startDate, endDate, options));
  const inWindow = rows.filter((r) => r.date >= startDate && r.date <= endDate);
  for (const row of inWindow) {
    await db
      .insert(dailyViews)
      .values({ submissionId: publication.submissionId, day: row.date, views: row.views, recordedAt: now })
      .onConflictDoUpdate({ target: [dailyViews.submissionId, dailyViews.day], set: { views: row.views, recordedAt: now } });
  }
  const watched = inWindow.filter((r) => r.averageViewPercentage !== undefined && r.views > 0);
  const watchedViews = watched.reduce((sum, r) => sum + r.views, 0);
  return {
    views: inWindow.reduce((sum, r) => sum + r.views, 0),
    complete: inWindow.some((r) => r.date === endDate),
    days: inWindow.map((r) => ({ date: r.date, views: r.views })),
    averageViewPercentage:
      watchedViews > 0 ? Math.round((10 * watched.reduce((sum, r) => sum + r.averageViewPercentage! * r.views, 0)) / watchedViews) / 10 : null,
  };
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

/**
 * POST /api/admin/submissions/{id}/viral-review (CONTRACT §25): a person decides a suspect hit.
 * Confirmed, it counts from this moment (`hitRecordedAt` now), as a clear hit would have: a track
 * published from now on earns if this makes the third, and the artist is told of the hit. Rejected,
 * it never counts. The decision, its reason and who made it are in the history. Anything but a
 * suspect hit → 409 `not_suspect`, so two decisions at once make one.
 */
export async function reviewViralHit(db: Db, outbox: EmailQueue, adminId: string, submissionId: string, input: ViralReviewInput, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await lockDeskSubmission(tx, submissionId);
    const [publication] = await tx.select().from(publications).where(eq(publications.submissionId, submissionId)).for('update');
    if (!publication) throw apiError('not_published');
    if (publication.screenStatus !== 'suspect' || publication.hitWithdrawnAt) throw apiError('not_suspect');
    const confirmed = input.decision === 'confirm';
    const counts = confirmed && publication.viralHit === true;
    // The artist's row: the same lock a publication takes to count hits (earnBonusIfUnlocked).
    const [owner] = await tx.select({ userId: submissions.userId }).from(submissions).where(eq(submissions.id, submissionId));
    await tx.select({ id: users.id }).from(users).where(eq(users.id, owner!.userId)).for('update');
    await tx
      .update(publications)
      .set({
        screenStatus: confirmed ? 'confirmed' : 'rejected',
        reviewedBy: adminId,
        reviewedAt: now,
        reviewReason: input.reason,
        hitRecordedAt: counts ? now : null,
        updatedAt: now,
      })
      .where(eq(publications.submissionId, submissionId));
    await recordHistory(tx, submissionId, {
      kind: 'viral_review',
      by: adminId,
      from: 'suspect',
      to: `${confirmed ? 'confirmed' : 'rejected'}: ${input.reason}`,
      at: now,
    });
    if (counts) await tellHitRecorded(tx, outbox, publication, publication.viewsAt14Days ?? 0);
  });
}

/** Second looks done per run; more wait for the next run. */
const SECOND_LOOK_BATCH = 100;
/** A second look YouTube keeps refusing is given up this long after it was due: the hit stands. */
const SECOND_LOOK_GIVE_UP_DAYS = 7;

/**
 * The second look at 28 days (CONTRACT §25; the `production.second-look` job, every ten minutes):
 * each hit due is read again for the same first 14 days; below the threshold now, the hit is
 * withdrawn (domain/bonus/withdraw-hit.ts). Once per publication: the row is locked and a done one
 * is left alone, so a sweep run twice, or by two instances, withdraws once; state is in the row,
 * so a restart loses none. A read that fails is tried at the next run, until SECOND_LOOK_GIVE_UP_DAYS.
 */
export async function runSecondLooks(deps: Pick<PublicationDeps, 'db' | 'outbox' | 'channel' | 'log'>, now: Date): Promise<number> {
  const due = await deps.db
    .select()
    .from(publications)
    .where(and(isNull(publications.secondLookedAt), lte(publications.secondLookAt, now), isNotNull(publications.checkedAt)))
    .orderBy(asc(publications.secondLookAt))
    .limit(SECOND_LOOK_BATCH);
  if (due.length === 0) return 0;
  const connected = (await deps.channel?.isConnected()) ?? false;
  let done = 0;
  for (const publication of due) {
    const videoId = connected ? youTubeVideoId(publication.videoUrl) : null;
    let views: number | null = null;
    if (videoId) {
      const { startDate, endDate } = viewWindow(publication.publishedAt);
      try {
        const rows = await deps.channel!.withToken((token) => readDailyViews(deps.channel!.urls, token, videoId, startDate, endDate));
        views = rows.filter((r) => r.date >= startDate && r.date <= endDate).reduce((sum, r) => sum + r.views, 0);
      } catch (error) {
        const givenUp = now.getTime() - publication.secondLookAt!.getTime() > SECOND_LOOK_GIVE_UP_DAYS * DAY_MS;
        deps.log.warn({ err: error, submissionId: publication.submissionId, givenUp }, 'the second look could not read the analytics');
        if (!givenUp) continue;
      }
    }
    const withdrawn = await deps.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(publications).where(eq(publications.submissionId, publication.submissionId)).for('update');
      if (!locked || locked.secondLookedAt) return false;
      await tx.update(publications).set({ secondLookedAt: now, secondLookViews: views, updatedAt: now }).where(eq(publications.submissionId, locked.submissionId));
      const stillAHit = views === null || isViralHit(views, locked.subscriberCount);
      if (stillAHit || locked.viralHit !== true || locked.screenStatus === 'rejected' || locked.hitWithdrawnAt) return false;
      await withdrawHit(tx, deps.outbox, { submissionId: locked.submissionId, views: views!, viewsNeeded: viewsNeeded(locked.subscriberCount), now });
      return true;
    });
    if (withdrawn) deps.log.warn({ submissionId: publication.submissionId, views }, 'the second look withdrew a viral hit');
    done++;
  }
  return done;
}

/** The publication as both sides see it, with every reading. */
export async function findPublication(db: Db, submissionId: string): Promise<Publication | null> {
  const [row] = await db.select().from(publications).where(eq(publications.submissionId, submissionId));
  if (!row) return null;
  const readings = await db.select().from(viewReadings).where(eq(viewReadings.submissionId, submissionId)).orderBy(asc(viewReadings.recordedAt));
  const days = row.screenStatus
    ? (await db.select().from(dailyViews).where(eq(dailyViews.submissionId, submissionId)).orderBy(asc(dailyViews.day))).map((d) => ({ date: d.day, views: d.views }))
    : [];
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
    screen: screenView(row, 'team') ? { ...screenView(row, 'team')!, days } : null,
    screenRead:
      row.screenAttempts > 0 && !row.checkedAt
        ? { attempts: row.screenAttempts, error: row.screenError, retryAt: row.checkRetryAt?.toISOString() ?? null }
        : null,
    secondLook: row.secondLookAt
      ? { at: row.secondLookAt.toISOString(), lookedAt: row.secondLookedAt?.toISOString() ?? null, views: row.secondLookViews }
      : null,
    withdrawn: withdrawnView(row),
    readings: readings.map((r) => ({ views: r.views, source: r.source, recordedAt: r.recordedAt.toISOString(), recordedBy: r.recordedBy })),
  };
}
