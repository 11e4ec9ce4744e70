// A job's best objective, as `jes` and the dashboard show it: the largest cut, or the lowest QUBO energy. Here,
// below both, so that the command line's BEST column and the dashboard's jobs list cannot disagree.
import { isQuboOutput } from './outputs.ts';
import type { Job, ProblemId, ProblemOutputs } from './types.ts';

/** An output's objective value: the cut, or the energy. */
export function objectiveOf(output: ProblemOutputs[ProblemId]): number {
  return isQuboOutput(output) ? output.energy : output.cut_value;
}

/** The better of a use case's objective values: the lowest energy for `qubo`, else the largest (a cut, or a newer service's use case's). */
export function bestOf(problemId: string): (...values: number[]) => number {
  return problemId === 'qubo' ? Math.min : Math.max;
}

/**
 * The best objective so far: the best succeeded answer, else the best value a running solver reports (a listing,
 * which carries no `data`, has the `best_value` of every execution).
 */
export function bestValue(job: Job): number | undefined {
  const values = Object.values(job.executions)
    .map((e) => (e.data ? objectiveOf(e.data) : e.best_value))
    .filter((v): v is number => v !== undefined);
  return values.length > 0 ? bestOf(job.problem_id)(...values) : undefined;
}
