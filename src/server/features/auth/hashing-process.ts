import { fork, type ChildProcess } from 'node:child_process';
import type { ScryptOptions } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/**
 * Password hashes are computed in a helper process (docs/decisions/187-password-hashing-process.md).
 * scrypt at our cost asks for 32 MiB per hash: just over what glibc's malloc keeps between
 * allocations, so each hash mapped 32 MiB afresh, faulted in its 8,192 pages and unmapped them,
 * and an unmapping interrupts every core the process runs on. In the server's own process that
 * stalled the event loop and the embedded database's thread for every sign-in (issue 37: the
 * capacity bench's slowest requests were the ones that ran beside a hash). The helper's malloc is
 * told to keep the memory (GLIBC_TUNABLES; ignored where the C library is not glibc), and it runs
 * at a lower priority, so a hash takes what the server leaves.
 */

const HELPER = fileURLToPath(new URL('./scrypt-process.mjs', import.meta.url));
/**
 * One heap for all its threads, allocations up to 64 MiB taken from it, and up to 128 MiB left
 * free in it before it shrinks: what hashes at once need is mapped once and kept.
 */
const MALLOC_KEEPS_MEMORY = 'glibc.malloc.arena_max=1:glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=134217728';
/** A hash takes about 60–90 ms; one not answered in this long means the helper is stuck: it is replaced. */
const HASH_TIMEOUT_MS = 30_000;

export interface HashTask {
  password: string;
  salt: Buffer;
  keyLength: number;
  options: ScryptOptions;
}

interface Waiting {
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** The helper stopped or stuck while a hash was under way: a passing failure, worth trying again. */
export class HashingUnavailableError extends Error {}

type Answer = { id: number; key: Uint8Array; error?: undefined } | { id: number; error: string };

export class HashingProcess {
  private child: ChildProcess | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  /** `threads`: hashes the helper computes at once (libuv's thread pool there; each keeps its 32 MiB). */
  constructor(private readonly threads: number) {}

  /** scrypt(task) in the helper, started at the first hash and again after it stopped. */
  hash(task: HashTask): Promise<Buffer> {
    const child = (this.child ??= this.start());
    const id = this.nextId++;
    // The helper keeps this process alive only while a hash is awaited (a command-line tool exits after its own).
    if (this.waiting.size === 0) this.hold(child, true);
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(new HashingUnavailableError(`A password hash took longer than ${HASH_TIMEOUT_MS / 1000} s: the hashing process is replaced`));
        child.kill('SIGKILL');
      }, HASH_TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer });
      child.send({ id, ...task }, (error) => {
        if (error) this.settle(id)?.reject(new HashingUnavailableError(`The password hashing process could not be reached: ${error.message}`));
      });
    });
  }

  /** The helper's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the helper; hashes still awaited fail, and the next hash starts it again. */
  stop(): void {
    this.child?.kill();
  }

  private start(): ChildProcess {
    const child = fork(HELPER, [], {
      // Nothing of the server's: no TypeScript loader, and none of its environment (secrets included).
      execArgv: [],
      env: { GLIBC_TUNABLES: MALLOC_KEEPS_MEMORY, UV_THREADPOOL_SIZE: String(this.threads) },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (answer: Answer) => {
      const waiting = this.settle(answer.id);
      if (!waiting) return;
      if (answer.error !== undefined) waiting.reject(new Error(answer.error));
      else waiting.resolve(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.byteLength));
    });
    const stopped = (reason: string) => {
      if (this.child !== child) return;
      this.child = undefined;
      for (const id of [...this.waiting.keys()]) this.settle(id)?.reject(new HashingUnavailableError(`The password hashing process stopped (${reason})`));
    };
    child.on('exit', (code, signal) => stopped(signal ?? `exit code ${code}`));
    child.on('error', (error) => stopped(error.message));
    this.hold(child, false);
    return child;
  }

  private settle(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (!waiting) return undefined;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    if (this.waiting.size === 0 && this.child) this.hold(this.child, false);
    return waiting;
  }

  private hold(child: ChildProcess, keepAlive: boolean): void {
    if (keepAlive) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }
}
