// The solver interface: a pure, synchronous function over a graph, run inside a worker thread. No HTTP,
// no database. Solvers poll `signal.aborted` and the deadline at least every 100 ms of work.
import type { Graph } from '../maxcut/graph.ts';

/** Anything with an `aborted` flag: an AbortSignal in tests, a shared-memory flag in a worker thread. */
export interface StopSignal {
  readonly aborted: boolean;
}

export interface Progress {
  /** The best cut found so far. */
  bestValue: number;
  /** Seconds since the solver started when it found that cut. */
  foundAtSeconds: number;
  /** Seconds since the solver started. */
  elapsedSeconds: number;
}

export interface SolveOptions {
  /** Stop and return the best answer found once this many seconds have passed. */
  timeLimitSeconds: number;
  /** Same seed, same input, same iteration budget: same answer. */
  seed: number;
  /** Stop as soon as possible (within 100 ms) and return the best answer found so far. */
  signal: StopSignal;
  /** Called when a better cut is found (the caller throttles what it forwards). */
  onProgress?: (progress: Progress) => void;
  /**
   * Stop after this many iterations (the solver's own unit), or at the time limit if that comes first. The
   * work is then planned in iterations, not seconds: a seed and a budget that ends first give one answer.
   */
  maxIterations?: number;
}

export interface SolveResult {
  cutValue: number;
  /** One 0/1 entry per node. */
  partition: Uint8Array;
  /** True only when the cut is proven maximum. */
  optimal: boolean;
  upperBound?: number;
  iterations: number;
  timeToBestSeconds: number;
}

export interface SolverInfo {
  name: string;
  description: string;
  /** Proves its answer optimal. */
  exact: boolean;
  /** Runs by default for inputs within its limits. */
  default: boolean;
  defaultTimeLimitSeconds: number;
  /** The largest graph (in nodes) it accepts; undefined when unlimited. */
  maxNodes?: number;
}

export interface Solver extends SolverInfo {
  solve(graph: Graph, options: SolveOptions): SolveResult;
}

/** Thrown by a solver given an input beyond its limits; the execution ends in ERROR `solver_limit_exceeded`. */
export class SolverLimitError extends Error {
  override name = 'SolverLimitError';
}
