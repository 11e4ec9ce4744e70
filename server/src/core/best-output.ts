// Comparing answers by a use case's sense: which of two objectives is better, and the best of several outputs
// (a run on several threads keeps its best member's answer, worker/team.ts).
import type { Sense, SolverOutput } from './use-case.ts';

/** True when `a` is strictly better than `b` for a use case of this sense. */
export function isBetter(sense: Sense, a: number, b: number): boolean {
  return sense === 'max' ? a > b : a < b;
}

/** The output with the best objective; on a tie, the first. Undefined for none. */
export function bestOutput(sense: Sense, outputs: readonly SolverOutput[]): SolverOutput | undefined {
  let best: SolverOutput | undefined;
  for (const output of outputs) if (!best || isBetter(sense, output.objective, best.objective)) best = output;
  return best;
}
