// The worker loop: claims executions while solver threads are free, loads their input, runs them in the
// thread pool, records progress (best cut so far) and the outcome. A heartbeat renews its leases, puts
// expired ones (dead workers) back in the queue, and stops runs whose job was cancelled. Nothing a solver
// does can take the loop down: every failure becomes the execution's ERROR.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { problemBody } from '../http/problems.ts';
import { graphFromDataFile } from '../maxcut/data-file.ts';
import type { Graph } from '../maxcut/graph.ts';
import { graphFromInline } from '../maxcut/inline.ts';
import { InputError } from '../maxcut/input-error.ts';
import type { Database } from '../store/database.ts';
import { readChunks } from '../store/data-files.ts';
import { jobChannel, workChannel } from '../store/jobs.ts';
import { type Claimed, claim, finish, heartbeat, markRunning, type Outcome, recordProgress, release, requeueExpired } from '../store/queue.ts';
import { RunCancelledError, SolverCrashedError, SolverFailedError } from './errors.ts';
import type { SolverPool } from './pool.ts';
import { SolverLimitError } from '../solvers/solver.ts';

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
}

interface Running {
  cancel(): void;
  /** Why the run was stopped: its job was cancelled, or this worker no longer holds its lease. */
  stopped?: 'cancelled' | 'lease lost';
}

export class WorkerLoop {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Running>();
  private readonly done = new Set<Promise<void>>();
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
  }

  async start(): Promise<void> {
    const { db } = this.options;
    this.unlisten.push(await db.listen(workChannel, () => this.wake?.()));
    this.unlisten.push(await db.listen(jobChannel, (jobId) => this.checkCancel(jobId)));
    this.timers.push(setInterval(() => void this.beat(), this.options.heartbeatMs ?? 500));
    this.loop = this.run();
  }

  /** Stops claiming, gives running executions back to the queue, and waits for their runs to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.unlisten.map((u) => u()));
    await this.loop;
    await release(this.options.db, this.id).catch((err) => this.options.logger.error({ err }, 'could not release executions'));
    for (const run of this.running.values()) this.stopRun(run, 'lease lost');
    await Promise.allSettled(this.done);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        // Runs register synchronously when they start, before their input loads: count them, not idle threads.
        const free = this.options.pool.size - this.running.size;
        const claimed = free > 0 ? await claim(this.options.db, this.id, free, this.lease) : [];
        for (const execution of claimed) this.track(this.execute(execution));
        if (claimed.length > 0 && claimed.length === free) continue;
      } catch (err) {
        this.options.logger.error({ err }, 'claiming work failed');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs ?? 1000);
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
    try {
      // Only runs registered before the query are judged by it: a claim committed meanwhile is not in its answer.
      const before = [...this.running];
      const { held, cancel } = await heartbeat(this.options.db, this.id, this.lease);
      for (const [key, run] of before) {
        if (cancel.has(key)) this.stopRun(run, 'cancelled');
        else if (!held.has(key)) this.stopRun(run, 'lease lost');
      }
      await requeueExpired(this.options.db);
    } catch (err) {
      this.options.logger.warn({ err }, 'heartbeat failed');
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

  private async loadGraph(execution: Claimed): Promise<Graph> {
    const { db } = this.options;
    if (execution.input_mode === 'data_file') return (await graphFromDataFile(readChunks(db, execution.owner, execution.data_file_id!))).graph;
    const [row] = await db.query<{ input: Uint8Array }>('SELECT input FROM jobs WHERE id = $1', [execution.job_id]);
    return graphFromInline(JSON.parse(Buffer.from(row!.input).toString('utf8')));
  }

  private async execute(execution: Claimed): Promise<void> {
    const { db, pool, logger } = this.options;
    const key = `${execution.job_id}/${execution.solver}`;
    const log = logger.child({ job: execution.job_id, solver: execution.solver });
    const state: Running = { cancel: () => {} };
    this.running.set(key, state);
    let outcome: Outcome;
    try {
      const graph = await this.loadGraph(execution);
      if (!state.stopped && !(await markRunning(db, this.id, execution.job_id, execution.solver))) state.stopped = 'lease lost';
      if (state.stopped) throw new RunCancelledError(`stopped before it ran (${state.stopped})`);
      // Every half second while it runs: the time used and the best cut so far (runs shorter than that write nothing).
      let best: number | undefined;
      const started = performance.now();
      const ticker = setInterval(() => {
        if (best === undefined) return;
        const progress = Math.min(1, (performance.now() - started) / 1000 / execution.time_limit_seconds);
        void recordProgress(db, this.id, execution.job_id, execution.solver, progress, best).catch(() => {});
      }, 500);
      const handle = pool.run(
        { solver: execution.solver, graph, timeLimitSeconds: execution.time_limit_seconds, seed: execution.seed, params: execution.params },
        (p) => void (best = p.bestValue),
      );
      state.cancel = () => handle.cancel();
      if (state.stopped) handle.cancel();
      const result = await handle.result.finally(() => clearInterval(ticker));
      // Inputs are refused when their weights could overflow; should a cut still not be finite, it is no answer
      // (stored as JSON it would read back as null, and the job could no longer be shown).
      if (!Number.isFinite(result.cutValue)) throw new SolverFailedError(`The solver returned a cut of ${result.cutValue}.`);
      outcome = state.stopped
        ? { status: 'CANCELLED' }
        : {
            status: 'SUCCESS',
            data: {
              cut_value: result.cutValue,
              partition: Array.from(result.partition),
              optimal: result.optimal,
              ...(result.upperBound !== undefined ? { upper_bound: result.upperBound } : {}),
              iterations: result.iterations,
              time_to_best_seconds: result.timeToBestSeconds,
            },
          };
    } catch (error) {
      outcome = state.stopped || error instanceof RunCancelledError ? { status: 'CANCELLED' } : { status: 'ERROR', error: failure(error) };
      if (outcome.status === 'ERROR' && (error instanceof SolverCrashedError || !(error instanceof SolverLimitError || error instanceof SolverFailedError || error instanceof InputError))) {
        log.error({ err: error }, 'execution failed');
      }
    } finally {
      this.running.delete(key);
    }
    // Another worker holds it now (this one stalled past its lease): that worker records the outcome.
    if (state.stopped === 'lease lost') return void log.warn('lost the lease of a running execution; stopped it without recording');
    if (!(await finish(db, this.id, execution.job_id, execution.solver, outcome).catch((err) => log.error({ err }, 'could not record the outcome')))) {
      log.warn('the execution was no longer held by this worker; its outcome was not recorded');
    }
  }
}

function failure(error: unknown) {
  if (error instanceof SolverLimitError) return problemBody('solver_limit_exceeded', error.message);
  if (error instanceof InputError) return problemBody('data_file_invalid', error.message, { errors: error.errors });
  if (error instanceof SolverCrashedError) return problemBody('solver_failed', `The solver crashed: ${error.message}`);
  if (error instanceof SolverFailedError) return problemBody('solver_failed', error.message);
  return problemBody('solver_failed', 'The execution failed unexpectedly.');
}
