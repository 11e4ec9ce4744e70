// Runs a heuristic search on the kernel that maxcut/reduce.ts leaves, and maps its answer back: progress
// and the result are in terms of the whole graph. A graph the reductions solve outright (no edge left in
// the kernel) comes back at once, proven optimal. The reductions get at most a quarter of the time limit (then
// the search runs on the whole graph): they are there to save the search time, not to take it, and building the
// kernel once they are done takes about as long again. A kernel of at most ENUMERATED_NODES nodes is enumerated
// (exact.ts) instead of searched: its answer is then proven, and the run ends at once rather than at its time limit.
import { cutValue, type Graph } from '@jes/contract/inputs';
import { reduceGraph } from '../reduce.ts';
import { solveExactly } from './exact.ts';
import type { SolveOptions, SolveResult } from './solver.ts';

/** What a search over the kernel returns. */
export interface Found {
  side: Uint8Array;
  /** performance.now() when it found `side`. */
  foundAt: number;
  iterations: number;
}

/** A search over a graph with at least one edge; it calls `report(cut)` when it finds a better cut. */
export type Search = (graph: Graph, options: SolveOptions, report: (cut: number) => void) => Found;

/** The share of the time limit the reductions may take. */
const REDUCE_SHARE = 0.25;
/** The largest kernel enumerated: 2^23 partitions, about 40 ms on the 2-core reference machine. */
const ENUMERATED_NODES = 24;

export function solveReduced(graph: Graph, options: SolveOptions, search: Search): SolveResult {
  const start = performance.now();
  const reduceBy = start + REDUCE_SHARE * options.timeLimitSeconds * 1000;
  const { signal } = options;
  const reduction = reduceGraph(graph, {
    get aborted() {
      return signal.aborted || performance.now() >= reduceBy;
    },
  });
  const { kernel, offset } = reduction;
  const report = (cut: number): void => {
    const seconds = (performance.now() - start) / 1000;
    options.onProgress?.({ bestValue: cut + offset, foundAtSeconds: seconds, elapsedSeconds: seconds });
  };
  const remaining = {
    ...options,
    timeLimitSeconds: Math.max(0, options.timeLimitSeconds - (performance.now() - start) / 1000),
  };
  if (kernel.edges === 0 || kernel.n <= ENUMERATED_NODES) {
    // Enumerated unless nothing is left to cut: planned in partitions, not in the search's iterations, and its
    // progress in the kernel's terms, neither passed on. Past the time limit (shorter than the enumeration) the best
    // partition seen is kept, unproven.
    const enumerated =
      kernel.edges === 0
        ? { partition: new Uint8Array(kernel.n), cutValue: 0, optimal: true }
        : solveExactly(kernel, { timeLimitSeconds: remaining.timeLimitSeconds, seed: 0, signal });
    const partition = reduction.expand(enumerated.partition);
    const value = cutValue(graph, partition);
    report(enumerated.cutValue);
    return {
      cutValue: value,
      partition,
      optimal: enumerated.optimal,
      ...(enumerated.optimal ? { upperBound: value } : {}),
      iterations: 0,
      timeToBestSeconds: (performance.now() - start) / 1000,
    };
  }
  const found = search(kernel, remaining, report);
  const partition = reduction.expand(found.side);
  return {
    cutValue: cutValue(graph, partition),
    partition,
    optimal: false,
    iterations: found.iterations,
    timeToBestSeconds: Math.max(0, found.foundAt - start) / 1000,
  };
}
