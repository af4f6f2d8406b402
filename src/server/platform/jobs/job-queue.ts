import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database, Tx } from '../db/database';
import { databaseExecutor, transactionExecutor, type SqlExecutor } from './sql-executor';

/**
 * Background work on a PostgreSQL-backed queue (pg-boss; docs/decisions/080-job-queue.md).
 * Jobs live in the `pgboss` schema of the app's database, embedded or server; a job is
 * fetched with FOR UPDATE SKIP LOCKED, so each runs once across every instance, and a failed
 * one is retried with backoff. Periodic work is a cron schedule kept in the database, so three
 * instances run it once, not three times.
 */

type JobHandler<T> = (data: T, job: { id: string; retryCount: number }) => Promise<unknown>;

interface QueueOptions {
  /** Attempts after the first failure. */
  retryLimit?: number;
  /** Seconds before the first retry; doubled on each further one when `retryBackoff`. */
  retryDelayS?: number;
  retryBackoff?: boolean;
  /** A running job not finished by then counts as failed (its worker is presumed dead). */
  expireInS?: number;
  /** Jobs handled at once by this instance. */
  concurrency?: number;
  /** How often an idle worker asks for work. */
  pollingIntervalS?: number;
}

interface EnqueueOptions {
  /** Not before this time. */
  startAfter?: Date;
  /**
   * While a job of the same name with this key waits, waits to retry or runs, another is not
   * added. Checked here, not by pg-boss (its standard queues only use the key to throttle): two
   * callers at the very same moment may both add one, so a keyed job must stay idempotent.
   */
  singletonKey?: string;
  /** Insert within this open transaction: the job exists only if the transaction commits. */
  tx?: Tx;
}

const SCHEMA = 'pgboss';
/** How long `stop` waits for handlers still running after pg-boss itself stopped. */
const STOP_WAIT_MS = 10_000;

/**
 * Creates or upgrades pg-boss's tables (it serialises this with an advisory lock), so the app's
 * migration step leaves a database ready for workers and test templates include them.
 */
