// What the views call each use case's answer and input size: a maximum cut's `cut_value` over a graph of nodes and
// edges, a QUBO answer's `energy` over variables coupled in pairs (which is better is the library's bestOf). Keyed on
// the use case (`problem_id`) of a job or a data file.
import type { ProblemId } from '../index.ts';

export interface UseCaseWords {
  /** The best value's label: `Best cut`. */
  best: string;
  /** An execution's value, as a column heading: `CUT`. */
  column: string;
  /** A data file's `num_nodes` and `num_edges`, in the use case's words. */
  size: [string, string];
}

export const useCaseWords: Record<ProblemId, UseCaseWords> = {
  maxcut: { best: 'Best cut', column: 'CUT', size: ['Nodes', 'Edges'] },
  qubo: { best: 'Lowest energy', column: 'ENERGY', size: ['Variables', 'Coupled pairs'] },
};

/** A use case this client does not know (a newer service's): its `best_value`. */
const unknown: UseCaseWords = { best: 'Best value', column: 'BEST', size: ['Size', 'Pairs'] };

export function wordsFor(problemId: string): UseCaseWords {
  return Object.hasOwn(useCaseWords, problemId) ? useCaseWords[problemId as ProblemId] : unknown;
}
