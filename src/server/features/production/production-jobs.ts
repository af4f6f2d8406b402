import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { EmailQueue } from '../../domain/email/email-kinds';
import type { Db } from '../../platform/db/client';
import type { JobQueue } from '../../platform/jobs/job-queue';
import type { ObjectStorage } from '../../platform/storage/object-storage';
import { LabelChannel } from './channel';
import { refreshDailyViews, runSecondLooks, runViralCheck, VIRAL_CHECK_JOB, type PublicationDeps, type ViralCheckJob } from './publication';
import { queueLostViralChecks, VIRAL_CHECK_BACKSTOP_CRON, VIRAL_CHECK_BACKSTOP_JOB } from './viral-check-backstop';
import { queueStalledUploads, runYouTubeUpload, YOUTUBE_UPLOAD_BACKSTOP_JOB, YOUTUBE_UPLOAD_JOB, type UploadDeps, type YouTubeUploadJob } from './youtube-upload';

const DAILY_VIEWS_JOB = 'production.daily-views';
/** The second look at 28 days (CONTRACT §25). */
export const SECOND_LOOK_JOB = 'production.second-look';

/**
 * What the production feature's routes and its jobs share: one channel, and one map of the uploads
 * this instance runs (a cancel made here stops its request at once, CONTRACT §23).
 */
export interface ProductionServices {
  channel: LabelChannel;
  publication: PublicationDeps;
  uploads: UploadDeps;
}

interface ProductionServiceDeps {
  db: Db;
  config: Config;
  storage: ObjectStorage;
  jobs: JobQueue;
  outbox: EmailQueue;
  log: FastifyBaseLogger;
  /** The time as the feature sees it: a test moves it; the queue's own timing stays the database's. */
  now: () => Date;
}

export function createProductionServices({ db, config, storage, jobs, outbox, log, now }: ProductionServiceDeps): ProductionServices {
  const channel = new LabelChannel({
    db,
    client: config.production.channel,
    redirectUri: new URL('/api/admin/channel/callback', config.publicUrl).toString(),
    urls: { apiUrl: config.production.youtubeApiUrl, analyticsUrl: config.production.youtubeAnalyticsUrl, timeoutMs: config.production.publishing.timeoutMs },
    log,
    tokenKey: config.production.tokenKey,
  });
  const publication: PublicationDeps = {
    db,
    jobs,
    outbox,
    youtube: config.production.youtube,
    channel,
    bonusPerTrackUsd: config.production.bonusPerTrackUsd,
    log,
    screen: config.production.screen,
    retryDelayMs: config.production.publishing.retryDelayMs,
  };
  const uploads: UploadDeps = {
    db,
    storage,
    channel,
    publication,
    jobs,
    log,
    now,
    retryDelayMs: config.production.publishing.retryDelayMs,
    running: new Map(),
  };
  return { channel, publication, uploads };
}

/**
 * The production feature's jobs, declared here and not inside its routes plugin (ARCHITECTURE
 * "ways of working" 2, issue 31; decision 200). `production` is what its routes share with them.
 */
export function declareProductionJobs(jobs: JobQueue, { production, config, now }: { production: ProductionServices; config: Config; now: () => Date }): void {
  const { publication, uploads } = production;
  // Publishing on the channel: up to YOUTUBE_UPLOADS_AT_ONCE uploads side by side per instance, so
  // one stalled upload holds up no other (CONTRACT §23); a job is kept an hour before the queue
  // counts its worker dead, and the lease hands a stalled upload to a live worker within a minute
  // or two (queueStalledUploads). The job counts and schedules its own tries (decision 175): the
  // queue's retries only cover a run that could not even record its failure.
  jobs.define<YouTubeUploadJob>(
    YOUTUBE_UPLOAD_JOB,
    { retryLimit: 3, retryDelayS: 30, retryBackoff: true, expireInS: 3600, pollingIntervalS: 2, concurrency: config.production.publishing.uploadsAtOnce },
    (job) => runYouTubeUpload(uploads, job),
  );
  jobs.every(YOUTUBE_UPLOAD_BACKSTOP_JOB, '* * * * *', () => queueStalledUploads(uploads));

  // The 14-day check: once per publication across all instances; a due one starts within seconds
  // (each worker polls every 2 s and takes one job per poll, so four workers per instance keep a
  // burst of due checks, say after downtime, well within the minute: see bench/production.bench.ts).
  // A failing read of the API is retried with backoff for hours.
  jobs.define<ViralCheckJob>(
    VIRAL_CHECK_JOB,
    { retryLimit: 12, retryDelayS: 60, retryBackoff: true, expireInS: 120, pollingIntervalS: 2, concurrency: 4 },
    (job) => runViralCheck(publication, job, now()),
  );
  // The window's daily views, for the artist's chart (CONTRACT §16): once a day, with the channel connected.
  jobs.every(DAILY_VIEWS_JOB, '0 6 * * *', () => refreshDailyViews(publication, now()));
  // A check whose job was lost (retries exhausted, or dropped while the server was off) is queued again.
  jobs.every(VIRAL_CHECK_BACKSTOP_JOB, VIRAL_CHECK_BACKSTOP_CRON, () => queueLostViralChecks(publication, now()));
  // The second look at 28 days (CONTRACT §25): every ten minutes, the hits due are read again, each
  // once across all instances (the publication's row decides); a restart finds them in the table.
  jobs.every(SECOND_LOOK_JOB, '*/10 * * * *', () => runSecondLooks(publication, now()));
}
