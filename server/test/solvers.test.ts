// Tests for the max-cut solvers (exact, local-search), their registry and the seeded generator: answers
// checked against an independent brute force, stop signals, time limits, limits and determinism.
import { describe, it, expect } from 'vitest';
import { cutValue, graphFromEdges } from '../src/maxcut/graph.ts';
import type { Graph } from '../src/maxcut/graph.ts';
import { exact } from '../src/solvers/exact.ts';
import { localSearch } from '../src/solvers/local-search.ts';
import { defaultSolvers, solverByName, solvers } from '../src/solvers/index.ts';
import { createRandom } from '../src/solvers/random.ts';
import type { Random } from '../src/solvers/random.ts';
import { SolverLimitError } from '../src/solvers/solver.ts';
import type { SolveOptions, SolveResult, Solver, StopSignal } from '../src/solvers/solver.ts';

interface Case {
  name: string;
  n: number;
  from: number[];
  to: number[];
  weight: number[];
  graph: Graph;
}

function makeCase(name: string, n: number, from: number[], to: number[], weight: number[]): Case {
  return { name, n, from, to, weight, graph: graphFromEdges(n, from, to, weight) };
}

type WeightKind = 'unit' | 'integer' | 'negative' | 'fractional' | 'zero';

function drawWeight(rng: Random, kind: WeightKind): number {
  switch (kind) {
    case 'unit': return 1;
    case 'integer': return 1 + rng.int(10);
    case 'negative': return rng.int(21) - 10; // zeros are dropped by graphFromEdges
    case 'fractional': return rng.float() * 4 - 1.5;
    case 'zero': return 0;
  }
}

/** Each pair of nodes in 0..n-1 (restricted to `nodes` if given) becomes an edge with probability p. */
function randomCase(name: string, seed: number, n: number, p: number, kind: WeightKind, nodes?: number[]): Case {
  const rng = createRandom(seed);
  const from: number[] = [], to: number[] = [], weight: number[] = [];
  const ids = nodes ?? Array.from({ length: n }, (_, i) => i);
  for (let a = 0; a < ids.length; a++) {
    for (let b = a + 1; b < ids.length; b++) {
      if (rng.float() < p) { from.push(ids[a]!); to.push(ids[b]!); weight.push(drawWeight(rng, kind)); }
    }
  }
  return makeCase(name, n, from, to, weight);
}

/** A sparse random graph with about n * degree / 2 unit or +-1 edges. */
function sparseGraph(seed: number, n: number, degree: number, signed: boolean): Graph {
  const rng = createRandom(seed);
  const m = Math.floor((n * degree) / 2);
  const from = new Int32Array(m), to = new Int32Array(m), weight = new Float64Array(m);
  for (let e = 0; e < m; e++) {
    from[e] = rng.int(n); to[e] = rng.int(n);
    weight[e] = signed && rng.uint32() & 1 ? -1 : 1;
  }
  return graphFromEdges(n, from, to, weight);
}

const bruteForceCache = new Map<Case, number>();

