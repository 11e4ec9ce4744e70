// The max-cut solver interface: a pure, synchronous function over a graph (the shared parts, stop signal,
// progress and limits, are ../../core/solver.ts's).
import type { Graph } from '../../../../contract/src/inputs/maxcut/graph.ts';
import type { SolveOptions, SolverInfo } from '../../core/solver.ts';

export type { Progress, SolveOptions, SolverInfo, StopSignal } from '../../core/solver.ts';
export { SolverLimitError } from '../../core/solver.ts';

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

export interface Solver extends SolverInfo {
  solve(graph: Graph, options: SolveOptions): SolveResult;
}
