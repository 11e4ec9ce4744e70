// The same checks for every heuristic solver (annealing, local-search): optimal cuts on small graphs
// against an independent brute force, consistency of cut and partition, determinism for a seed and an
// iteration budget, the time limit, the stop signal within 100 ms, and progress that only improves.
import { describe, expect, it } from 'vitest';
import { graphFromEdges } from '@jes/contract/inputs';
import { exact } from '../src/maxcut/solvers/exact.ts';
import { solvers } from '../src/maxcut/solvers/index.ts';
import { createRandom } from '../src/maxcut/solvers/random.ts';
import {
  abortAt,
  bruteForce,
  expectConsistent,
  medium,
  options,
  randomCase,
  small,
  sparseGraph,
} from './support/solver-cases.ts';

const heuristics = solvers.filter((s) => !s.exact);
// Dense enough that the reductions leave a kernel, so the search itself runs (local-search's; annealing enumerates
// a kernel this small).
const dense = [
  randomCase('dense n=14 negative', 21, 14, 0.8, 'negative'),
  randomCase('dense n=16 fractional', 22, 16, 1, 'fractional'),
  ...medium,
];
const big = sparseGraph(9, 2000, 10, false);
// Past the size annealing enumerates (24 nodes), so its search runs; its optimum is the exact solver's.
const past = randomCase('dense n=26 integer', 23, 26, 0.8, 'integer');

it('the heuristics under test are annealing and local-search', () => {
  expect(heuristics.map((s) => s.name)).toEqual(['annealing', 'local-search']);
});

for (const solver of heuristics) {
  describe(solver.name, () => {
    for (const c of [...small, ...dense].filter((c) => c.graph.edges > 0)) {
      it(`reaches the maximum cut within 0.1 s: ${c.name}`, () => {
        const result = solver.solve(c.graph, options({ timeLimitSeconds: 0.1 }));
        expectConsistent(c.graph, result);
        expect(result.cutValue).toBeCloseTo(bruteForce(c), 9);
      });
    }

    it(`reaches the maximum cut the exact solver proves within 0.2 s: ${past.name}`, () => {
      const result = solver.solve(past.graph, options({ timeLimitSeconds: 0.2 }));
      expectConsistent(past.graph, result);
      expect(result.optimal).toBe(false);
      expect(result.cutValue).toBe(exact.solve(past.graph, options()).cutValue);
    });

    it('gives a consistent cut, never above the optimum, on every test graph with a small budget', () => {
      for (const c of [...small, ...dense]) {
        const result = solver.solve(c.graph, options({ maxIterations: 50 }));
        expectConsistent(c.graph, result);
        expect(result.cutValue).toBeLessThanOrEqual(bruteForce(c) + 1e-9);
        if (result.optimal) expect(result.cutValue).toBeCloseTo(bruteForce(c), 9);
      }
    });

    it('is deterministic for a seed and an iteration budget, and another seed explores differently', () => {
      const graph = sparseGraph(5, 500, 6, true);
      const run = (seed: number) => solver.solve(graph, options({ seed, maxIterations: 300 }));
      const a = run(42),
        b = run(42),
        c = run(43);
      expect(a.iterations).toBe(300);
      expect(b.partition).toEqual(a.partition);
      expect(b.cutValue).toBe(a.cutValue);
      expect(c.partition).not.toEqual(a.partition);
      expectConsistent(graph, a);
    });

    it('honours the time limit on a 2000-node sparse graph', () => {
      const started = performance.now();
      const result = solver.solve(big, options({ timeLimitSeconds: 0.3 }));
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1500);
      expectConsistent(big, result);
      expect(result.cutValue).toBeGreaterThan(big.edges / 2); // better than a random partition's expectation
      expect(result.timeToBestSeconds).toBeLessThanOrEqual(elapsed / 1000);
    });

    it('stops within 100 ms of an abort, with progress that only improves and ends at the answer', () => {
      const stopAt = performance.now() + 150;
      const seen: number[] = [];
      const result = solver.solve(
        big,
        options({
          timeLimitSeconds: 60,
          signal: abortAt(stopAt),
          onProgress: (p) => {
            seen.push(p.bestValue);
          },
        }),
      );
      expect(performance.now() - stopAt).toBeLessThan(100);
      expectConsistent(big, result);
      expect(seen.length).toBeGreaterThan(0);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
      expect(seen.at(-1)).toBe(result.cutValue);
    });

    it('returns a valid answer when aborted before it starts', () => {
      const started = performance.now();
      const result = solver.solve(big, options({ timeLimitSeconds: 60, signal: { aborted: true } }));
      expect(performance.now() - started).toBeLessThan(100);
      expectConsistent(big, result);
    });
  });
}

describe('annealing on graphs the reductions solve', () => {
  const annealing = heuristics[0]!;

  it('proves the cut 0 of a graph without edges, even with no time for the reductions (a kernel of 1,000 nodes)', () => {
    const graph = graphFromEdges(1000, [], [], []);
    const result = annealing.solve(graph, options({ timeLimitSeconds: 0 }));
    expectConsistent(graph, result);
    expect(result.optimal).toBe(true);
    expect(result.cutValue).toBe(0);
  });

  it('proves the optimum of a kernel of at most 24 nodes by enumerating it, at once whatever its time limit', () => {
    for (const c of dense) {
      // An hour's limit: a search would run until it, and the test would time out.
      const result = annealing.solve(c.graph, options({ timeLimitSeconds: 3600, maxIterations: 10 }));
      expectConsistent(c.graph, result);
      expect(result.optimal, c.name).toBe(true);
      expect(result.upperBound).toBe(result.cutValue);
      expect(result.cutValue).toBeCloseTo(bruteForce(c), 9);
    }
  });

  it('proves the optimum of a 5,000-node tree with mixed weights: the sum of its positive weights', () => {
    const rng = createRandom(3);
    const n = 5000,
      from: number[] = [],
      to: number[] = [],
      weight: number[] = [];
    for (let v = 1; v < n; v++) {
      from.push(rng.int(v));
      to.push(v);
      weight.push(rng.float() * 4 - 2);
    }
    const graph = graphFromEdges(n, from, to, weight);
    const result = annealing.solve(graph, options({ timeLimitSeconds: 5 }));
    expectConsistent(graph, result);
    expect(result.optimal).toBe(true);
    expect(result.upperBound).toBe(result.cutValue);
    expect(result.cutValue).toBeCloseTo(
      weight.filter((w) => w > 0).reduce((a, b) => a + b, 0),
      6,
    );
  });

  it('proves the optimum of unit cycles: n when n is even, n - 1 when odd', () => {
    for (const n of [3, 4, 999, 1000]) {
      const nodes = Array.from({ length: n }, (_, i) => i);
      const graph = graphFromEdges(
        n,
        nodes,
        nodes.map((i) => (i + 1) % n),
        nodes.map(() => 1),
      );
      const result = annealing.solve(graph, options());
      expect(result.optimal).toBe(true);
      expect(result.cutValue).toBe(n % 2 === 0 ? n : n - 1);
      expectConsistent(graph, result);
    }
  });
});