export async function installJobQueue(database: Database): Promise<void> {
  const boss = new PgBoss({ db: databaseExecutor(database) as PgBoss.Db, schema: SCHEMA, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: false, wait: true });
}

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly executor: SqlExecutor;
  private readonly definitions = new Map<string, { options: QueueOptions; handler: JobHandler<object> }>();
  private readonly schedules: { name: string; cron: string }[] = [];
  private started = false;
  /** Set when `stop` returns: pg-boss's own SQL no longer reaches the database. */
  private closed = false;
  /** Handlers running on this instance now: `stop` waits for them. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    database: Database,
    private readonly log: FastifyBaseLogger,
  ) {
    this.executor = databaseExecutor(database);
    this.boss = new PgBoss({
      db: {
        // Once `stop` has returned the database may close under pg-boss, which records a late
        // job's outcome without awaiting it: a rejected write there would be an unhandled
        // rejection. So its SQL then never runs and never settles: the job stays active in the
        // table and pg-boss's expiry hands it to a live instance, as after a crash.
        executeSql: (text: string, values?: unknown[]) => (this.closed ? new Promise<never>(() => {}) : this.executor.executeSql(text, values)),
      } as PgBoss.Db,
      schema: SCHEMA,
      // Finished jobs are kept a week for inspection, then dropped by pg-boss's own maintenance.
      deleteAfterDays: 7,
      archiveCompletedAfterSeconds: 3600,
      // How often one instance looks for jobs whose worker died (expired): a killed instance's
      // email is retried within its job's expiry plus this (default 120 s).
      maintenanceIntervalSeconds: 30,
    });
    this.boss.on('error', (error) => this.log.warn({ err: error }, 'job queue error'));
  }

  /** Declares a kind of job and how this instance carries it out. Call before `start`. */
  define<T extends object>(name: string, options: QueueOptions, handler: JobHandler<T>): void {
    if (this.started) throw new Error(`Job ${name} defined after the queue started`);
    this.definitions.set(name, { options, handler: handler as JobHandler<object> });
  }

  /**
   * Declares periodic work: `handler` runs on one instance at each `cron` time (UTC, five
   * fields, at most once a minute).
   */
  every(name: string, cron: string, handler: () => Promise<unknown>, options: QueueOptions = {}): void {
    // A minute's resolution needs no eager polling: an idle instance asks every 30 s.
    this.define(name, { retryLimit: 0, pollingIntervalS: 30, ...options }, handler);
    this.schedules.push({ name, cron });
  }

  /** Adds a job; false when a live job of the same name already carries its `singletonKey`. */
  async enqueue(name: string, data: object, options: EnqueueOptions = {}): Promise<boolean> {
    if (!this.definitions.has(name)) throw new Error(`Unknown job ${name}`);
    const executor = options.tx ? transactionExecutor(options.tx) : this.executor;
    if (options.singletonKey) {
      // States before `completed` (created, retry, active): the job will still run, or is running.
      const { rows } = await executor.executeSql(
        `SELECT 1 FROM ${SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' LIMIT 1`,
        [name, options.singletonKey],
      );
      if (rows.length > 0) return false;
    }
    const id = await this.boss.send(name, data, {
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.tx ? { db: executor as PgBoss.Db } : {}),
    });
    return id !== null;
  }

  /**
   * Many jobs of one kind in one statement (pg-boss `insert`), e.g. one email per submission of
   * a bulk change: the same rows `enqueue` would write, without a round trip per job.
   */
  async enqueueMany(name: string, jobs: { data: object; startAfter?: Date }[], options: { tx?: Tx } = {}): Promise<void> {
    if (!this.definitions.has(name)) throw new Error(`Unknown job ${name}`);
    if (jobs.length === 0) return;
    await this.boss.insert(
      jobs.map((job) => ({ name, data: job.data, ...(job.startAfter ? { startAfter: job.startAfter } : {}) })),
      options.tx ? { db: transactionExecutor(options.tx) as PgBoss.Db } : {},
    );
  }

  /** Carries out a job here and now, outside the queue (tests, tools). */
  async run(name: string, data: object = {}): Promise<unknown> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`Unknown job ${name}`);
    return definition.handler(data, { id: 'direct', retryCount: 0 });
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const [name, { options, handler }] of this.definitions) {
      await this.boss.createQueue(name, {
        name,
        retryLimit: options.retryLimit ?? 3,
        retryDelay: options.retryDelayS ?? 30,
        retryBackoff: options.retryBackoff ?? true,
        expireInSeconds: options.expireInS ?? 15 * 60,
      });
      for (let i = 0; i < (options.concurrency ?? 1); i++) {
        const worker: { id?: string } = {};
        worker.id = await this.boss.work<object>(
          name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalS ?? 2 },
          async ([job]) => {
            if (!job) return;
            // pg-boss waits out the polling interval even after a fetch that found work, which
            // caps a worker at one job per interval (2 emails/s at 0.5 s). Found one: ask again
            // at once; only an empty fetch makes the worker wait.
            if (worker.id) this.boss.notifyWorker(worker.id);
            const run = handler(job.data, { id: job.id, retryCount: job.retryCount });
            this.running.add(run);
            try {
              return await run;
            } catch (error) {
              this.log.warn({ err: error, job: name, jobId: job.id, retryCount: job.retryCount }, 'job failed');
              throw error;
            } finally {
              this.running.delete(run);
            }
          },
        );
      }
    }
    for (const { name, cron } of this.schedules) await this.boss.schedule(name, cron, {}, { tz: 'UTC' });
    this.started = true;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    // Waits for running jobs (briefly): the database closes right after.
    await this.boss.stop({ graceful: true, wait: true, timeout: 5000, close: false });
    // pg-boss can still start a job whose fetch was on its way when it stopped, and it writes each
    // job's outcome without awaiting it. So the handlers still running are waited for too, and
    // then one turn of the event loop lets those writes reach the pool before the database closes
    // (a write after that is an unhandled rejection: "Cannot use a pool after calling end").
    const deadline = Date.now() + STOP_WAIT_MS;
    while (this.running.size > 0 && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()))]);
    }
    await new Promise((resolve) => setImmediate(resolve));
    this.closed = true;
  }
}
