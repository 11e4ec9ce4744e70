// The worker loop: claims executions while solver threads are free, runs them in the thread pool with their job's
// input (inputs.ts), records progress (best value so far), and hands each run's end to outcomes.ts, which records it
// through the database's failures. It also claims data files to validate, one at a time (validation.ts). A
// heartbeat renews its leases, puts expired ones (dead workers) back in the queue once this worker has itself
// reached the database for a lease, and stops runs whose job was cancelled. Nothing a solver does can take the loop
// down: every failure of the run becomes the execution's ERROR. A failure of the database is not the run's: see
// outcomes.ts for how long it is waited for.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { InputError } from '@jes/contract/inputs';
import { type ProgressPoint, progressEveryMs, withProgress } from '@jes/contract';
import { errorBody } from '../core/api-error.ts';
import { SolverLimitError } from '../core/solver.ts';
import type { Database } from '../store/database.ts';
import type { DiskSpace } from '../store/disk-space.ts';
import { jobChannel, workChannel } from '../store/channels.ts';
import { heartbeat, release, requeueAbandoned, requeueExpired } from '../store/leases.ts';
import { type Claimed, claim, markRunning, type Outcome, recordProgress } from '../store/queue.ts';
import { isTransient, isUnreachable } from '../store/transient.ts';
import { releaseValidations } from '../store/validations.ts';
import { RunCancelledError, SolverCrashedError, SolverFailedError } from './errors.ts';
import { JobInputs } from './inputs.ts';
import { Outcomes } from './outcomes.ts';
import type { SolverPool } from './pool.ts';
import { executionEnded, traceExecution, traceSolve } from './spans.ts';
import { ValidationTasks } from './validation.ts';

export interface WorkerLoopOptions {
  db: Database;
  pool: SolverPool;
  logger: Logger;
  /** Seconds a claim stays valid without a heartbeat. */
  leaseSeconds?: number;
  /** Milliseconds between heartbeats (which also notice cancels). */
  heartbeatMs?: number;
  /** Milliseconds between looks at the queue when nothing announced work. */
  pollMs?: number;
  /** The embedded database's disk: while it is below its floor, no data file is validated (that writes a lot). */
  space?: DiskSpace | undefined;
}

interface Running {
  job_id: string;
  solver: string;
  /** It runs alone: nothing else is claimed meanwhile (see store/leases.ts). */
  suspect: boolean;
  cancel(): void;
  /** Why the run was stopped: its job was cancelled, this worker no longer holds its lease, or it is stopping. */
  stopped?: 'cancelled' | 'lease lost' | 'handed back';
}

