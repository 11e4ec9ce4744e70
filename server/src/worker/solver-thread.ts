// The worker-thread entry of the solver pool: runs one solver job at a time, synchronously, and posts its
// progress (throttled to one message per 100 ms) and then its result or error. The solver is found in the
// registry by use case and name. Also holds the message types the pool and the thread exchange.
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { type Progress, type SolveOptions, SolverLimitError, type StopSignal } from '../core/solver.ts';
import type { SolverOutput } from '../core/use-case.ts';
import { findSolver, findUseCase } from '../use-cases.ts';
import type { RunRequest } from './team.ts';

/** Pool → thread: one job (a team's member: its own seed). The input is shared memory or a structured-clone copy. */
export interface JobMessage extends RunRequest {
  type: 'run';
  id: number;
  /** One Int32, non-zero to stop. */
  stop: SharedArrayBuffer;
}

/** Thread → pool: the job has reached the thread and its solver starts now (its time limit runs from here). */
export interface StartedMessage {
  type: 'started';
  id: number;
}

export interface ProgressMessage {
  type: 'progress';
  id: number;
  progress: Progress;
}

export interface ResultMessage {
  type: 'result';
  id: number;
  result: SolverOutput;
}

export interface ErrorMessage {
  type: 'error';
  id: number;
  /** 'limit': the solver threw SolverLimitError; 'failed': anything else. */
  kind: 'limit' | 'failed';
  name: string;
  message: string;
}

export type ThreadMessage = StartedMessage | ProgressMessage | ResultMessage | ErrorMessage;

const PROGRESS_INTERVAL_MS = 100;

function errorMessage(id: number, error: unknown): ErrorMessage {
  const limit = error instanceof SolverLimitError;
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'error', id, kind: limit ? 'limit' : 'failed', name: limit ? 'SolverLimitError' : name, message };
}

function runJob(port: MessagePort, job: JobMessage): void {
  const { id } = job;
  const useCase = findUseCase(job.problemId);
  const solver = useCase && findSolver(useCase, job.solver);
  if (!solver) {
    port.postMessage(errorMessage(id, new Error(`unknown solver: ${job.problemId}/${job.solver}`)));
    return;
  }
  const flag = new Int32Array(job.stop);
  port.postMessage({ type: 'started', id } satisfies StartedMessage);

  // The solver blocks this thread, so no timer can fire: progress held back by the throttle is flushed
  // the next time the solver reports or polls the stop flag (which it does every 100 ms or less).
  let lastPostedAt = -Infinity;
  let pending: Progress | undefined;
  const flush = (): void => {
    if (pending === undefined || performance.now() - lastPostedAt < PROGRESS_INTERVAL_MS) return;
    port.postMessage({ type: 'progress', id, progress: pending } satisfies ProgressMessage);
    lastPostedAt = performance.now();
    pending = undefined;
  };
  const signal: StopSignal = {
    get aborted(): boolean {
      flush();
      return Atomics.load(flag, 0) !== 0;
    },
  };
  const onProgress = (progress: Progress): void => {
    pending = {
      bestValue: progress.bestValue,
      foundAtSeconds: progress.foundAtSeconds,
      elapsedSeconds: progress.elapsedSeconds,
    };
    flush();
  };

  // Of the job's `params` (the contract's SolverChoice.params) only `max_iterations` reaches the solver.
  const options: SolveOptions = { timeLimitSeconds: job.timeLimitSeconds, seed: job.seed, signal, onProgress };
  const maxIterations = job.params?.max_iterations;
  if (typeof maxIterations === 'number') options.maxIterations = maxIterations;
  let result: SolverOutput;
  try {
    result = solver.solve(job.input, options);
  } catch (error) {
    port.postMessage(errorMessage(id, error));
    return;
  }
  // The last improvement the throttle held back goes first: the execution's history then ends at its answer.
  if (pending) port.postMessage({ type: 'progress', id, progress: pending } satisfies ProgressMessage);
  port.postMessage({ type: 'result', id, result } satisfies ResultMessage);
}

const port = parentPort;
if (!port) throw new Error('solver-thread.ts must be started as a worker thread');
port.on('message', (job: JobMessage) => {
  try {
    runJob(port, job);
  } catch (error) {
    // Something outside the solver itself failed (such as posting the result): report, stay alive.
    port.postMessage(errorMessage(job.id, error));
  }
});