/** The maximum cut by trying all 2^n partitions on the raw edge list (independent of the CSR form). */
function bruteForce(c: Case): number {
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

function options(extra: Partial<SolveOptions> = {}): SolveOptions {
  return { timeLimitSeconds: 5, seed: 1, signal: { aborted: false }, ...extra };
}

/** A partition with one 0/1 entry per node whose cut is the reported cutValue. */
function expectConsistent(graph: Graph, result: SolveResult): void {
  expect(result.partition).toBeInstanceOf(Uint8Array);
  expect(result.partition.length).toBe(graph.n);
  for (const x of result.partition) expect(x === 0 || x === 1).toBe(true);
  expect(result.cutValue).toBe(cutValue(graph, result.partition));
  expect(Number.isFinite(result.iterations)).toBe(true);
  expect(result.timeToBestSeconds).toBeGreaterThanOrEqual(0);
}

/** A signal that turns aborted once the wall clock passes `at` (performance.now() milliseconds). */
function abortAt(at: number): StopSignal {
  return { get aborted() { return performance.now() >= at; } };
}

const small: Case[] = [
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
  makeCase('two disjoint triangles plus an isolated node', 7, [0, 1, 0, 3, 4, 3], [1, 2, 2, 4, 5, 5], [2, 2, 2, -1, 3, 0.5]),
];
for (let i = 0; i < 16; i++) {
  const kinds: WeightKind[] = ['unit', 'integer', 'negative', 'fractional'];
  const kind = kinds[i % 4]!;
  const n = 3 + (i % 10);
  small.push(randomCase(`random n=${n} ${kind} #${i}`, 100 + i, n, i < 8 ? 0.4 : 0.9, kind));
}
// Larger than the exact solver's tabulated low block, so its Gray-code walk over the high nodes runs too.
const medium: Case[] = [
  randomCase('dense n=19 fractional', 7, 19, 1, 'fractional'),
  randomCase('sparse n=20 negative', 8, 20, 0.25, 'negative'),
];

describe('exact', () => {
  for (const c of [...small, ...medium]) {
    it(`proves the maximum cut: ${c.name}`, () => {
      const result = exact.solve(c.graph, options());
      expectConsistent(c.graph, result);
      expect(result.optimal).toBe(true);
      expect(result.upperBound).toBe(result.cutValue);
      expect(result.cutValue).toBeCloseTo(bruteForce(c), 9);
      expect(result.iterations).toBe(2 ** Math.max(0, c.n - 1));
    });
  }

  it('refuses a graph of maxNodes + 1 nodes with SolverLimitError', () => {
    const max = exact.maxNodes!;
    const graph = graphFromEdges(max + 1, [0], [1], [1]);
    expect(() => exact.solve(graph, options())).toThrow(SolverLimitError);
    expect(() => exact.solve(graph, options())).toThrow(`at most ${max} nodes; this graph has ${max + 1}`);
  });

  it('reports progress that only improves and ends at the answer', () => {
    const c = medium[0]!;
    const seen: number[] = [];
    const result = exact.solve(c.graph, options({ onProgress: (p) => { seen.push(p.bestValue); } }));
    expect(seen.length).toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    expect(seen.at(-1)!).toBeCloseTo(result.cutValue, 9);
  });

  const full = randomCase('dense at maxNodes', 3, exact.maxNodes!, 1, 'fractional').graph;

  it('stops within 100 ms of an abort and returns the best cut so far', () => {
    const stopAt = performance.now() + 150;
    const result = exact.solve(full, options({ timeLimitSeconds: 60, signal: abortAt(stopAt) }));
    expect(performance.now() - stopAt).toBeLessThan(100);
    expectConsistent(full, result);
    expect(result.optimal).toBe(false);
    expect(result.upperBound).toBeUndefined();
  });

  it('polls the signal between blocks of states', () => {
    let reads = 0;
    const signal = { get aborted() { return ++reads > 3; } };
    const result = exact.solve(full, options({ timeLimitSeconds: 60, signal }));
    expectConsistent(full, result);
    expect(result.optimal).toBe(false);
    expect(result.iterations).toBeLessThanOrEqual(4 * 2 ** 16);
  });

  it('honours the time limit', () => {
    const started = performance.now();
    const result = exact.solve(full, options({ timeLimitSeconds: 0.3 }));
    expect(performance.now() - started).toBeLessThan(1500);
    expect(result.optimal).toBe(false);
    expectConsistent(full, result);
  });
});

describe('local-search', () => {
  for (const c of small.filter((c) => c.graph.edges > 0)) {
    it(`reaches the maximum cut within 0.1 s: ${c.name}`, () => {
      const result = localSearch.solve(c.graph, options({ timeLimitSeconds: 0.1 }));
      expectConsistent(c.graph, result);
      expect(result.optimal).toBe(false);
      expect(result.cutValue).toBeCloseTo(bruteForce(c), 9);
    });
  }

  it('gives a consistent cut on every test graph', () => {
    for (const c of [...small, ...medium]) {
      const result = localSearch.solve(c.graph, options({ maxIterations: 200 }));
      expectConsistent(c.graph, result);
      expect(result.optimal).toBe(c.graph.edges === 0);
      expect(result.cutValue).toBeLessThanOrEqual(bruteForce(c) + 1e-9);
    }
  });

  it('is deterministic for a seed and an iteration budget', () => {
    const graph = sparseGraph(5, 500, 6, true);
    const a = localSearch.solve(graph, options({ seed: 42, maxIterations: 3000 }));
    const b = localSearch.solve(graph, options({ seed: 42, maxIterations: 3000 }));
    expect(a.iterations).toBe(3000);
    expect(b.partition).toEqual(a.partition);
    expect(b.cutValue).toBe(a.cutValue);
    expectConsistent(graph, a);
  });

  const big = sparseGraph(9, 2000, 10, false);

  it('honours the time limit on a 2000-node sparse graph', () => {
    const started = performance.now();
    const result = localSearch.solve(big, options({ timeLimitSeconds: 0.3 }));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
    expectConsistent(big, result);
    expect(result.cutValue).toBeGreaterThan(big.edges / 2); // better than a random partition's expectation
  });

  it('stops within 100 ms of an abort and returns the best cut so far', () => {
    const stopAt = performance.now() + 150;
    const seen: number[] = [];
    const result = localSearch.solve(big, options({
      timeLimitSeconds: 60, signal: abortAt(stopAt), onProgress: (p) => { seen.push(p.bestValue); },
    }));
    expect(performance.now() - stopAt).toBeLessThan(100);
    expectConsistent(big, result);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
  });

  it('returns a valid answer when aborted before it starts', () => {
    const started = performance.now();
    const result = localSearch.solve(big, options({ timeLimitSeconds: 60, signal: { aborted: true } }));
    expect(performance.now() - started).toBeLessThan(100);
    expectConsistent(big, result);
  });
});

describe('registry', () => {
  it('lists exact and local-search, findable by name', () => {
    expect(solvers.map((s: Solver) => s.name)).toEqual(['exact', 'local-search']);
    expect(solverByName('exact')).toBe(exact);
    expect(solverByName('local-search')).toBe(localSearch);
    expect(solverByName('tsp')).toBeUndefined();
    for (const s of solvers) {
      expect(s.default).toBe(true);
      expect(s.defaultTimeLimitSeconds).toBe(10);
      expect(s.description.length).toBeGreaterThan(0);
    }
    expect(exact.exact).toBe(true);
    expect(localSearch.exact).toBe(false);
    expect(localSearch.maxNodes).toBeUndefined();
  });

  it('picks exact for small graphs and local-search for large ones', () => {
    const max = exact.maxNodes!;
    expect(defaultSolvers(graphFromEdges(6, [0], [1], [1]))).toEqual([exact]);
    expect(defaultSolvers(graphFromEdges(max, [0], [1], [1]))).toEqual([exact]);
    expect(defaultSolvers(graphFromEdges(max + 1, [0], [1], [1]))).toEqual([localSearch]);
    expect(defaultSolvers(graphFromEdges(2000, [0], [1], [1]))).toEqual([localSearch]);
  });
});

describe('random', () => {
  it('repeats its sequence for a seed and stays in range', () => {
    const a = createRandom(123), b = createRandom(123), c = createRandom(124);
    const sa = Array.from({ length: 50 }, () => a.uint32());
    expect(Array.from({ length: 50 }, () => b.uint32())).toEqual(sa);
    expect(Array.from({ length: 50 }, () => c.uint32())).not.toEqual(sa);
    for (let i = 0; i < 1000; i++) {
      const f = a.float(), k = a.int(7);
      expect(f >= 0 && f < 1).toBe(true);
      expect(Number.isInteger(k) && k >= 0 && k < 7).toBe(true);
    }
  });
});