export class WorkerLoop {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Running>();
  /** How runs' ends are written (and the runs whose end is being written). */
  private readonly outcomes: Outcomes;
  private readonly inputs: JobInputs;
  /** Since when every heartbeat has reached the database; undefined before the first and after one that did not. */
  private inTouchSince: number | undefined;
  private readonly done = new Set<Promise<void>>();
  /** The data files this worker validates, one at a time (validation.ts). */
  private readonly validations: ValidationTasks;
  private stopped = false;
  private wake: (() => void) | undefined;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>)[] = [];
  private loop: Promise<void> | undefined;
  private readonly lease: number;
  private readonly options: WorkerLoopOptions;

  constructor(options: WorkerLoopOptions) {
    this.options = options;
    this.lease = options.leaseSeconds ?? 15;
    this.outcomes = new Outcomes(options.db, this.id, this.lease);
    this.inputs = new JobInputs(options.db, (fn, log, what) => this.outcomes.retry(fn, log, what));
    this.validations = new ValidationTasks(options.db, this.id, this.lease, options.logger, options.space);
  }

  async start(): Promise<void> {
    const { db, logger } = this.options;
    // No other process can hold a lease on the embedded database: what is in flight was left by a previous
    // process that was killed, and need not wait for its leases to run out.
    if (db.kind === 'embedded') {
      await releaseValidations(db).catch(() => {});
      await requeueAbandoned(db).then(
        (count) => count > 0 && logger.info(`requeued ${count} execution(s) left running by a previous process`),
        (err) =>
          logger.error(
            { err },
            'could not requeue the executions left running by a previous process; they run again when their leases expire',
          ),
      );
    }
    // After the notifications connection comes back, what was announced while it was down is looked at at once:
    // new work (a claim) and cancels (a heartbeat), rather than at the next poll.
    const resync = () => {
      this.validations.markDue();
      this.wake?.();
      void this.beat();
    };
    const announced = (payload: string) => {
      this.validations.heard(payload);
      this.wake?.();
    };
    this.unlisten.push(await db.listen(workChannel, announced, resync));
    this.unlisten.push(await db.listen(jobChannel, (jobId) => this.checkCancel(jobId)));
    this.timers.push(setInterval(() => void this.beat(), this.options.heartbeatMs ?? 500));
    this.loop = this.run();
  }

  /** Stops claiming, gives running executions back to the queue, and waits for their runs to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.outcomes.stopping();
    this.wake?.();
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.unlisten.map((u) => u()));
    await this.loop;
    // Outcomes being recorded go first: handing those executions back would throw finished runs away.
    await this.outcomes.settled();
    await this.validations.release().catch(() => {});
    await release(this.options.db, this.id).catch((err) =>
      this.options.logger.error({ err }, 'could not hand executions back; they run again when their leases expire'),
    );
    for (const run of this.running.values()) this.stopRun(run, 'handed back');
    await Promise.allSettled(this.done);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        // Runs register synchronously when they start, before their input loads: count them, not idle threads (a
        // run alone may hold every thread, as a team, and lends one to the next run: pool.ts).
        // A suspect execution runs alone: nothing is claimed beside it.
        const runs = [...this.running.values()];
        const free = runs.some((r) => r.suspect) ? 0 : this.options.pool.size - runs.length;
        const claimed =
          free > 0 ? await claim(this.options.db, this.id, free, this.lease, { idle: runs.length === 0 }) : [];
        for (const execution of claimed) this.track(traceExecution(execution, () => this.execute(execution)));
        const validation = await this.validations.claim();
        if (validation) this.track(validation);
        if (claimed.length > 0 && claimed.length === free) continue;
      } catch (err) {
        this.options.logger.error({ err }, 'claiming work failed');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.validations.markDue();
          resolve();
        }, this.options.pollMs ?? 1000);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private track(promise: Promise<void>): void {
    this.done.add(promise);
    void promise.finally(() => {
      this.done.delete(promise);
      this.wake?.();
    });
  }

  private async beat(): Promise<void> {
    const { db, logger } = this.options;
    this.validations.markDue();
    try {
      // Only runs registered before the query are judged by it: a claim committed meanwhile is not in its answer.
      // Only the runs alive in memory (and those whose end is being written) are renewed, expired leases included:
      // an execution this worker no longer runs lets its lease run out, and is taken back.
      const before = [...this.running];
      const alive = [...before.map(([, run]) => run), ...this.outcomes.ending.values()];
      const { held, cancel } = await heartbeat(db, this.id, this.lease, alive);
      for (const [key, run] of before) {
        if (cancel.has(key)) this.stopRun(run, 'cancelled');
        else if (!held.has(key)) this.stopRun(run, 'lease lost');
      }
      await this.validations.renew();
      // Leases that ran out are taken back, as their workers' crashes, only by a worker that has reached the
      // database beat after beat for a whole lease: a live owner has then had that lease to renew them. After an
      // outage every lease has run out, and the first worker back would otherwise blame crashes on the executions
      // of processes that are alive, its own included (issue 28, 2). Meanwhile a query says whether it answers.
      const inTouch = this.inTouchSince !== undefined && Date.now() - this.inTouchSince >= this.lease * 1000;
      await (inTouch ? requeueExpired(db) : db.query('SELECT 1'));
      this.inTouchSince ??= Date.now();
    } catch (err) {
      if (isUnreachable(err)) this.inTouchSince = undefined;
      logger.warn({ err }, 'heartbeat failed');
    }
  }

  private checkCancel(jobId: string): void {
    if ([...this.running.keys()].some((key) => key.startsWith(`${jobId}/`))) void this.beat();
  }

  private stopRun(run: Running, reason: NonNullable<Running['stopped']>): void {
    if (run.stopped) return;
    run.stopped = reason;
    run.cancel();
  }

  private async execute(execution: Claimed): Promise<void> {
    const { db, pool, logger } = this.options;
    const key = `${execution.job_id}/${execution.solver}`;
    const log = logger.child({ job: execution.job_id, solver: execution.solver });
    const state: Running = {
      job_id: execution.job_id,
      solver: execution.solver,
      suspect: execution.suspect,
      cancel: () => {},
    };
    this.running.set(key, state);
    const claimedAt = performance.now();
    let outcome: Outcome | 'hand back';
    // The best value the solver has reported: kept by a cancelled execution (with the result's, when it returns one).
    let best: number | undefined;
    // The best value over time (the contract's progress_history), bounded and thinned by withProgress.
    let history: readonly ProgressPoint[] = [];
    try {
      const input = await this.inputs.acquire(execution, log);
      // An execution whose input came with the claim was marked RUNNING by it.
      if (
        !state.stopped &&
        execution.status !== 'RUNNING' &&
        !(await this.outcomes.retry(
          () => markRunning(db, this.id, execution.job_id, execution.solver),
          log,
          'marking it running',
        ))
      )
        state.stopped = 'lease lost';
      if (state.stopped) throw new RunCancelledError(`stopped before it ran (${state.stopped})`);
      // Every half second while it runs: the time used, the best cut so far and its history (runs shorter than that
      // write nothing), with a `progress` event when the best value changed since the last tick's (so at most one
      // per execution per half second).
      const started = performance.now();
      let announced: number | undefined;
      const ticker = setInterval(() => {
        if (best === undefined) return;
        const progress = Math.min(1, (performance.now() - started) / 1000 / execution.time_limit_seconds);
        const last = history.at(-1);
        const event = best !== announced && last ? { seconds: last.seconds } : undefined;
        announced = best;
        const changed = event && { points: history, event };
        void recordProgress(db, this.id, execution.job_id, execution.solver, progress, best, changed).catch(() => {});
      }, progressEveryMs);
      const result = await traceSolve(execution, () => {
        const handle = pool.run(
          {
            problemId: execution.problem_id,
            solver: execution.solver,
            input,
            timeLimitSeconds: execution.time_limit_seconds,
            seed: execution.seed,
            params: execution.params,
          },
          (p) => {
            best = p.bestValue;
            history = withProgress(history, { seconds: p.foundAtSeconds, best_value: p.bestValue });
          },
        );
        state.cancel = () => handle.cancel();
        if (state.stopped) handle.cancel();
        return handle.result.finally(() => clearInterval(ticker));
      });
      // Inputs are refused when their weights could overflow; should an objective still not be finite, it is no
      // answer (stored as JSON it would read back as null, and the job could no longer be shown).
      if (!Number.isFinite(result.objective))
        throw new SolverFailedError(`The solver returned an objective of ${result.objective}.`);
      // The answer is the history's last point (when the solver never reported it, at its time to best if it says).
      const toBest = result.data.time_to_best_seconds;
      history = withProgress(history, {
        seconds: typeof toBest === 'number' ? toBest : (performance.now() - started) / 1000,
        best_value: result.objective,
      });
      outcome = state.stopped
        ? { status: 'CANCELLED', bestValue: result.objective, history }
        : { status: 'SUCCESS', bestValue: result.objective, data: result.data, history };
    } catch (error) {
      // A database that still fails after the retries is no fault of the run: it runs again later.
      outcome =
        state.stopped || error instanceof RunCancelledError
          ? { status: 'CANCELLED', bestValue: best, history }
          : isTransient(error)
            ? 'hand back'
            : { status: 'ERROR', error: failure(error) };
      if (outcome === 'hand back') log.warn({ err: error }, 'the database failed while preparing the execution');
      else if (
        outcome.status === 'ERROR' &&
        (error instanceof SolverCrashedError ||
          !(error instanceof SolverLimitError || error instanceof SolverFailedError || error instanceof InputError))
      ) {
        log.error({ err: error }, 'execution failed');
      }
    } finally {
      this.running.delete(key);
      this.inputs.release(execution.job_id);
    }
    const ended =
      state.stopped === 'handed back' || state.stopped === 'lease lost'
        ? state.stopped
        : outcome === 'hand back'
          ? 'handed back'
          : outcome.status;
    executionEnded(ended, outcome !== 'hand back' && outcome.status === 'ERROR' ? outcome.error.detail : undefined);
    db.metrics?.jobs.executed(
      execution.solver,
      ended.toLowerCase().replace(' ', '_'),
      (performance.now() - claimedAt) / 1000,
    );
    // This worker is stopping and gave it back (stop()): another run picks it up.
    if (state.stopped === 'handed back')
      return void log.info('handed back to the queue as this worker stops; it will run again');
    // Another worker holds it now (this one stalled past its lease): that worker records the outcome.
    if (state.stopped === 'lease lost')
      return void log.warn('lost the lease of a running execution; stopped it without recording');
    await this.outcomes.end(execution, outcome, log);
  }
}

function failure(error: unknown) {
  if (error instanceof SolverLimitError) return errorBody('solver_limit_exceeded', error.message);
  if (error instanceof InputError) return errorBody('data_file_invalid', error.message, { errors: error.errors });
  if (error instanceof SolverCrashedError) return errorBody('solver_failed', `The solver crashed: ${error.message}`);
  if (error instanceof SolverFailedError) return errorBody('solver_failed', error.message);
  return errorBody('solver_failed', 'The execution failed unexpectedly.');
}
