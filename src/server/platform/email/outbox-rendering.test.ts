import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArtist, createTestApp, type TestApp } from '../../test/helpers';
import { MISBEHAVING_TEMPLATES, MISBEHAVING_TEMPLATES_MODULE, type MisbehavingData } from '../../test/misbehaving-email-templates';
import { outboxEmails } from '../db/schema';
import { JobQueue } from '../jobs/job-queue';
import { declareOutboxJobs } from './outbox-jobs';
import { Outbox, type OutboxKind } from './outbox';

/**
 * Issue 37: the `email.send` job renders on a worker thread. An attempt whose render hangs or
 * kills its thread fails (the job retries it) and leaves the email pending; the retry renders
 * on a new thread and sends. A closed outbox renders nothing.
 */
const KINDS: Record<keyof typeof MISBEHAVING_TEMPLATES, OutboxKind<MisbehavingData, MisbehavingData>> = {
  hangs_once: { template: MISBEHAVING_TEMPLATES.hangs_once, prepare: null },
  crashes_once: { template: MISBEHAVING_TEMPLATES.crashes_once, prepare: null },
  throws_once: { template: MISBEHAVING_TEMPLATES.throws_once, prepare: null },
};

let t: TestApp;
let dir: string;
const outboxes: Outbox<typeof KINDS>[] = [];

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-rendering-'));
});
afterAll(async () => {
  await Promise.all(outboxes.map((outbox) => outbox.close()));
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * An outbox of the misbehaving kinds on the test app's database; its jobs are never started. The
 * timeout counts a thread's start too (the first, and the one replacing a stuck thread: seconds on a
 * loaded machine), so it is kept well above that.
 */
function misbehavingOutbox(timeoutMs: number): Outbox<typeof KINDS> {
  const jobs = new JobQueue(t.database, t.app.log);
  const outbox = new Outbox(KINDS, t.db, jobs, t.config, t.app.log, {
    templates: MISBEHAVING_TEMPLATES_MODULE,
    timeoutMs,
  });
  // Its send job declared as the app declares it (outbox-jobs.ts), so `queue` can write it.
  declareOutboxJobs(jobs, { outbox });
  outboxes.push(outbox);
  return outbox;
}

/** Queues one email of `kind` and answers its outbox id. */
async function queued(outbox: Outbox<typeof KINDS>, kind: keyof typeof KINDS): Promise<string> {
  const artist = await createArtist(t.db);
  await t.db.transaction((tx) => outbox.queue(tx, { kind, userId: artist.id, data: { marker: path.join(dir, `${kind}-${artist.id}`) } }));
  const [row] = await t.db.select({ id: outboxEmails.id }).from(outboxEmails).where(eq(outboxEmails.userId, artist.id));
  return row!.id;
}

const rowOf = async (id: string) => (await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0]!;

describe('the outbox renders on a worker thread', () => {
  it.each([
    ['hangs_once', 'Rendering the hangs_once email took longer than 20 s'],
    ['crashes_once', 'worker exited with code: 1'],
    ['throws_once', 'The template broke'],
  ] as const)('fails the attempt whose render %s, and sends the retry rendered on another thread', async (kind, error) => {
    const outbox = misbehavingOutbox(20_000);
    const id = await queued(outbox, kind);

    await expect(outbox.deliver(id)).rejects.toThrow(error);
    expect((await rowOf(id)).status).toBe('pending');

    await outbox.deliver(id);
    const sent = await rowOf(id);
    expect(sent.status).toBe('logged');
    const thread = Number(/on thread (\d+)/.exec(sent.subject)?.[1]);
    expect(thread).toBeGreaterThan(0);
    expect(thread).not.toBe(threadId);
    expect(sent.htmlBody).toContain(`Rendered on thread ${thread}`);
    expect(sent.textBody).toContain(`Rendered on thread ${thread}`);
  }, 60_000);

  it('renders nothing once closed: the email stays pending for the next instance', async () => {
    const outbox = misbehavingOutbox(3_000);
    const id = await queued(outbox, 'throws_once');
    await outbox.close();
    await expect(outbox.deliver(id)).rejects.toThrow('the render pool is closed');
    expect((await rowOf(id)).status).toBe('pending');
  });
});
