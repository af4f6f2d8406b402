import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISBEHAVING_TEMPLATES_MODULE } from '../../test/misbehaving-email-templates';
import { RenderPool, type RenderTask } from './render-pool';

/** Issue 37: emails render on a worker thread, and a render that hangs or crashes fails without holding anything up. */
let dir: string;
let markers = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'render-pool-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = (kind: string): RenderTask => ({
  kind,
  data: { marker: path.join(dir, `marker-${++markers}`) },
  context: { publicUrl: 'http://localhost:5000/', unsubscribe: undefined },
});
/** The thread a rendered subject says it was rendered on. */
const threadOf = (subject: string) => Number(/on thread (\d+)/.exec(subject)?.[1]);

describe('the render pool', () => {
  // The timeouts count a thread's start (the first, then the one replacing a stuck thread): on a
  // loaded machine that can take seconds, so they are well above it.
  it('renders on a thread of its own, and a hung render fails after the timeout and the next one runs on a new thread', async () => {
    const pool = new RenderPool({ templates: MISBEHAVING_TEMPLATES_MODULE, timeoutMs: 20_000 });
    try {
      const hanging = task('hangs_once');
      const started = performance.now();
      await expect(pool.render(hanging)).rejects.toThrow('Rendering the hangs_once email took longer than 20 s');
      expect(performance.now() - started).toBeLessThan(30_000);
      // The retry: the same email, on the thread that replaced the stuck one.
      const retried = await pool.render(hanging);
      expect(threadOf(retried.subject)).not.toBe(threadId);
      expect(retried.html).toContain(`Rendered on thread ${threadOf(retried.subject)}`);
      expect(retried.text).toContain(`Rendered on thread ${threadOf(retried.subject)}`);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('fails a render whose thread dies, renders the retry on a new thread, and passes on a template that throws', async () => {
    const pool = new RenderPool({ templates: MISBEHAVING_TEMPLATES_MODULE });
    try {
      const crashing = task('crashes_once');
      await expect(pool.render(crashing)).rejects.toThrow('worker exited with code: 1');
      const retried = await pool.render(crashing);
      expect(retried.subject).toMatch(/^crashes_once on thread \d+$/);
      expect(threadOf(retried.subject)).not.toBe(threadId);

      const throwing = task('throws_once');
      await expect(pool.render(throwing)).rejects.toThrow('The template broke');
      const again = await pool.render(throwing);
      // A template's error is not the thread's: it goes on rendering.
      expect(threadOf(again.subject)).toBe(threadOf(retried.subject));

      await expect(pool.render(task('no_such_kind'))).rejects.toThrow('No template for the no_such_kind email');
    } finally {
      await pool.close();
    }
  });

  it('closes at once, ending a render under way, and renders nothing after', async () => {
    const pool = new RenderPool({ templates: MISBEHAVING_TEMPLATES_MODULE, timeoutMs: 60_000 });
    const stuck = task('hangs_once');
    const settled = pool.render(stuck).then(
      () => 'rendered',
      () => 'failed',
    );
    // Once the thread is stuck in the template (it wrote its marker), close the pool.
    await expect.poll(() => existsSync(stuck.data.marker as string), { timeout: 30_000 }).toBe(true);
    const closing = performance.now();
    await pool.close();
    expect(await settled).toBe('failed');
    expect(performance.now() - closing).toBeLessThan(5_000);
    await expect(pool.render(task('throws_once'))).rejects.toThrow('the render pool is closed');
  }, 60_000);

  it('is shared by the servers of one process: one thread renders for both, and one closing leaves the other rendering', async () => {
    // A marker already made: the template renders at once.
    const plain = () => {
      const t = task('throws_once');
      writeFileSync(t.data.marker as string, '');
      return t;
    };
    const options = { templates: MISBEHAVING_TEMPLATES_MODULE, timeoutMs: 45_000 };
    const first = RenderPool.shared(options);
    const second = RenderPool.shared(options);
    const a = await first.render(plain());
    const b = await second.render(plain());
    expect(threadOf(a.subject)).toBe(threadOf(b.subject));
    await first.close();
    await expect(first.render(plain())).rejects.toThrow('the render pool is closed');
    expect(threadOf((await second.render(plain())).subject)).toBe(threadOf(a.subject));
    // A server built later takes a share of the same pool, thread already loaded.
    const third = RenderPool.shared(options);
    expect(threadOf((await third.render(plain())).subject)).toBe(threadOf(a.subject));
    await second.close();
    await third.close();
  }, 60_000);
});
