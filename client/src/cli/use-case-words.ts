// What the views call each use case's answer and input size, and which answer is better: a maximum cut is the
// largest `cut_value` of a graph of nodes and edges, a QUBO answer the lowest `energy` over variables coupled in
// pairs. Keyed on the use case (`problem_id`) of a job or a data file; `JobOutput` names none, so it goes by shape.
import { isQuboOutput, type ProblemId, type ProblemOutputs } from '../index.ts';

export interface UseCaseWords {
  /** The best value's label: `Best cut`. */
  best: string;
  /** An execution's value, as a column heading: `CUT`. */
  column: string;
  /** The better of values (`Math.max` for a cut). */
  pick: (...values: number[]) => number;
  /** A data file's `num_nodes` and `num_edges`, in the use case's words. */
  size: [string, string];
}

export const useCaseWords: Record<ProblemId, UseCaseWords> = {
  maxcut: { best: 'Best cut', column: 'CUT', pick: Math.max, size: ['Nodes', 'Edges'] },
  qubo: { best: 'Lowest energy', column: 'ENERGY', pick: Math.min, size: ['Variables', 'Coupled pairs'] },
};

/** A use case this client does not know (a newer service's): its `best_value`, larger taken as better. */
const unknown: UseCaseWords = { best: 'Best value', column: 'BEST', pick: Math.max, size: ['Size', 'Pairs'] };

export function wordsFor(problemId: string): UseCaseWords {
  return Object.hasOwn(useCaseWords, problemId) ? useCaseWords[problemId as ProblemId] : unknown;
}

/** An output's objective value: the cut, or the energy. */
export function valueOf(output: ProblemOutputs[ProblemId]): number {
  return isQuboOutput(output) ? output.energy : output.cut_value;
}
