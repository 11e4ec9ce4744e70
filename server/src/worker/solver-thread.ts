// The worker-thread entry of the solver pool: runs one solver job at a time, synchronously, and posts its
// progress (throttled to one message per 100 ms) and then its result or error. Also holds the message
// types the pool and the thread exchange.
import { parentPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Graph } from '../maxcut/graph.ts';
import { SolverLimitError } from '../solvers/solver.ts';
import type { Progress, SolveOptions, SolveResult, StopSignal } from '../solvers/solver.ts';
import { solverByName } from '../solvers/index.ts';

/** Pool → thread: one job. The graph arrays are copies; `stop` holds one Int32, non-zero to stop. */
export interface JobMessage {
  type: 'run';
  id: number;
  solver: string;
  n: number;
  edges: number;
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  timeLimitSeconds: number;
  seed: number;
  params?: Record<string, unknown>;
  stop: SharedArrayBuffer;
}

export interface ProgressMessage {
  type: 'progress';
  id: number;
  progress: Progress;
}

export interface ResultMessage {
  type: 'result';
  id: number;
  result: SolveResult;
}

export interface ErrorMessage {
  type: 'error';
  id: number;
  /** 'limit': the solver threw SolverLimitError; 'failed': anything else. */
  kind: 'limit' | 'failed';
  name: string;
  message: string;
}

export type ThreadMessage = ProgressMessage | ResultMessage | ErrorMessage;

const PROGRESS_INTERVAL_MS = 100;

function errorMessage(id: number, error: unknown): ErrorMessage {
  const limit = error instanceof SolverLimitError;
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'error', id, kind: limit ? 'limit' : 'failed', name: limit ? 'SolverLimitError' : name, message };
}

/** The partition's own buffer when it can be transferred whole, else a copy that can. */
function transferable(partition: Uint8Array): Uint8Array<ArrayBuffer> {
  const buffer = partition.buffer;
  if (buffer instanceof ArrayBuffer && partition.byteOffset === 0 && partition.byteLength === buffer.byteLength) {
    return partition as Uint8Array<ArrayBuffer>;
  }
  return partition.slice();
}

function runJob(port: MessagePort, job: JobMessage): void {
  const { id } = job;
  const solver = solverByName(job.solver);
  if (!solver) {
    port.postMessage(errorMessage(id, new Error(`unknown solver: ${job.solver}`)));
    return;
  }
  const graph: Graph = { n: job.n, edges: job.edges, offsets: job.offsets, targets: job.targets, weights: job.weights };
  const flag = new Int32Array(job.stop);

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
  let result: SolveResult;
  try {
    result = solver.solve(graph, options);
  } catch (error) {
    port.postMessage(errorMessage(id, error));
    return;
  }
  const partition = transferable(result.partition);
  const out: SolveResult = {
    cutValue: result.cutValue,
    partition,
    optimal: result.optimal,
    iterations: result.iterations,
    timeToBestSeconds: result.timeToBestSeconds,
  };
  if (result.upperBound !== undefined) out.upperBound = result.upperBound;
  port.postMessage({ type: 'result', id, result: out } satisfies ResultMessage, [partition.buffer]);
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
