// The `exact` solver: enumerates every partition (node n-1 fixed in part 0) and proves the maximum cut.
//
// The n-1 free nodes split into a low block L (nodes 0..b-1) and a high block H (nodes b..n-2). H is walked
// in Gray-code order, one node flip at a time, keeping gain[v] (the change in the cut if v flips) for every
// node with all of L in part 0. For each H state, the cut of any L assignment l is
//   base + sum(gain[i] for i in l) + Q[l],   Q[l] = -2 * (weight of the edges inside l),
// where Q is tabulated once. The linear part is split in two halves S1 (low bits) and S2 (high bits), each
// tabulated per H state, so the inner loop is one table read and two additions per partition.
import type { Graph } from '../../../../contract/src/inputs/maxcut/graph.ts';
import { cutValue } from '../../../../contract/src/inputs/maxcut/graph.ts';
import { flipNode } from './gains.ts';
import { SolverLimitError } from './solver.ts';
import type { SolveOptions, SolveResult, Solver } from './solver.ts';

/**
 * Largest n accepted. Measured on the 2-core reference machine with dense random graphs (all pairs, random
 * weights): about 0.7-1.0e9 states/s, so n = 32 (2^31 states) takes 2.2-3.3 s, while n = 33 took 4.4 s when
 * the machine was idle and 6-9 s when it was busy.
 */
export const EXACT_MAX_NODES = 32;
/** Nodes in the tabulated low block (2^LOW_BITS partitions per H state, Q takes 8 * 2^LOW_BITS bytes). */
const LOW_BITS = 16;
/** Of those, the nodes in the inner loop's half (S1 has 2^INNER_BITS entries). */
const INNER_BITS = 10;

/** Index of the lowest set bit of a positive 32-bit integer. */
function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Q[l] = -2 * (total weight of the edges with both ends in l), for every subset l of nodes 0..b-1. */
function pairTable(graph: Graph, b: number): Float64Array {
  const w = new Float64Array(b * b);
  for (let i = 0; i < b; i++) {
    for (let k = graph.offsets[i]!; k < graph.offsets[i + 1]!; k++) {
      const j = graph.targets[k]!;
      if (j < b) w[i * b + j] = graph.weights[k]!;
    }
  }
  const q = new Float64Array(1 << b);
  const row = new Float64Array(1 << b); // subset sums of one row of w, reused per top bit
  for (let top = 1; top < b; top++) {
    const size = 1 << top;
    for (let l = 1; l < size; l++) row[l] = row[l & (l - 1)]! + w[top * b + lowestBit(l)]!;
    for (let l = 0; l < size; l++) q[size | l] = q[l]! - 2 * row[l]!;
  }
  return q;
}

function solve(graph: Graph, options: SolveOptions): SolveResult {
  if (graph.n > EXACT_MAX_NODES) {
    throw new SolverLimitError(
      `The exact solver accepts at most ${EXACT_MAX_NODES} nodes; this graph has ${graph.n}. Choose another solver.`,
    );
  }
  return solveExactly(graph, options);
}

/**
 * The enumeration without a size limit: the caller sets its own (QUBO's exact takes 32 variables, a graph of
 * 33 nodes). Past about 33 nodes it needs the time limit or `maxIterations` to end.
 */
export function solveExactly(graph: Graph, options: SolveOptions): SolveResult {
  const n = graph.n;
  const start = performance.now();
  if (n <= 1) {
    return {
      cutValue: 0,
      partition: new Uint8Array(n),
      optimal: true,
      upperBound: 0,
      iterations: 1,
      timeToBestSeconds: 0,
    };
  }
  const { offsets, weights } = graph;
  const free = n - 1;
  const b = Math.min(free, LOW_BITS);
  const m = free - b;
  const b1 = Math.min(b, INNER_BITS);
  const b2 = b - b1;
  const size1 = 1 << b1,
    size2 = 1 << b2,
    blockStates = 1 << b;
  const q = pairTable(graph, b);
  const s1 = new Float64Array(size1);
  const s2 = new Float64Array(size2);

  // Everything in part 0: the cut is 0 and each node's gain is its weighted degree.
  const side = new Uint8Array(n);
  const gain = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    let g = 0;
    for (let k = offsets[v]!; k < offsets[v + 1]!; k++) g += weights[k]!;
    gain[v] = g;
  }
  let base = 0;

  const hStates = 2 ** m;
  const deadline = start + options.timeLimitSeconds * 1000;
  const maxStates = options.maxIterations ?? Infinity;
  let best = -Infinity,
    bestLow = 0,
    bestHigh = 0,
    foundAt = start;
  let states = 0;
  let complete = false;

  for (let t = 0; ;) {
    s1[0] = 0;
    for (let l = 1; l < size1; l++) s1[l] = s1[l & (l - 1)]! + gain[lowestBit(l)]!;
    s2[0] = base;
    for (let l = 1; l < size2; l++) s2[l] = s2[l & (l - 1)]! + gain[b1 + lowestBit(l)]!;
    let blockBest = best,
      found = -1;
    for (let l2 = 0; l2 < size2; l2++) {
      const s = s2[l2]!,
        off = l2 << b1;
      for (let l1 = 0; l1 < size1; l1++) {
        const v = q[off + l1]! + s1[l1]! + s;
        if (v > blockBest) {
          blockBest = v;
          found = off + l1;
        }
      }
    }
    states += blockStates;
    if (found >= 0) {
      best = blockBest;
      bestLow = found;
      bestHigh = t ^ (t >>> 1);
      const now = performance.now();
      foundAt = now;
      options.onProgress?.({
        bestValue: best,
        foundAtSeconds: (now - start) / 1000,
        elapsedSeconds: (now - start) / 1000,
      });
    }
    t++;
    if (t === hStates) {
      complete = true;
      break;
    }
    if (options.signal.aborted || states >= maxStates || performance.now() >= deadline) break;
    // Flip the next high node in Gray-code order and update its neighbours' gains.
    base += flipNode(graph, side, gain, b + lowestBit(t));
  }

  const partition = new Uint8Array(n);
  for (let i = 0; i < b; i++) partition[i] = (bestLow >>> i) & 1;
  for (let i = 0; i < m; i++) partition[b + i] = (bestHigh >>> i) & 1;
  const value = cutValue(graph, partition);
  const result: SolveResult = {
    cutValue: value,
    partition,
    optimal: complete,
    iterations: states,
    timeToBestSeconds: (foundAt - start) / 1000,
  };
  if (complete) result.upperBound = value;
  return result;
}

export const exact: Solver = {
  name: 'exact',
  description: `Enumerates every partition and proves the maximum cut; for graphs of at most ${EXACT_MAX_NODES} nodes.`,
  exact: true,
  default: true,
  defaultTimeLimitSeconds: 10,
  maxNodes: EXACT_MAX_NODES,
  solve,
};
