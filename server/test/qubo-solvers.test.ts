// Tests for the QUBO solvers: the reduction to max cut on n + 1 nodes (cut = -energy for every assignment, and
// the maximum cut is minus the minimum energy), each solver on the contract example and on random instances
// against enumeration, exact's limit, and progress reported as energies.
import { describe, expect, it } from 'vitest';
import { cutValue } from '../../contract/src/inputs/maxcut/graph.ts';
import { exact as maxCutExact } from '../src/maxcut/solvers/exact.ts';
import { energy } from '../../contract/src/inputs/qubo/input.ts';
import { assignmentOf, maxCutGraph } from '../src/qubo/reduction.ts';
import { qubo } from '../src/qubo/use-case.ts';
import { SolverLimitError } from '../src/core/solver.ts';
import { canonical } from './support/maxcut-fixtures.ts';
import { options } from './support/solver-cases.ts';
import {
  bruteForce,
  denseEnergy,
  EXAMPLE,
  EXAMPLE_ASSIGNMENT,
  EXAMPLE_MINIMUM,
  type EntryKind,
  randomMatrix,
} from './support/qubo-fixtures.ts';

const kinds: EntryKind[] = ['integer', 'fractional', 'sparse'];
/** Seeded random QUBOs of 1..10 variables; their entries are multiples of 1/1024, so every sum here is exact. */
const cases = Array.from({ length: 15 }, (_, k) => {
  const n = 1 + (k % 10);
  const q = randomMatrix(500 + k, n, kinds[k % 3]!);
  return {
    name: `n=${n} ${kinds[k % 3]} #${k}`,
    q,
    input: qubo.checkInline({ num_variables: n, q_matrix: q }).prepare(),
  };
});
const solverNamed = (name: string) => qubo.solvers.find((s) => s.name === name)!;
/** Iteration budgets that end long before the time limit: the answers depend on the seed alone. */
const budget: Record<string, { maxIterations: number } | object> = {
  annealing: { maxIterations: 200 },
  'local-search': { maxIterations: 200 },
};

describe('the reduction to max cut', () => {
  for (const c of cases) {
    it(`gives every assignment a cut of -energy, and -max cut is the minimum energy: ${c.name}`, () => {
      const graph = maxCutGraph(c.input);
      canonical(graph); // a valid CSR: every entry mirrored, no self-loop, no zero weight
      const n = c.q.length;
      expect(graph.n).toBe(n + 1);
      const partition = new Uint8Array(n + 1);
      for (let mask = 0; mask < 2 ** n; mask++) {
        for (let i = 0; i < n; i++) partition[i + 1] = (mask >>> i) & 1;
        partition[0] = 0;
        const e = denseEnergy(c.q, partition.subarray(1));
        expect(cutValue(graph, partition)).toBe(0 - e);
        expect(energy(c.input, assignmentOf(partition))).toBe(e);
        // The same assignment with node 0 on the other side: every node flipped, the same cut.
        for (let v = 0; v <= n; v++) partition[v]! ^= 1;
        expect(cutValue(graph, partition)).toBe(0 - e);
        expect(energy(c.input, assignmentOf(partition))).toBe(e);
      }
      expect(0 - maxCutExact.solve(graph, options()).cutValue).toBe(bruteForce(c.q));
    });
  }

  it('keeps each row sorted by neighbour', () => {
    const graph = maxCutGraph(cases[9]!.input);
    for (let v = 0; v < graph.n; v++)
      for (let k = graph.offsets[v]! + 1; k < graph.offsets[v + 1]!; k++)
        expect(graph.targets[k]!).toBeGreaterThan(graph.targets[k - 1]!);
  });
});

describe('the QUBO solvers', () => {
  for (const solver of qubo.solvers) {
    const solve = (input: (typeof cases)[number]['input'], extra: Parameters<typeof options>[0] = {}) =>
      solver.solve(input, options({ timeLimitSeconds: 60, ...budget[solver.name], ...extra }));

    it(`${solver.name}: finds the contract example's minimum, -11 at [1, 0, 0, 1]`, () => {
      const { data, objective } = solve(qubo.checkInline(EXAMPLE).prepare());
      expect(objective).toBe(EXAMPLE_MINIMUM);
      expect(data).toMatchObject({ energy: EXAMPLE_MINIMUM, assignment: EXAMPLE_ASSIGNMENT });
      expect(Object.keys(data)).toEqual(
        solver.exact || data.optimal
          ? ['energy', 'assignment', 'optimal', 'lower_bound', 'iterations', 'time_to_best_seconds']
          : ['energy', 'assignment', 'optimal', 'iterations', 'time_to_best_seconds'],
      );
      const seconds = data.time_to_best_seconds as number;
      expect(Math.round(seconds * 1000) / 1000).toBe(seconds);
      if (solver.exact) expect(data).toMatchObject({ optimal: true, lower_bound: EXAMPLE_MINIMUM });
    });

    it(`${solver.name}: matches enumeration on random QUBOs, its energy computed from the assignment`, () => {
      for (const c of cases) {
        const { data, objective } = solve(c.input);
        const assignment = data.assignment as number[];
        expect(assignment).toHaveLength(c.q.length);
        for (const x of assignment) expect(x === 0 || x === 1).toBe(true);
        expect(data.energy).toBe(denseEnergy(c.q, assignment));
        expect(objective).toBe(data.energy);
        expect(data.energy, c.name).toBe(bruteForce(c.q));
        if (solver.exact) expect(data.optimal).toBe(true);
        if (data.optimal) expect(data.lower_bound).toBe(data.energy);
      }
    });

    it(`${solver.name}: reports progress as energies, the last one the answer's`, () => {
      const c = cases[9]!;
      const seen: number[] = [];
      const { objective } = solve(c.input, { onProgress: (p) => void seen.push(p.bestValue) });
      expect(seen.length).toBeGreaterThan(0);
      for (const value of seen) expect(value).toBeGreaterThanOrEqual(objective);
      expect(seen.at(-1)).toBe(objective);
    });

    it(`${solver.name}: answers energy 0 (not -0) for an all-zero QUBO`, () => {
      const { data } = solve(
        qubo
          .checkInline({
            num_variables: 3,
            q_matrix: [
              [0, 0, 0],
              [0, 0, 0],
              [0, 0, 0],
            ],
          })
          .prepare(),
      );
      expect(Object.is(data.energy, 0)).toBe(true);
      if (data.lower_bound !== undefined) expect(Object.is(data.lower_bound, 0)).toBe(true);
    });
  }

  it('exact takes 32 variables (a graph of 33 nodes) and refuses 33 with SolverLimitError', () => {
    const at = (n: number) => qubo.checkInline({ num_variables: n, q_matrix: randomMatrix(n, n, 'integer') }).prepare();
    const exact = solverNamed('exact');
    // One block of 2^16 states is enough to show 32 variables are accepted; the whole run would take seconds.
    const partial = exact.solve(at(32), options({ maxIterations: 1 }));
    expect(partial.data).toMatchObject({ optimal: false, iterations: 2 ** 16 });
    expect(partial.data.lower_bound).toBeUndefined();
    expect((partial.data.assignment as number[]).length).toBe(32);
    const big = at(33);
    expect(() => exact.solve(big, options())).toThrow(SolverLimitError);
    expect(() => exact.solve(big, options())).toThrow(
      'The exact solver accepts at most 32 variables; this QUBO has 33. Choose another solver.',
    );
  });
});
