// What every solver of every use case shares: a pure, synchronous function run inside a worker thread, with a
// stop signal it polls, a progress callback, and the limit error that ends an execution in
// `solver_limit_exceeded`. No HTTP, no database. Solvers poll `signal.aborted` at least every 100 ms of work.

/** Anything with an `aborted` flag: an AbortSignal in tests, a shared-memory flag in a worker thread. */
export interface StopSignal {
  readonly aborted: boolean;
}

export interface Progress {
  /** The best objective found so far, in the use case's terms (the contract's Execution.best_value). */
  bestValue: number;
  /** Seconds since the solver started when it found that value. */
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
  /** Called when a better answer is found (the caller throttles what it forwards). */
  onProgress?: (progress: Progress) => void;
  /**
   * Stop after this many iterations (the solver's own unit), or at the time limit if that comes first. The
   * work is then planned in iterations, not seconds: a seed and a budget that ends first give one answer.
   */
  maxIterations?: number;
}

/** A solver as the contract's SolverInfo describes it (GET /problem/{problem_id}). */
export interface SolverInfo {
  name: string;
  description: string;
  /** Proves its answer optimal. */
  exact: boolean;
  /** Runs by default for inputs within its limits. */
  default: boolean;
  defaultTimeLimitSeconds: number;
  /** The largest input (in the use case's unit: nodes, variables) it accepts; undefined when unlimited. */
  maxNodes?: number;
  /**
   * The most threads one run may use (the pool gives it what is free: worker/team.ts); undefined means 1. A run
   * on several threads is several independent runs with their own seeds, the best answer kept.
   */
  threads?: number;
}

/** Thrown by a solver given an input beyond its limits; the execution ends in ERROR `solver_limit_exceeded`. */
export class SolverLimitError extends Error {
  override name = 'SolverLimitError';
}
