// SolverPool: a fixed number of worker threads (started on demand) running solver jobs from a FIFO queue,
// with cancellation through a shared stop flag, a watchdog for solvers that overrun their time limit, and
// replacement of threads that die or have to be terminated. A job whose solver can use several threads runs on
// a team of them (team.ts), and lends one back, by stopping it early, when another job waits for a thread.
import { Worker } from 'node:worker_threads';
import type { ResourceLimits } from 'node:worker_threads';
import { type Progress, SolverLimitError } from '../core/solver.ts';
import type { SolverOutput } from '../core/use-case.ts';
import { RunCancelledError, SolverCrashedError, SolverFailedError } from './errors.ts';
import type { JobMessage, ThreadMessage } from './solver-thread.ts';
import {
  clearTimers,
  type Job,
  type Member,
  membersToLend,
  memberSeed,
  newMember,
  type RunRequest,
  type Thread,
  teamSize,
} from './team.ts';
import { senseOf, teamAnswers } from './team-answers.ts';
import { threadModule } from './thread-module.ts';

export { RunCancelledError, SolverCrashedError, SolverFailedError } from './errors.ts';
export type { RunRequest } from './team.ts';

export interface SolverPoolOptions {
  /** Number of threads. */
  size: number;
  /** Applied to every thread; a thread that exceeds them dies and its run rejects with SolverCrashedError. */
  resourceLimits?: ResourceLimits;
  /** The most threads one run may take (JES_EXECUTION_THREADS); default: all of them. */
  threadsPerRun?: number;
}

export interface RunHandle {
  result: Promise<SolverOutput>;
  /** Ask the solver to stop and resolve with its best so far; idempotent, a no-op once settled. */
  cancel(): void;
  /** How many threads the run started on (team.ts's teamSize); 0 while it waits in the queue. */
  readonly threads: number;
}

/** How long a thread has to answer after its stop flag is set before it is terminated. */
const STOP_GRACE_MS = 1000;
/** How long past its time limit a solver may run before the pool stops it. */
const OVERRUN_GRACE_MS = 2000;
/**
 * How long a job may wait for its thread to take it up (a new thread loads its modules first, which takes seconds on a
 * loaded machine): its time limit runs from then. A thread that never does is terminated after this.
 */
