// The QUBO solvers: the max-cut solvers run on the equivalent graph of n + 1 nodes (reduction.ts), their
// progress and answers turned into energies. The energy reported is computed from the assignment and Q, not
// from the cut (the two agree up to rounding).
import type { InputSize, SolverOutput, UseCaseSolver } from '../core/use-case.ts';
import { toMillisecond } from '@jes/contract';
import { annealing } from '../maxcut/solvers/annealing.ts';
import { solveExactly } from '../maxcut/solvers/exact.ts';
import { localSearch } from '../maxcut/solvers/local-search.ts';
import type { SolveResult } from '../maxcut/solvers/solver.ts';
import { type SolveOptions, SolverLimitError } from '../core/solver.ts';
import { energy, type Graph, type QuboInput } from '@jes/contract/inputs';
import { assignmentOf, maxCutGraph } from './reduction.ts';

/** The most variables `exact` takes: a graph of 33 nodes, 2^32 partitions (about 5-9 s on the reference machine). */
export const EXACT_MAX_VARIABLES = 32;

type MaxCutSolve = (graph: Graph, options: SolveOptions) => SolveResult;

/**
 * Solves the QUBO with a max-cut solver, reporting progress as energies (the lowest so far: -cut). Building the
 * graph counts against the time limit.
 */
function viaMaxCut(input: QuboInput, options: SolveOptions, solve: MaxCutSolve): SolverOutput {
  const { onProgress } = options;
  const start = performance.now();
  const graph = maxCutGraph(input);
  const result = solve(graph, {
    ...options,
    timeLimitSeconds: Math.max(0, options.timeLimitSeconds - (performance.now() - start) / 1000),
    ...(onProgress ? { onProgress: (p) => onProgress({ ...p, bestValue: 0 - p.bestValue }) } : {}),
  });
  const assignment = assignmentOf(result.partition);
  const value = energy(input, assignment);
  const data: Record<string, unknown> = { energy: value, assignment: Array.from(assignment), optimal: result.optimal };
  if (result.upperBound !== undefined) data.lower_bound = 0 - result.upperBound;
  data.iterations = result.iterations;
  data.time_to_best_seconds = toMillisecond(result.timeToBestSeconds);
  return { data, objective: value };
}

export const quboExact: UseCaseSolver<QuboInput> = {
  name: 'exact',
  description: `Enumerates every assignment (as a maximum cut on n + 1 nodes) and proves the minimum energy; for at most ${EXACT_MAX_VARIABLES} variables.`,
  exact: true,
  default: true,
  defaultTimeLimitSeconds: 30,
  maxNodes: EXACT_MAX_VARIABLES,
  solve(input, options) {
    if (input.n > EXACT_MAX_VARIABLES) {
      throw new SolverLimitError(
        `The exact solver accepts at most ${EXACT_MAX_VARIABLES} variables; this QUBO has ${input.n}. Choose another solver.`,
      );
    }
    return viaMaxCut(input, options, solveExactly);
  },
};

export const quboAnnealing: UseCaseSolver<QuboInput> = {
  name: 'annealing',
  description:
    'The max-cut annealing solver on the equivalent graph of n + 1 nodes (the standard reduction); any size, any real weights.',
  exact: false,
  default: true,
  defaultTimeLimitSeconds: 10,
  threads: annealing.threads ?? 1,
  solve: (input, options) => viaMaxCut(input, options, annealing.solve),
};

export const quboLocalSearch: UseCaseSolver<QuboInput> = {
  name: 'local-search',
  description: 'The max-cut local search on the equivalent graph of n + 1 nodes; any size.',
  exact: false,
  default: false,
  defaultTimeLimitSeconds: 10,
  threads: localSearch.threads ?? 1,
  solve: (input, options) => viaMaxCut(input, options, localSearch.solve),
};

export const solvers: readonly UseCaseSolver<QuboInput>[] = [quboExact, quboAnnealing, quboLocalSearch];

/** `exact` when the size is known and within its limit, else `annealing`. */
export function defaultSolvers(size: InputSize | undefined): string[] {
  return size !== undefined && size.nodes <= EXACT_MAX_VARIABLES ? [quboExact.name] : [quboAnnealing.name];
}
