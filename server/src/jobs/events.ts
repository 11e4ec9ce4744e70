// Job status changes, as announced on the database's `jes_job` channel by whichever process made them:
// what the `Prefer: wait=N` long poll waits on, without polling the database.
import { EventEmitter } from 'node:events';
import type { Database } from '../store/database.ts';
import { jobChannel } from '../store/jobs.ts';

const anyJob = Symbol('any job');

export class JobEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private unlisten: (() => Promise<void>) | undefined;

  async start(db: Database): Promise<void> {
    this.unlisten = await db.listen(jobChannel, (jobId) => {
      this.emitter.emit(jobId);
      this.emitter.emit(anyJob, jobId);
    });
  }

  /** Calls `fn` with the id of every job that changes. */
  onChange(fn: (jobId: string) => void): void {
    this.emitter.on(anyJob, fn);
  }

  /** Resolves when the job changes or after `ms`, whichever comes first (or at once if `signal` aborts). */
  waitForChange(jobId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off(jobId, done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.emitter.once(jobId, done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
  }
}
