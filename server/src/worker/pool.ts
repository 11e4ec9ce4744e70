// SolverPool: a fixed number of worker threads (started on demand) running solver jobs from a FIFO queue,
// with cancellation through a shared stop flag, a watchdog for solvers that overrun their time limit, and
// replacement of threads that die or have to be terminated.
import { Worker } from 'node:worker_threads';
import type { ResourceLimits } from 'node:worker_threads';
import { type Progress, SolverLimitError } from '../core/solver.ts';
import type { SolverOutput } from '../core/use-case.ts';
import { RunCancelledError, SolverCrashedError, SolverFailedError } from './errors.ts';
import type { JobMessage, ThreadMessage } from './solver-thread.ts';
import { threadModule } from './thread-module.ts';

export { RunCancelledError, SolverCrashedError, SolverFailedError } from './errors.ts';

export interface SolverPoolOptions {
  /** Number of threads. */
  size: number;
  /** Applied to every thread; a thread that exceeds them dies and its run rejects with SolverCrashedError. */
  resourceLimits?: ResourceLimits;
}

export interface RunRequest {
  /** The use case whose solver runs (solvers are named per use case). */
  problemId: string;
  solver: string;
  /** The use case's prepared input (UseCase.decode), copied to the thread by structured clone. */
  input: unknown;
  timeLimitSeconds: number;
  seed: number;
  /** The run's parameters as the API takes them (SolverChoice.params): `max_iterations` becomes the solver's `maxIterations`. */
  params?: Record<string, unknown>;
}

export interface RunHandle {
  result: Promise<SolverOutput>;
  /** Ask the solver to stop and resolve with its best so far; idempotent, a no-op once settled. */
  cancel(): void;
}

/** How long a thread has to answer after its stop flag is set before it is terminated. */
const STOP_GRACE_MS = 1000;
/** How long past its time limit a solver may run before the pool stops it. */
const OVERRUN_GRACE_MS = 2000;
/**
 * How long a job may wait for its thread to take it up (a new thread loads its modules first, which takes seconds on a
 * loaded machine): its time limit runs from then. A thread that never does is stopped as an overrun after this.
 */
const START_GRACE_MS = 60_000;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const solverThread = threadModule('solver-thread');

interface Thread {
  worker: Worker;
  job: Job | undefined;
  /** Removed from the pool: terminated by us or exited; its events are ignored from then on. */
  gone: boolean;
  /** The last 'error' event, reported when the thread exits. */
  error: unknown;
}

interface Job {
  id: number;
  request: RunRequest;
  onProgress: ((p: Progress) => void) | undefined;
  resolve: (result: SolverOutput) => void;
  reject: (error: Error) => void;
  stop: SharedArrayBuffer;
  settled: boolean;
  thread: Thread | undefined;
  /** Why the stop flag was set, if it was. */
  stopReason: 'cancel' | 'overrun' | undefined;
  deadlineTimer: NodeJS.Timeout | undefined;
  killTimer: NodeJS.Timeout | undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export class SolverPool {
  readonly size: number;
  readonly #resourceLimits: ResourceLimits | undefined;
  readonly #threads = new Set<Thread>();
  readonly #queue: Job[] = [];
  #nextId = 1;
  #running = 0;
  #closed = false;

  constructor(options: SolverPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new RangeError(`pool size must be a positive integer, got ${options.size}`);
    this.size = options.size;
    this.#resourceLimits = options.resourceLimits;
  }

  /** Threads not running a job (including ones not started yet); 0 once closed. */
  get idle(): number {
    return this.#closed ? 0 : this.size - this.#running;
  }

  run(request: RunRequest, onProgress?: (p: Progress) => void): RunHandle {
    let resolve!: (result: SolverOutput) => void;
    let reject!: (error: Error) => void;
    const result = new Promise<SolverOutput>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A caller that cancels and walks away must not get an unhandled rejection; callers still see it.
    result.catch(() => {});
    const job: Job = {
      id: this.#nextId++,
      request,
      onProgress,
      resolve,
      reject,
      stop: new SharedArrayBuffer(4),
      settled: false,
      thread: undefined,
      stopReason: undefined,
      deadlineTimer: undefined,
      killTimer: undefined,
    };
    if (this.#closed) {
      this.#settle(job, new RunCancelledError('the solver pool is closed'));
    } else {
      this.#queue.push(job);
      this.#dispatch();
    }
    return { result, cancel: () => this.#cancel(job) };
  }

  /** Terminates every thread; queued and running runs reject with RunCancelledError. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) this.#settle(job, new RunCancelledError('the solver pool was closed'));
    const exits: Promise<unknown>[] = [];
    for (const thread of [...this.#threads]) {
      if (thread.job) this.#settle(thread.job, new RunCancelledError('the solver pool was closed'));
      exits.push(this.#remove(thread));
    }
    await Promise.all(exits);
  }

  #dispatch(): void {
    while (!this.#closed && this.#queue.length > 0) {
      const thread = this.#freeThread();
      if (!thread) return;
      const job = this.#queue.shift()!;
      this.#start(thread, job);
    }
  }

  #freeThread(): Thread | undefined {
    for (const thread of this.#threads) if (!thread.job && !thread.gone) return thread;
    if (this.#threads.size < this.size) return this.#spawn();
    return undefined;
  }

  #spawn(): Thread {
    const options = this.#resourceLimits ? { resourceLimits: this.#resourceLimits } : {};
    const worker = new Worker(solverThread.url, { ...options, argv: solverThread.argv, name: 'jes-solver' });
    const thread: Thread = { worker, job: undefined, gone: false, error: undefined };
    worker.unref();
    worker.on('message', (message: ThreadMessage) => this.#guard(() => this.#onMessage(thread, message)));
    worker.on('messageerror', (error) =>
      this.#guard(() => {
        thread.error = error;
      }),
    );
    worker.on('error', (error) =>
      this.#guard(() => {
        thread.error = error;
      }),
    );
    worker.on('exit', (code) => this.#guard(() => this.#onExit(thread, code)));
    this.#threads.add(thread);
    return thread;
  }

  /** Event handlers never throw: a failing onProgress callback or similar must not take the process down. */
  #guard(handler: () => void): void {
    try {
      handler();
    } catch {
      // Nothing sensible to do; the run settles through its own paths.
    }
  }

  #start(thread: Thread, job: Job): void {
    thread.job = job;
    job.thread = thread;
    this.#running++;
    thread.worker.ref();
    const { problemId, input, solver, timeLimitSeconds, seed, params } = job.request;
    const message: JobMessage = {
      type: 'run',
      id: job.id,
      problemId,
      solver,
      input,
      timeLimitSeconds,
      seed,
      stop: job.stop,
    };
    if (params !== undefined) message.params = params;
    try {
      thread.worker.postMessage(message); // no transfer list: the caller keeps its input
    } catch (error) {
      this.#settle(job, new SolverFailedError(`could not send the job to its thread: ${describe(error)}`));
      this.#release(thread);
      return;
    }
    this.#deadline(job, START_GRACE_MS);
  }

