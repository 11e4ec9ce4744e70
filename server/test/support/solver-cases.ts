// Test graphs for the solver tests: small cases with an independent brute force, sparse random graphs,
// solve options, and the checks every solver's answer must pass.
import { expect } from 'vitest';
import { cutValue, graphFromEdges } from '../../../contract/src/inputs/maxcut/graph.ts';
import type { Graph } from '../../../contract/src/inputs/maxcut/graph.ts';
import { createRandom } from '../../src/maxcut/solvers/random.ts';
import type { Random } from '../../src/maxcut/solvers/random.ts';
import type { SolveOptions, SolveResult, StopSignal } from '../../src/maxcut/solvers/solver.ts';

export interface Case {
  name: string;
  n: number;
  from: number[];
  to: number[];
  weight: number[];
  graph: Graph;
}

export function makeCase(name: string, n: number, from: number[], to: number[], weight: number[]): Case {
  return { name, n, from, to, weight, graph: graphFromEdges(n, from, to, weight) };
}

export type WeightKind = 'unit' | 'integer' | 'negative' | 'fractional' | 'zero';

function drawWeight(rng: Random, kind: WeightKind): number {
  switch (kind) {
    case 'unit':
      return 1;
    case 'integer':
      return 1 + rng.int(10);
    case 'negative':
      return rng.int(21) - 10; // zeros are dropped by graphFromEdges
    case 'fractional':
      return rng.float() * 4 - 1.5;
    case 'zero':
      return 0;
  }
}

/** Each pair of nodes in 0..n-1 (restricted to `nodes` if given) becomes an edge with probability p. */
export function randomCase(name: string, seed: number, n: number, p: number, kind: WeightKind, nodes?: number[]): Case {
  const rng = createRandom(seed);
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  const ids = nodes ?? Array.from({ length: n }, (_, i) => i);
  for (let a = 0; a < ids.length; a++) {
    for (let b = a + 1; b < ids.length; b++) {
      if (rng.float() < p) {
        from.push(ids[a]!);
        to.push(ids[b]!);
        weight.push(drawWeight(rng, kind));
      }
    }
  }
  return makeCase(name, n, from, to, weight);
}

/** A sparse random graph with about n * degree / 2 unit or +-1 edges. */
export function sparseGraph(seed: number, n: number, degree: number, signed: boolean): Graph {
  const rng = createRandom(seed);
  const m = Math.floor((n * degree) / 2);
  const from = new Int32Array(m),
    to = new Int32Array(m),
    weight = new Float64Array(m);
  for (let e = 0; e < m; e++) {
    from[e] = rng.int(n);
    to[e] = rng.int(n);
    weight[e] = signed && rng.uint32() & 1 ? -1 : 1;
  }
  return graphFromEdges(n, from, to, weight);
}

const bruteForceCache = new Map<Case, number>();

/** The maximum cut by trying all 2^n partitions on the raw edge list (independent of the CSR form). */
export function bruteForce(c: Case): number {
  const cached = bruteForceCache.get(c);
  if (cached !== undefined) return cached;
  let best = 0;
  for (let mask = 0; mask < 2 ** c.n; mask++) {
    let cut = 0;
    for (let e = 0; e < c.from.length; e++) {
      if (((mask >>> c.from[e]!) & 1) !== ((mask >>> c.to[e]!) & 1)) cut += c.weight[e]!;
    }
    if (mask === 0 || cut > best) best = cut;
  }
  bruteForceCache.set(c, best);
  return best;
}

export function options(extra: Partial<SolveOptions> = {}): SolveOptions {
  return { timeLimitSeconds: 5, seed: 1, signal: { aborted: false }, ...extra };
}

/** A partition with one 0/1 entry per node whose cut is the reported cutValue. */
export function expectConsistent(graph: Graph, result: SolveResult): void {
  expect(result.partition).toBeInstanceOf(Uint8Array);
  expect(result.partition.length).toBe(graph.n);
  for (const x of result.partition) expect(x === 0 || x === 1).toBe(true);
  expect(result.cutValue).toBe(cutValue(graph, result.partition));
  expect(Number.isFinite(result.iterations)).toBe(true);
  expect(result.timeToBestSeconds).toBeGreaterThanOrEqual(0);
}

/** A signal that turns aborted once the wall clock passes `at` (performance.now() milliseconds). */
export function abortAt(at: number): StopSignal {
  return {
    get aborted() {
      return performance.now() >= at;
    },
  };
}

export const small: Case[] = [
  makeCase('empty graph (n = 0)', 0, [], [], []),
  makeCase('single node', 1, [], [], []),
  makeCase('two nodes, one edge', 2, [0], [1], [3]),
  makeCase('two nodes, negative edge', 2, [0], [1], [-2]),
  makeCase('two nodes, no edge', 2, [], [], []),
  makeCase('all-zero weights', 5, [0, 1, 2, 3], [1, 2, 3, 4], [0, 0, 0, 0]),
  makeCase('triangle', 3, [0, 1, 0], [1, 2, 2], [1, 1, 1]),
  makeCase('repeated edges and a self-loop', 4, [0, 0, 1, 2, 3, 3], [1, 1, 2, 3, 0, 3], [1, 2, -1, 4, 2, 5]),
  randomCase('isolated nodes', 11, 10, 0.7, 'integer', [0, 2, 3, 5, 8]),
  randomCase('disconnected: two components', 12, 12, 0.6, 'negative', [0, 1, 2, 3, 4]),
  makeCase(
    'two disjoint triangles plus an isolated node',
    7,
    [0, 1, 0, 3, 4, 3],
    [1, 2, 2, 4, 5, 5],
    [2, 2, 2, -1, 3, 0.5],
  ),
];
for (let i = 0; i < 16; i++) {
  const kinds: WeightKind[] = ['unit', 'integer', 'negative', 'fractional'];
  const kind = kinds[i % 4]!;
  const n = 3 + (i % 10);
  small.push(randomCase(`random n=${n} ${kind} #${i}`, 100 + i, n, i < 8 ? 0.4 : 0.9, kind));
}
// Larger than the exact solver's tabulated low block, so its Gray-code walk over the high nodes runs too.
export const medium: Case[] = [
  randomCase('dense n=19 fractional', 7, 19, 1, 'fractional'),
  randomCase('sparse n=20 negative', 8, 20, 0.25, 'negative'),
];
