// The solver registry: every max-cut solver, lookup by name, and the default choice for a graph.
import type { Graph } from '../../../../contract/src/inputs/maxcut/graph.ts';
import { annealing } from './annealing.ts';
import { exact } from './exact.ts';
import { localSearch } from './local-search.ts';
import type { Solver } from './solver.ts';

export const solvers: readonly Solver[] = [exact, annealing, localSearch];

export function solverByName(name: string): Solver | undefined {
  return solvers.find((solver) => solver.name === name);
}

/**
 * The solvers run when the caller chooses none: `exact` when the graph is within its limit, else `annealing`,
 * the strongest heuristic. Only the node count is read, so `{ n }` alone will do before the graph is parsed.
 */
export function defaultSolvers(graph: Pick<Graph, 'n'>): Solver[] {
  return graph.n <= (exact.maxNodes ?? Infinity) ? [exact] : [annealing];
}
