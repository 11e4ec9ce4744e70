// The registry: every use case this server runs, by id. Adding one is a folder and a line here (and its schemas
// and paths in the contract). Nothing else in the server names a use case.
import { maxcut } from './maxcut/use-case.ts';
import { qubo } from './qubo/use-case.ts';
import type { UseCase, UseCaseSolver } from './core/use-case.ts';

export const useCases: ReadonlyMap<string, UseCase> = new Map(
  ([maxcut, qubo] as UseCase<any>[]).map((useCase) => [useCase.id, useCase]),
);

export function findUseCase(id: string): UseCase | undefined {
  return useCases.get(id);
}

/** A use case's solver by name: names are per use case (maxcut and qubo both have an `exact`). */
export function findSolver(useCase: UseCase, name: string): UseCaseSolver<unknown> | undefined {
  return useCase.solvers.find((solver) => solver.name === name);
}

/** The largest inline body and data file of any use case: what the body readers allow before the use case decides. */
export const largestInlineBytes = Math.max(...[...useCases.values()].map((u) => u.maxInlineBytes));
export const largestDataFileBytes = Math.max(...[...useCases.values()].map((u) => u.maxDataFileBytes));
