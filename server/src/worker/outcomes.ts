// How a run's end reaches the store: its outcome recorded, or the execution handed back to the queue to run again,
// each tried again through the database's failures (retry). A database that cannot be reached is waited for as
// long as it takes (until the worker stops, and a lease more): the outcome is still in memory, and while it is
// being written its lease is renewed (the heartbeat renews `ending` too), so an outage, however long, is no reason
// to run an execution again, nor to throw a finished run away. A database that answers but keeps refusing (a lock
// held, conflicts) is tried for about one lease.
import type { Logger } from 'pino';
import { errorBody } from '../core/api-error.ts';
import type { Database } from '../store/database.ts';
import { releaseOne } from '../store/leases.ts';
import { type Claimed, finish, type Outcome } from '../store/queue.ts';
import { isTransient, isUnreachable, retryTransient } from '../store/transient.ts';

/** An execution, as the heartbeat renews its lease. */
export interface Held {
  job_id: string;
  solver: string;
}

export class Outcomes {
  /** Runs that ended and whose outcome (or handback) is being written: their leases are renewed until it is. */
  readonly ending = new Map<string, Held>();
  /** The endings under way, which a stop waits for. */
  private readonly endings = new Set<Promise<void>>();
  /** When a stopping worker stops waiting for a database it cannot reach. */
  private stopDeadline = Infinity;

  private readonly db: Database;
  private readonly workerId: string;
  private readonly leaseSeconds: number;

  constructor(db: Database, workerId: string, leaseSeconds: number) {
    this.db = db;
    this.workerId = workerId;
    this.leaseSeconds = leaseSeconds;
  }

  /** The worker stops: a database that cannot be reached is waited for one lease more, no longer. */
  stopping(): void {
    this.stopDeadline = Date.now() + this.leaseSeconds * 1000;
  }

  /** Resolves once every end under way has been written (or has given up). */
  async settled(): Promise<void> {
    await Promise.allSettled(this.endings);
  }

  /** Runs `fn` again after transient database failures, as this file's head says. */
  retry<T>(fn: () => Promise<T>, log: Logger, what: string): Promise<T> {
    const deadline = Date.now() + this.leaseSeconds * 1000;
    return retryTransient(fn, {
      tries: Infinity,
      delayMs: 100,
      maxDelayMs: 2000,
      onRetry: (err, attempt) => {
        if (Date.now() >= (isUnreachable(err) ? this.stopDeadline : deadline)) throw err;
        log.warn({ err }, `${what} failed (try ${attempt}); trying again`);
      },
    });
  }

  /** Writes how a run ended: its outcome, or (`hand back`) its return to the queue; its lease is renewed meanwhile. */
  async end(execution: Claimed, outcome: Outcome | 'hand back', log: Logger): Promise<void> {
    const key = `${execution.job_id}/${execution.solver}`;
    this.ending.set(key, { job_id: execution.job_id, solver: execution.solver });
    const ended = (async () => {
      try {
        if (outcome === 'hand back')
          await this.handBack(execution, log, 'handed the execution back to the queue; it will run again');
        else await this.record(execution, outcome, log);
      } finally {
        this.ending.delete(key);
      }
    })();
    this.endings.add(ended);
    await ended.finally(() => this.endings.delete(ended));
  }

  /** Records the outcome (tried as retry says); if it cannot be, the execution is handed back to run again. */
  private async record(execution: Claimed, outcome: Outcome, log: Logger): Promise<void> {
    const { db, workerId } = this;
    try {
      const held = await this.retry(
        () => finish(db, workerId, execution.job_id, execution.solver, outcome),
        log,
        'recording the outcome',
      );
      if (!held) log.warn('the execution was no longer held by this worker; its outcome was not recorded');
      return;
    } catch (err) {
      // An outcome the database refuses for good (not a lost connection nor a lock) would be refused again at
      // every run: record the failure instead, so the execution ends.
      if (!isTransient(err) && outcome.status !== 'ERROR') {
        log.error({ err }, 'the database refused the outcome; recording the execution as failed');
        const failed: Outcome = {
          status: 'ERROR',
          error: errorBody('solver_failed', 'The outcome could not be stored.'),
        };
        if (await finish(db, workerId, execution.job_id, execution.solver, failed).catch(() => false)) return;
      }
      // A conflict that lasted a lease, or a worker stopping while the database is away. Handed back rather than
      // left to its lease: it runs again at once, and a lease that runs out counts as a crash.
      await this.handBack(
        execution,
        log,
        `could not record the outcome (${(err as Error).message}); handed the execution back to the queue, it will run again`,
      );
    }
  }

  private async handBack(execution: Claimed, log: Logger, message: string): Promise<void> {
    try {
      const released = await this.retry(
        () => releaseOne(this.db, this.workerId, execution.job_id, execution.solver),
        log,
        'handing the execution back',
      );
      if (released) log.warn(message);
      else log.warn('the execution was no longer held by this worker; nothing to hand back');
    } catch (err) {
      // Its lease is no longer renewed (it is not in memory): it runs out, and the execution is taken back then.
      log.error(
        { err },
        `could not hand the execution back; it runs again when its lease expires (within ${this.leaseSeconds} s)`,
      );
    }
  }
}