  /** Stops the job as an overrun `ms` from now, instead of when an earlier deadline said. */
  #deadline(job: Job, ms: number): void {
    if (job.deadlineTimer) clearTimeout(job.deadlineTimer);
    job.deadlineTimer = undefined;
    if (ms > MAX_TIMER_MS) return;
    job.deadlineTimer = setTimeout(() => this.#guard(() => this.#stop(job, 'overrun')), ms);
    job.deadlineTimer.unref();
  }

  #onMessage(thread: Thread, message: ThreadMessage): void {
    const job = thread.job;
    if (thread.gone || !job || job.settled || message.id !== job.id) return;
    switch (message.type) {
      case 'started':
        // Its time limit runs from now: the thread's own start (loading its modules) is not the solver's time.
        this.#deadline(job, Math.max(0, job.request.timeLimitSeconds) * 1000 + OVERRUN_GRACE_MS);
        return;
      case 'progress':
        job.onProgress?.(message.progress);
        return;
      case 'result':
        this.#settle(job, message.result);
        this.#release(thread);
        return;
      case 'error':
        this.#settle(
          job,
          message.kind === 'limit' ? new SolverLimitError(message.message) : new SolverFailedError(message.message),
        );
        this.#release(thread);
        return;
    }
  }

  #onExit(thread: Thread, code: number): void {
    if (thread.gone) return;
    const job = thread.job;
    this.#remove(thread);
    if (job && !job.settled) {
      const cause = thread.error !== undefined ? describe(thread.error) : `exit code ${code}`;
      this.#settle(job, new SolverCrashedError(`the solver thread died: ${cause}`));
    }
    this.#dispatch();
  }

  #cancel(job: Job): void {
    if (job.settled) return;
    if (!job.thread) {
      const index = this.#queue.indexOf(job);
      if (index >= 0) this.#queue.splice(index, 1);
      this.#settle(job, new RunCancelledError('cancelled before it started'));
      return;
    }
    this.#stop(job, 'cancel');
  }

  /** Sets the stop flag; if the thread has not answered STOP_GRACE_MS later, terminates it. */
  #stop(job: Job, reason: 'cancel' | 'overrun'): void {
    if (job.settled || job.stopReason !== undefined) return;
    job.stopReason = reason;
    Atomics.store(new Int32Array(job.stop), 0, 1);
    job.killTimer = setTimeout(() => this.#guard(() => this.#kill(job)), STOP_GRACE_MS);
    job.killTimer.unref();
  }

  #kill(job: Job): void {
    const thread = job.thread;
    if (job.settled || !thread) return;
    this.#settle(
      job,
      job.stopReason === 'overrun'
        ? new SolverFailedError(`solver ${job.request.solver} did not stop at its time limit`)
        : new RunCancelledError(`solver ${job.request.solver} did not stop within ${STOP_GRACE_MS} ms of cancel`),
    );
    void this.#remove(thread);
    this.#dispatch();
  }

  /** The thread finished its job normally: it takes the next one. */
  #release(thread: Thread): void {
    if (thread.job) this.#running--;
    thread.job = undefined;
    if (!thread.gone) thread.worker.unref();
    this.#dispatch();
  }

  /** Takes a thread out of the pool and terminates it; a fresh one is started when a job needs it. */
  #remove(thread: Thread): Promise<unknown> {
    if (thread.job) this.#running--;
    thread.job = undefined;
    thread.gone = true;
    this.#threads.delete(thread);
    return thread.worker.terminate().catch(() => {});
  }

  #settle(job: Job, outcome: SolverOutput | Error): void {
    if (job.settled) return;
    job.settled = true;
    if (job.deadlineTimer) clearTimeout(job.deadlineTimer);
    if (job.killTimer) clearTimeout(job.killTimer);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }
}
