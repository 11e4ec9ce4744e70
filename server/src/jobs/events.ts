// Job status changes, as announced on the database's `jes_job` channel by whichever process made them:
// what the `Prefer: wait=N` long poll waits on, without polling the database. Announcements are lost while
// the connection that hears them is down: then every waiter is woken twice a second to re-read its job, and
// once more when the connection is back.
import { EventEmitter } from 'node:events';
import type { Database } from '../store/database.ts';
import { jobChannel } from '../store/channels.ts';

const anyJob = Symbol('any job');
/** Wakes every waiter: it re-reads its job. */
const everyone = Symbol('every waiter');
/** Announcements may have been missed (the notifications connection is back): every cached job is suspect. */
const missed = Symbol('announcements missed');
/** How often waiters re-read while notifications are down (well within the contract's "up to a second"). */
const pollWhileDownMs = 500;

export class JobEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private unlisten: (() => Promise<void>) | undefined;
  private poll: NodeJS.Timeout | undefined;
  private ending = false;

  async start(db: Database): Promise<void> {
    this.unlisten = await db.listen(
      jobChannel,
      (jobId) => {
        this.emitter.emit(jobId);
        this.emitter.emit(anyJob, jobId);
      },
      () => {
        this.emitter.emit(everyone);
        this.emitter.emit(missed);
      },
    );
    this.poll = setInterval(() => {
      if (db.notifications() === 'down') this.emitter.emit(everyone);
    }, pollWhileDownMs).unref();
  }

  /** Calls `fn` with the id of every job that changes. */
  onChange(fn: (jobId: string) => void): void {
    this.emitter.on(anyJob, fn);
  }

  /** Calls `fn` when announcements may have been missed (after the notifications connection came back). */
  onMissed(fn: () => void): void {
    this.emitter.on(missed, fn);
  }

  /** True once the server is shutting down: a wait ends at once, so the long poll answers while it can. */
  get closing(): boolean {
    return this.ending;
  }

  /**
   * Starts listening for changes of the job, before it is read: a change announced between a read and the wait
   * that follows it is not lost (the long poll then waited its whole time for a job that had long ended).
   * `next(ms)` resolves when the job may have changed since the watch began or since the last `next` resolved
   * (its announcement, a reconnect, a poll while announcements are down, the shutdown), or after `ms`, or at once
   * if `signal` aborts. `close()` stops listening.
   */
  watch(jobId: string): { next(ms: number, signal?: AbortSignal): Promise<void>; close(): void } {
    let changed = this.ending;
    let wake: (() => void) | undefined;
    const changes = () => {
      changed = true;
      wake?.();
    };
    this.emitter.on(jobId, changes);
    this.emitter.on(everyone, changes);
    return {
      next: (ms, signal) =>
        new Promise<void>((resolve) => {
          let timer: NodeJS.Timeout | undefined;
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            wake = undefined;
            changed = this.ending;
            resolve();
          };
          if (changed || signal?.aborted) return done();
          timer = setTimeout(done, ms);
          wake = done;
          signal?.addEventListener('abort', done, { once: true });
        }),
      close: () => {
        wake?.();
        this.emitter.off(jobId, changes);
        this.emitter.off(everyone, changes);
      },
    };
  }

  /** Ends every wait now and any later one at once: the first step of a shutdown. */
  endWaits(): void {
    this.ending = true;
    this.emitter.emit(everyone);
  }

  async stop(): Promise<void> {
    clearInterval(this.poll);
    await this.unlisten?.();
  }
}