const START_GRACE_MS = 60_000;
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const solverThread = threadModule('solver-thread');

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export class SolverPool {
  readonly size: number;
  readonly #resourceLimits: ResourceLimits | undefined;
  readonly #threads = new Set<Thread>();
  readonly #queue: Job[] = [];
  readonly #threadsPerRun: number;
  #nextId = 1;
  #running = 0;
  #closed = false;

  constructor(options: SolverPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new RangeError(`pool size must be a positive integer, got ${options.size}`);
    this.size = options.size;
    this.#resourceLimits = options.resourceLimits;
    this.#threadsPerRun = options.threadsPerRun ?? options.size;
  }

  /** Threads not running a job or a member of its team (including ones not started yet); 0 once closed. */
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
      request,
      answers: teamAnswers(senseOf(request), onProgress),
      resolve,
      reject,
      settled: false,
      members: [],
      stopReason: undefined,
    };
    if (this.#closed) {
      this.#settle(job, new RunCancelledError('the solver pool is closed'));
    } else {
      this.#queue.push(job);
      this.#dispatch();
    }
    return {
      result,
      cancel: () => this.#cancel(job),
      get threads() {
        return job.members.length;
      },
    };
  }

  /** Terminates every thread; queued and running runs reject with RunCancelledError. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) this.#settle(job, new RunCancelledError('the solver pool was closed'));
    const exits: Promise<unknown>[] = [];
    for (const thread of [...this.#threads]) {
      if (thread.member) this.#settle(thread.member.job, new RunCancelledError('the solver pool was closed'));
      exits.push(this.#remove(thread));
    }
    await Promise.all(exits);
  }

  /** Starts queued jobs on the free threads, each on its team, lending threads of teams when none is free. */
  #dispatch(): void {
    while (!this.#closed && this.#queue.length > 0) {
      if (this.idle === 0) this.#lend();
      if (this.idle === 0) return;
      const job = this.#queue.shift()!;
      const size = teamSize(job.request, this.idle, this.#queue.length, this.#threadsPerRun);
      for (let index = 0; index < size; index++) job.members.push(newMember(this.#nextId++, job, index));
      // Every member is in the team before the first starts: one that fails to start cannot settle it early.
      for (const member of job.members) this.#start(this.#freeThread(), member);
    }
  }

  /**
   * Stops members of teams (membersToLend) so that every job waiting has a thread free or about to be: its answer
   * counts for its team, and its thread takes the next job. A waiting job so waits for a solver's stop (within
   * 100 ms), not for a team's time limit.
   */
  #lend(): void {
    const busy = [...this.#threads].flatMap(({ member }) => (member ? [member] : []));
    for (const member of membersToLend(busy, this.#queue.length - this.idle)) this.#stopMember(member);
  }

  /** A thread without a job; there is one whenever `idle` is above 0. */
  #freeThread(): Thread {
    for (const thread of this.#threads) if (!thread.member && !thread.gone) return thread;
    return this.#spawn();
  }

  #spawn(): Thread {
    const options = this.#resourceLimits ? { resourceLimits: this.#resourceLimits } : {};
    const worker = new Worker(solverThread.url, { ...options, argv: solverThread.argv, name: 'jes-solver' });
    const thread: Thread = { worker, member: undefined, gone: false, error: undefined };
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

  #start(thread: Thread, member: Member): void {
    thread.member = member;
    member.thread = thread;
    this.#running++;
    thread.worker.ref();
    const { problemId, input, solver, timeLimitSeconds, seed, params } = member.job.request;
    const message: JobMessage = {
      type: 'run',
      id: member.id,
      problemId,
      solver,
      input,
      timeLimitSeconds,
      seed: memberSeed(seed, member.index),
      stop: member.stop,
    };
    if (params !== undefined) message.params = params;
    try {
      thread.worker.postMessage(message); // no transfer list: the caller keeps its input
    } catch (error) {
      this.#release(thread);
      this.#answer(member, new SolverFailedError(`could not send the job to its thread: ${describe(error)}`));
      return;
    }
    this.#deadline(member, START_GRACE_MS);
  }

  /**
   * `ms` from now (instead of when an earlier deadline said): a member that has started overran its time limit,
   * and its team is stopped; a thread that never took its member up is terminated.
   */
  #deadline(member: Member, ms: number): void {
    if (member.deadlineTimer) clearTimeout(member.deadlineTimer);
    member.deadlineTimer = undefined;
    if (ms > MAX_TIMER_MS) return;
    const overrun = () => {
      if (!member.started) return this.#kill(member);
      this.#stop(member.job, 'overrun');
      this.#dispatch();
    };
    member.deadlineTimer = setTimeout(() => this.#guard(overrun), ms);
    member.deadlineTimer.unref();
  }

  #onMessage(thread: Thread, message: ThreadMessage): void {
    const member = thread.member;
    if (thread.gone || !member || message.id !== member.id) return;
    switch (message.type) {
      case 'started':
        member.started = true;
        // Its time limit runs from now: the thread's own start (loading its modules) is not the solver's time.
        this.#deadline(member, Math.max(0, member.job.request.timeLimitSeconds) * 1000 + OVERRUN_GRACE_MS);
        return;
      case 'progress':
        if (!member.done) member.job.answers.progress(message.progress);
        return;
      case 'result':
        this.#release(thread);
        this.#answer(member, message.result);
        this.#dispatch();
        return;
      case 'error':
        this.#release(thread);
        this.#answer(
          member,
          message.kind === 'limit' ? new SolverLimitError(message.message) : new SolverFailedError(message.message),
        );
        this.#dispatch();
        return;
    }
  }

  #onExit(thread: Thread, code: number): void {
    if (thread.gone) return;
    const member = thread.member;
    void this.#remove(thread);
    if (member) {
      const cause = thread.error !== undefined ? describe(thread.error) : `exit code ${code}`;
      this.#answer(member, new SolverCrashedError(`the solver thread died: ${cause}`));
    }
    this.#dispatch();
  }

  #cancel(job: Job): void {
    if (job.settled) return;
    if (job.members.length === 0) {
      const index = this.#queue.indexOf(job);
      if (index >= 0) this.#queue.splice(index, 1);
      this.#settle(job, new RunCancelledError('cancelled before it started'));
      return;
    }
    this.#stop(job, 'cancel');
    this.#dispatch();
  }

  /** Sets every member's stop flag: each answers with its best so far (#stopMember). Its callers dispatch. */
  #stop(job: Job, reason: NonNullable<Job['stopReason']>): void {
    if (job.settled || job.stopReason !== undefined) return;
    job.stopReason = reason;
    for (const member of job.members) this.#stopMember(member);
    this.#finish(job);
  }

  /**
   * Sets the member's stop flag. One whose solver runs has STOP_GRACE_MS to answer. One its thread has not taken up
   * yet is done at once, and its thread free: the thread runs its messages in order, so it ends that run at once
   * (its flag set; what it answers has a stale id) and then takes the next.
   */
  #stopMember(member: Member): void {
    if (member.stopping || !member.thread) return;
    member.stopping = true;
    Atomics.store(new Int32Array(member.stop), 0, 1);
    if (member.started) {
      this.#armKill(member);
    } else {
      this.#release(member.thread);
      member.done = true;
    }
  }

  #armKill(member: Member): void {
    clearTimers(member);
    member.killTimer = setTimeout(() => this.#guard(() => this.#kill(member)), STOP_GRACE_MS);
    member.killTimer.unref();
  }

  /** Terminates the member's thread: it did not answer when asked to stop, or never took its member up. */
  #kill(member: Member): void {
    const thread = member.thread;
    if (!thread) return;
    const { job } = member;
    const solver = job.request.solver;
    void this.#remove(thread);
    this.#answer(
      member,
      !member.started
        ? new SolverFailedError(`the solver thread did not take its job up within ${START_GRACE_MS} ms`)
        : job.stopReason === 'overrun'
          ? new SolverFailedError(`solver ${solver} did not stop at its time limit`)
          : job.stopReason === 'cancel'
            ? new RunCancelledError(`solver ${solver} did not stop within ${STOP_GRACE_MS} ms of cancel`)
            : new SolverFailedError(`solver ${solver} did not stop within ${STOP_GRACE_MS} ms of being asked to`),
    );
    this.#dispatch();
  }

  /**
   * A member's answer (its thread released or removed first). One that ended by itself (its time limit, its budget,
   * a proven optimum) ends its team: the others are stopped, so a team answers when its first member does.
   */
  #answer(member: Member, outcome: SolverOutput | Error): void {
    if (member.done) return;
    member.done = true;
    const { job } = member;
    job.answers.add(member.index, outcome);
    if (!member.stopping && !(outcome instanceof Error)) this.#stop(job, 'answered');
    this.#finish(job);
  }

  /** Settles the job once no member is awaited. */
  #finish(job: Job): void {
    if (job.settled || !job.members.every((m) => m.done)) return;
    this.#settle(job, job.answers.outcome(new RunCancelledError('cancelled before it started')));
  }

  /** The thread is done with its member (it answered, or was stopped before it started): it takes the next. */
  #release(thread: Thread): void {
    if (thread.member) {
      this.#running--;
      clearTimers(thread.member);
      thread.member.thread = undefined;
    }
    thread.member = undefined;
    if (!thread.gone) thread.worker.unref();
  }

  /** Takes a thread out of the pool and terminates it; a fresh one is started when a job needs it. */
  #remove(thread: Thread): Promise<unknown> {
    this.#release(thread);
    thread.gone = true;
    this.#threads.delete(thread);
    return thread.worker.terminate().catch(() => {});
  }

  #settle(job: Job, outcome: SolverOutput | Error): void {
    if (job.settled) return;
    job.settled = true;
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }
}
