import type { FastifyBaseLogger } from 'fastify';

/**
 * Periodic clean-up (expired sessions, stale uploads, old login failures). Every instance runs
 * it; each task is an idempotent DELETE, so running it twice at once does no harm.
 */
export interface MaintenanceTask {
  name: string;
  run(): Promise<unknown>;
}

export class Maintenance {
  private readonly tasks: MaintenanceTask[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 15 * 60 * 1000,
  ) {}

  add(task: MaintenanceTask): void {
    this.tasks.push(task);
  }

  async runAll(): Promise<void> {
    for (const task of this.tasks) {
      try {
        const result = await task.run();
        this.log.debug({ task: task.name, result }, 'maintenance task done');
      } catch (error) {
        this.log.warn({ err: error, task: task.name }, 'maintenance task failed');
      }
    }
  }

  start(): void {
    this.timer = setInterval(() => void this.runAll(), this.intervalMs);
    this.timer.unref();
    void this.runAll();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
