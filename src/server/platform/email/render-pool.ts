import { Piscina } from 'piscina';
import type { EmailContext, RenderedEmail } from './email-template';

/**
 * Where a render thread finds the templates: a module exporting, under `exportName`, each kind's
 * template by the name its outbox kind has. Functions cannot cross to another thread, so each
 * thread imports the table itself (the platform never names the domain: the app passes this in).
 */
export interface TemplatesModule {
  /** A file URL: `import.meta.url` of the module that declares the table. */
  url: string;
  exportName: string;
}

/** One email to render, as plain data: the kind, its data as sent, and what its template is told besides. */
export interface RenderTask {
  kind: string;
  data: Record<string, unknown>;
  context: EmailContext;
}

export interface RenderPoolOptions {
  templates: TemplatesModule;
  /** Threads rendering at once; 1 by default (the server has 2 cores, one of them its own). */
  threads?: number;
  /** How long one render may take, waiting for a free thread included, before its attempt fails. */
  timeoutMs?: number;
  /** Told when a thread fails with no render under way (a failing render is told to its caller). */
  onError?: (error: unknown) => void;
}

/** A render that takes this long is stuck: its thread is replaced and the send job tries again later. */
const RENDER_TIMEOUT_MS = 15_000;
/**
 * Renders a thread takes at once: as many as the send job runs (decision 082). A render spends
 * part of its time waiting on React's stream scheduling; a thread given them one at a time could
 * not interleave the four as the main thread did. The price: a render that hangs its thread takes
 * the others under way on it down too (they fail, and their jobs retry).
 */
const RENDERS_PER_THREAD = 4;

/**
 * Renders emails on worker threads (piscina), so that react-email's CPU work never holds up the
 * thread that answers requests (docs/decisions/180-email-rendering-in-worker-threads.md).
 * The first thread starts with the pool, so that the first email does not wait for it. A render
 * that throws rejects; one that hangs past the timeout, or whose thread dies, rejects too, and
 * the next render starts a new thread.
 */
export class RenderPool {
  /** `null` is the warm-up task: it loads a thread and renders nothing. */
  private readonly pool: Piscina<RenderTask | null, RenderedEmail | null>;
  private readonly timeoutMs: number;
  private closed = false;

  constructor({ templates, threads = 1, timeoutMs = RENDER_TIMEOUT_MS, onError = () => {} }: RenderPoolOptions) {
    this.timeoutMs = timeoutMs;
    this.pool = new Piscina({
      // A plain module that teaches the thread TypeScript (tsx) before it loads render-worker.ts.
      filename: new URL('./render-worker.mjs', import.meta.url).href,
      workerData: templates,
      // Threads are made for work and then kept: one costs about a second of CPU to start
      // (TypeScript, react-email and the templates to load), far more than its renders. None is
      // kept at a minimum, which piscina would restart at once, over and over, if it could not load.
      minThreads: 0,
      maxThreads: threads,
      concurrentTasksPerWorker: RENDERS_PER_THREAD,
      idleTimeout: Infinity,
    });
    // Without a listener, an idle thread's death would be thrown on the main thread.
    this.pool.on('error', onError);
    // The warm-up: a task that only loads the thread. Should it fail, the first email says why.
    this.pool.run(null).catch(() => {});
  }

  async render(task: RenderTask): Promise<RenderedEmail> {
    if (this.closed) throw poolClosed(task);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    try {
      // An aborted task leaves the queue, or, if it is running, its thread is terminated.
      return (await this.pool.run(task, { signal: timeout }))!;
    } catch (error) {
      if (timeout.aborted) throw new Error(`Rendering the ${task.kind} email took longer than ${this.timeoutMs / 1000} s`, { cause: error });
      throw error;
    }
  }

  /** Ends every thread; a render still running fails. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.destroy();
  }

  /**
   * A share of the process's one pool for these options: its threads start once per process, not
   * once per server built in it (a test file builds dozens; each new thread costs about a second
   * of CPU). The pool lives as long as the process; its idle threads do not keep the process
   * alive. `close` on a share only stops its own renders from starting.
   */
  static shared(options: RenderPoolOptions): EmailRenderer {
    const { onError, ...shape } = options;
    const key = JSON.stringify([shape.templates.url, shape.templates.exportName, shape.threads ?? 1, shape.timeoutMs ?? RENDER_TIMEOUT_MS]);
    let entry = SHARED.get(key);
    if (!entry) {
      const listeners = new Set<(error: unknown) => void>();
      entry = { pool: new RenderPool({ ...shape, onError: (error) => listeners.forEach((listener) => listener(error)) }), listeners };
      SHARED.set(key, entry);
    }
    const { pool, listeners } = entry;
    const listener = onError ?? (() => {});
    listeners.add(listener);
    let closed = false;
    return {
      render: (task) => {
        if (closed) return Promise.reject(poolClosed(task));
        return pool.render(task);
      },
      close: async () => {
        closed = true;
        listeners.delete(listener);
      },
    };
  }
}

/** What renders an outbox's emails: a pool of its own, or a share of the process's (`RenderPool.shared`). */
export interface EmailRenderer {
  render(task: RenderTask): Promise<RenderedEmail>;
  close(): Promise<void>;
}

/** What a closed pool, or a closed share of one, answers a render. */
function poolClosed(task: RenderTask): Error {
  return new Error(`The ${task.kind} email was not rendered: the render pool is closed`);
}

/** The process's pools, by their options; each with the error listeners of its current shares. */
const SHARED = new Map<string, { pool: RenderPool; listeners: Set<(error: unknown) => void> }>();
