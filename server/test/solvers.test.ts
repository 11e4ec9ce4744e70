// Tests for the exact solver, the solver registry and the seeded generator: answers checked against an
// independent brute force, stop signals, time limits and limits. The heuristics: heuristics.test.ts.
import { describe, it, expect } from 'vitest';
import { graphFromEdges } from '../../contract/src/inputs/maxcut/graph.ts';
import { annealing } from '../src/maxcut/solvers/annealing.ts';
import { exact } from '../src/maxcut/solvers/exact.ts';
import { localSearch } from '../src/maxcut/solvers/local-search.ts';
import { defaultSolvers, solverByName, solvers } from '../src/maxcut/solvers/index.ts';
import { createRandom } from '../src/maxcut/solvers/random.ts';
import { SolverLimitError } from '../src/maxcut/solvers/solver.ts';
import type { Solver } from '../src/maxcut/solvers/solver.ts';
import { abortAt, bruteForce, expectConsistent, medium, options, randomCase, small } from './support/solver-cases.ts';

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
    const result = exact.solve(
      c.graph,
      options({
        onProgress: (p) => {
          seen.push(p.bestValue);
        },
      }),
    );
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
    const signal = {
      get aborted() {
        return ++reads > 3;
      },
    };
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

describe('registry', () => {
  it('lists exact, annealing and local-search, findable by name; local-search is not a default', () => {
    expect(solvers.map((s: Solver) => s.name)).toEqual(['exact', 'annealing', 'local-search']);
    expect(solverByName('exact')).toBe(exact);
    expect(solverByName('annealing')).toBe(annealing);
    expect(solverByName('local-search')).toBe(localSearch);
    expect(solverByName('tsp')).toBeUndefined();
    expect(solvers.map((s) => s.default)).toEqual([true, true, false]);
    for (const s of solvers) {
      expect(s.defaultTimeLimitSeconds).toBe(10);
      expect(s.description.length).toBeGreaterThan(0);
    }
    expect(exact.exact).toBe(true);
    expect(localSearch.exact).toBe(false);
    expect(annealing.exact).toBe(false);
    expect(annealing.maxNodes).toBeUndefined();
  });

  it('picks exact for small graphs and annealing for large ones (and for a size not known yet)', () => {
    const max = exact.maxNodes!;
    expect(defaultSolvers(graphFromEdges(6, [0], [1], [1]))).toEqual([exact]);
    expect(defaultSolvers(graphFromEdges(max, [0], [1], [1]))).toEqual([exact]);
    expect(defaultSolvers(graphFromEdges(max + 1, [0], [1], [1]))).toEqual([annealing]);
    expect(defaultSolvers(graphFromEdges(2000, [0], [1], [1]))).toEqual([annealing]);
    expect(defaultSolvers({ n: Infinity })).toEqual([annealing]);
  });
});

describe('random', () => {
  it('repeats its sequence for a seed and stays in range', () => {
    const a = createRandom(123),
      b = createRandom(123),
      c = createRandom(124);
    const sa = Array.from({ length: 50 }, () => a.uint32());
    expect(Array.from({ length: 50 }, () => b.uint32())).toEqual(sa);
    expect(Array.from({ length: 50 }, () => c.uint32())).not.toEqual(sa);
    for (let i = 0; i < 1000; i++) {
      const f = a.float(),
        k = a.int(7);
      expect(f >= 0 && f < 1).toBe(true);
      expect(Number.isInteger(k) && k >= 0 && k < 7).toBe(true);
    }
  });
});
