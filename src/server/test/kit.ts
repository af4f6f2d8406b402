import { sql } from 'drizzle-orm';
import { and, eq, lte } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll } from 'vitest';
import { outboxEmails } from '../platform/db/schema';
import { createTestApp, type Caller, type Method, type TestApp, type TestAppOptions } from './helpers';

/**
 * The test kit in the shape of fastify/demo's `build(t)`: one call at the top of a test file
 * builds the app on a database of its own before the file's tests and closes both after them,
 * and hands out `call` and `as`. What tests wait for is polled with a deadline (`waitFor`), never
 * slept for; jobs and emails are run or settled on purpose (`runJobOnce`, `drainOutbox`,
 * `settleJobs`); a zip answer is read with `readZip`.
 *
 *     const t = build({ SOME_SETTING: 'x' }, { smtp: true });
 *     it('…', async () => { const res = await t.as(artist)('GET', '/api/user'); … });
 */
export interface BuiltApp extends TestApp {
  /** `call` as one caller: `t.as(artist)('GET', '/api/user')`. */
  as(caller: Caller): (method: Method, url: string, payload?: unknown, headers?: Record<string, string>) => ReturnType<TestApp['call']>;
}

export function build(env: Record<string, string> = {}, options: TestAppOptions = {}): BuiltApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(env, options);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  const app = (): TestApp => {
    if (!current) throw new Error('The test app is built in beforeAll: use it inside a test or a hook');
    return current;
  };
  const as: BuiltApp['as'] = (caller) => (method, url, payload, headers) => app().call(method, url, caller, payload, headers);
  return new Proxy({} as BuiltApp, {
    get(_, key) {
      if (key === 'as') return as;
      const target = app();
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export interface WaitOptions {
  /** Give up after this long (default 20 s): the error names `what`. */
  timeoutMs?: number;
  /** Between two looks (default 25 ms). */
  intervalMs?: number;
  what?: string;
}

/**
 * Polls `check` until it returns something other than `undefined`, `null` or `false` (and does
 * not throw), and returns that; throws its last error, or a timeout, after the deadline.
 */
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions = {}): Promise<Exclude<T, undefined | null | false>> {
  const { timeoutMs = 20_000, intervalMs = 25, what = 'the condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      if (lastError) throw lastError;
      throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Carries out one job of `name` here and now, outside the queue, as a worker would. */
export const runJobOnce = (t: Pick<TestApp, 'app'>, name: string, data: object = {}) => t.app.jobs.run(name, data);

/**
 * Waits until the outbox holds no email due now that is still pending: each one queued so far
 * has been sent, logged, skipped or given up by the queue's own workers (never a second sender
 * racing them). Returns once settled; the emails a test expects are then in the SMTP server.
 */
export async function drainOutbox(t: Pick<TestApp, 'db'>, options: WaitOptions = {}): Promise<void> {
  await waitFor(
    async () => {
      const [due] = await t.db
        .select({ id: outboxEmails.id })
        .from(outboxEmails)
        .where(and(eq(outboxEmails.status, 'pending'), lte(outboxEmails.sendAfter, new Date())))
        .limit(1);
      return !due;
    },
    { what: 'the outbox to settle', ...options },
  );
}

/**
 * Waits until no job of `name` is waiting, retrying or running (every job queued so far has
 * completed, failed or been cancelled): what "it ran once, and no more" is counted after.
 */
export async function settleJobs(t: Pick<TestApp, 'db'>, name: string, options: WaitOptions = {}): Promise<void> {
  await waitFor(
    async () => {
      const result = (await t.db.execute(
        sql`select 1 from pgboss.job where name = ${name} and state < 'completed' and start_after <= now() limit 1`,
      )) as unknown as { rows: unknown[] };
      return result.rows.length === 0;
    },
    { what: `the ${name} jobs to settle`, ...options },
  );
}

/** The entries of a zip archive by name. */
export function readZip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const entries = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
