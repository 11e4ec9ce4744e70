// The ways a run on the solver pool can fail, besides SolverLimitError (which the solvers define and the
// pool re-creates on the main thread).

/** The run was cancelled (or the pool closed) and no answer could be returned. */
export class RunCancelledError extends Error {
  override name = 'RunCancelledError';
}

/** The solver threw (other than SolverLimitError), was unknown, or would not stop at its time limit. */
export class SolverFailedError extends Error {
  override name = 'SolverFailedError';
}

/** The thread running the solver died: uncaught error, out of memory, or exit. */
export class SolverCrashedError extends Error {
  override name = 'SolverCrashedError';
}
