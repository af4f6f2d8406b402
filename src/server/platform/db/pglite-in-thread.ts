import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';

/**
 * The embedded database, run in a thread of its own (docs/decisions/182-embedded-database-thread.md).
 * PGlite's engine is WebAssembly that runs to completion: in the thread that answers requests,
 * every query stopped every other request for its whole length, and the engine was most of that
 * thread's time under load (issue 37). Here the server's thread only sends a message and carries
 * on. What the product uses of PGlite is all here, with PGlite's own shapes (Drizzle's driver,
 * pg-boss, LISTEN/NOTIFY, the backup's dump), so nothing above this module changes.
 */
export interface EmbeddedQueries {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

export interface EmbeddedTransaction extends EmbeddedQueries {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /**
   * Per type, how a column's text becomes a value. Only "keep the text" crosses to the
   * database's thread (a function cannot): it is what Drizzle asks for its timestamps.
   */
  parsers?: Record<number, (value: string, type: number) => unknown>;
}

/** A statement: outside any transaction, in an open one (`tx`), or the first of a new one (`begin`). */
type Statement =
  | { op: 'query'; sql: string; params: unknown[] | undefined; rowMode: QueryOptions['rowMode']; textTypes: number[] | undefined }
  | { op: 'exec'; sql: string };

type Request =
  | (Statement & { tx?: number; begin?: true })
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen' | 'unlisten'; channel: string }
  | { op: 'dump' }
  | { op: 'close' };

interface ThreadError {
  message: string;
  props: Record<string, unknown>;
}

/** `tx`: the number of the transaction a `begin` statement opened, whether the statement itself succeeded or not. */
type Reply = { id: number; tx?: number } & ({ result: unknown; error?: undefined } | { error: ThreadError });
type Notice = { notify: string; payload: string } | { ready: boolean; error?: ThreadError };

const THREAD_URL = new URL('./pglite-thread.mjs', import.meta.url);

/** PGlite's engine, compiled, and the files it starts from: options of `PGlite.create`. */
export interface PgliteEngine {
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

const pgliteFile = (name: 'pglite.wasm' | 'pglite.data') => createRequire(import.meta.url).resolve(`@electric-sql/pglite/${name}`);
let engine: Promise<PgliteEngine> | undefined;

/**
 * PGlite's engine compiled once per process, and its file bundle read once: left to itself, each
 * open compiles the 9 MB module again, about 0.4 s of CPU of the 0.9 an open costs (measured on
 * 2 cores). A compiled module crosses to a thread without being compiled again. A process opens
 * several databases in its life in a restore and in the test suites (one per file), and each
 * open after the first is spared it. A failed read or compile is not kept.
 */
export function pgliteEngine(): Promise<PgliteEngine> {
  if (!engine) {
    engine = (async () => {
      const [wasm, data] = await Promise.all([readFile(pgliteFile('pglite.wasm')), readFile(pgliteFile('pglite.data'))]);
      return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
    })();
    engine.catch(() => (engine = undefined));
  }
  return engine;
}

/** An error from the database's thread, with the fields PostgreSQL gave it (code, detail…). */
function rebuild(error: ThreadError): Error {
  const rebuilt = new Error(error.message);
  for (const [key, value] of Object.entries(error.props)) {
    if (key !== 'message' && key !== 'stack') Object.defineProperty(rebuilt, key, { value, writable: true, configurable: true, enumerable: key !== 'name' });
  }
  return rebuilt;
}

function textTypesOf(parsers: QueryOptions['parsers']): number[] | undefined {
  if (!parsers) return undefined;
  return Object.entries(parsers).map(([type, parse]) => {
    // Only parsers that keep the text can be honoured on the other side.
    if (parse('2000-01-02 03:04:05+00', Number(type)) !== '2000-01-02 03:04:05+00') {
      throw new Error(`The embedded database keeps type ${type} as text or parses it itself; a custom parser cannot cross threads`);
    }
    return Number(type);
  });
}

function queryStatement(sql: string, params: unknown[] | undefined, options: QueryOptions): Statement {
  return { op: 'query', sql, params, rowMode: options.rowMode, textTypes: textTypesOf(options.parsers) };
}

export class PgliteInThread implements EmbeddedQueries {
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; opened?: (tx: number) => void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private exited: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: Reply | Notice) => {
      if ('notify' in message) {
        for (const listener of this.listeners.get(message.notify) ?? []) listener(message.payload);
        return;
      }
      if (!('id' in message)) return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) this.worker.unref();
      if (message.tx !== undefined) waiting.opened?.(message.tx);
      if (message.error) waiting.reject(rebuild(message.error));
      else waiting.resolve(message.result);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`The embedded database's thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens the database in `dir` (with pg_trgm, as the schema needs). */
  static async open(dir: string): Promise<PgliteInThread> {
    // No execArgv: the thread is plain JavaScript, and the process's `--import tsx` would only slow its start.
    const worker = new Worker(THREAD_URL, { workerData: { dir, engine: await pgliteEngine() }, execArgv: [] });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: Notice) => {
        if (!('ready' in message)) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (message.ready) resolve();
        else reject(rebuild(message.error!));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    worker.unref();
    return new PgliteInThread(worker);
  }

  private fail(error: Error): void {
    this.exited ??= error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  /** Sends `request`; `opened` hears the number of the transaction a `begin` statement opened. */
  private send<T>(request: Request, opened?: (tx: number) => void): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    // The thread keeps the process alive only while an answer is awaited, as a socket would.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, ...(opened ? { opened } : {}) });
      this.worker.postMessage({ id, ...request });
    });
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options: QueryOptions = {}): Promise<Results<T>> {
    return this.send(queryStatement(sql, params, options));
  }

  exec(sql: string): Promise<Results[]> {
    return this.send({ op: 'exec', sql });
  }

  /**
   * Runs `work` in one transaction, as PGlite's `transaction` does: committed when it returns,
   * rolled back when it throws or calls `rollback`. Other queries wait until it ends.
   *
   * The transaction begins with its first statement, in the same message: the database is held
   * from then until the end, not while this thread builds that first statement, and one round
   * trip fewer (decision 182). A transaction that runs no statement never holds it.
   */
  async transaction<T>(work: (tx: EmbeddedTransaction) => Promise<T>): Promise<T> {
    let number: number | undefined;
    /** The first statement, on its way with the begin; settled once the transaction's number is known. */
    let opening: Promise<unknown> | undefined;
    let closed = false;
    let rolledBack = false;
    const run = <R>(statement: Statement): Promise<R> => {
      if (number !== undefined) return this.send({ ...statement, tx: number });
      if (opening) {
        return opening.then(() =>
          number === undefined ? Promise.reject(new Error('The transaction did not begin')) : this.send<R>({ ...statement, tx: number }),
        );
      }
      const first = this.send<R>({ ...statement, begin: true }, (opened) => (number = opened))
      opening = first.catch(() => {});
      return first;
    };
    const end = async (commit: boolean) => {
      closed = true;
      await opening;
      if (number !== undefined) await this.send({ op: 'end', tx: number, commit });
    };
    const tx: EmbeddedTransaction = {
      query: (sql, params, options = {}) => run(queryStatement(sql, params, options)),
      exec: (sql) => run({ op: 'exec', sql }),
      rollback: async () => {
        rolledBack = true;
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await work(tx);
    } catch (error) {
      await end(false).catch(() => {});
      throw error;
    }
    await end(!rolledBack);
    return result;
  }

  /** Calls `listener` with each notification on `channel`; answers the function that stops it. */
  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.send({ op: 'listen', channel });
    }
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        await this.send({ op: 'unlisten', channel });
      }
    };
  }

  /** The data directory as PGlite's uncompressed tar, as `dumpDataDir('none')` gives it. */
  async dumpDataDir(_compression: 'none' = 'none'): Promise<Blob> {
    return new Blob([await this.send<ArrayBuffer>({ op: 'dump' })]);
  }

  async close(): Promise<void> {
    if (this.exited) return;
    await this.send({ op: 'close' });
    await this.worker.terminate();
  }
}
