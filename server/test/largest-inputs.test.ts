// The heuristic solvers on the largest inputs the use cases take (issue 27, 5): annealing overran its 1 s limit to
// 9.4 s on 10 million variables. Each answers with a valid answer at max_nodes; the loops that ran without looking
// at the clock (the reductions before annealing, its greedy descents) now look at it; and a job's decoded input is
// shared memory, which reaches a solver thread without a copy. How long each takes past its limit is a figure, not
// a test: `npm run bench:limits` prints it.
import { describe, expect, it } from 'vitest';
import { cutValue, type Graph, graphFromEdges } from '../../contract/src/inputs/maxcut/graph.ts';
import { maxNodes } from '../../contract/src/inputs/maxcut/limits.ts';
import { computeGains, descend } from '../src/maxcut/solvers/gains.ts';
import { maxcut } from '../src/maxcut/use-case.ts';
import { energy, type QuboInput } from '../../contract/src/inputs/qubo/input.ts';
import { maxVariables } from '../../contract/src/inputs/qubo/limits.ts';
import { qubo } from '../src/qubo/use-case.ts';
import type { SolveOptions } from '../src/core/solver.ts';
import { random } from './support/maxcut-fixtures.ts';

const next = random(27);
const options = (timeLimitSeconds: number): SolveOptions => ({ timeLimitSeconds, seed: 5, signal: { aborted: false } });

/** maxNodes nodes, two random edges per node of weights -1 to 3 (some nodes of degree 2 or less: the reductions run). */
function largestGraph(): Graph {
  const n = maxNodes;
  const from = Array.from({ length: 2 * n }, () => Math.floor(next() * n));
  const to = from.map((i) => (i + 1 + Math.floor(next() * (n - 1))) % n);
  return graphFromEdges(
    n,
    from,
    to,
    from.map(() => Math.floor(next() * 5) - 1),
  );
}

/** maxVariables variables: the upper triangle of a random graph as couplings, a random diagonal. */
function largestQubo(): QuboInput {
  const { n, offsets, targets, weights } = largestGraph();
  const rows = new Int32Array(n + 1);
  const columns: number[] = [];
  const couplings: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++)
      if (targets[k]! > i) {
        columns.push(targets[k]!);
        couplings.push(weights[k]!);
      }
    rows[i + 1] = columns.length;
  }
  const diagonal = Float64Array.from({ length: n }, () => Math.floor(next() * 5) - 2);
  return { n, diagonal, offsets: rows, columns: Int32Array.from(columns), couplings: Float64Array.from(couplings) };
}

describe('the heuristic solvers at max_nodes', () => {
  const graph = largestGraph();
  const input = largestQubo();

  it.each(maxcut.solvers.filter((s) => !s.exact).map((s) => [s.name, s] as const))(
    'maxcut %s answers with a cut of its partition, at a time limit of 0 and of 0.2 s',
    (_, solver) => {
      for (const limit of [0, 0.2]) {
        const { data, objective } = solver.solve(graph, options(limit));
        const partition = data.partition as number[];
        expect(partition).toHaveLength(maxNodes);
        expect(data.cut_value).toBe(cutValue(graph, partition));
        expect(objective).toBe(data.cut_value);
      }
    },
  );

  it.each(qubo.solvers.filter((s) => !s.exact).map((s) => [s.name, s] as const))(
    'qubo %s answers with the energy of its assignment, at a time limit of 0 and of 0.2 s',
    (_, solver) => {
      for (const limit of [0, 0.2]) {
        const { data } = solver.solve(input, options(limit));
        const assignment = data.assignment as number[];
        expect(assignment).toHaveLength(maxVariables);
        expect(data.energy).toBe(energy(input, assignment));
      }
    },
  );
});

describe('the loops that look at the clock', () => {
  it('annealing’s reductions stop at a quarter of the time limit: a cycle is proven only with the time to reduce it', () => {
    const n = maxNodes;
    const nodes = Array.from({ length: n }, (_, i) => i);
    const cycle = graphFromEdges(
      n,
      nodes,
      nodes.map((i) => (i + 1) % n),
      nodes.map(() => 1),
    );
    const annealing = maxcut.solvers.find((s) => s.name === 'annealing')!;
    // The reductions alone solve a cycle (an even one: every edge cut).
    expect(annealing.solve(cycle, options(30)).data).toMatchObject({ optimal: true, cut_value: n });
    // With no time they give up at their first look at the clock; the search runs on the whole cycle.
    const rushed = annealing.solve(cycle, options(0)).data;
    expect(rushed.optimal).toBe(false);
    expect(rushed.cut_value).toBe(cutValue(cycle, rushed.partition as number[]));
  });

  it('a greedy descent asks whether to stop every `every` nodes and between passes, and stops when told', () => {
    const graph = maxcut.decode(maxcut.encode(largestGraph()));
    const start = Uint8Array.from({ length: graph.n }, () => (next() < 0.5 ? 1 : 0));
    const run = (stopAt: number) => {
      const side = start.slice();
      const gain = new Float64Array(graph.n);
      const before = computeGains(graph, side, gain);
      let asked = 0;
      const change = descend(graph, side, gain, 0, () => ++asked >= stopAt, 1000);
      expect(before + change).toBe(cutValue(graph, side));
      return { side, gain, asked };
    };
    const whole = run(Infinity);
    expect(Math.max(...whole.gain)).toBeLessThanOrEqual(0); // a local optimum
    const passes = Math.ceil(whole.asked / 101); // each pass asks after every 1,000 of the 100,000 nodes, then once
    expect(passes).toBeGreaterThan(1);
    expect(whole.asked).toBe(100 * passes + passes - 1);
    const first = run(1);
    expect(first.asked).toBe(1);
    // Stopped after the first 1,000 nodes: the rest kept their sides.
    expect(first.side.subarray(1000)).toEqual(start.subarray(1000));
    expect(first.side.subarray(0, 1000)).not.toEqual(start.subarray(0, 1000));
  });
});

describe('a job’s decoded input', () => {
  it.each([
    ['maxcut', () => maxcut.decode(maxcut.encode(largestGraph())) as unknown as Record<string, unknown>],
    ['qubo', () => qubo.decode(qubo.encode(largestQubo())) as unknown as Record<string, unknown>],
  ] as const)('%s is shared memory: the copy a solver thread is sent is the same memory', (_, decoded) => {
    const input = decoded();
    const arrays = Object.values(input).filter((v) => ArrayBuffer.isView(v)) as Float64Array[];
    expect(arrays.length).toBeGreaterThanOrEqual(3);
    const copy = structuredClone(input) as Record<string, Float64Array>;
    for (const [name, array] of Object.entries(input)) {
      if (!ArrayBuffer.isView(array)) continue;
      expect(array.buffer, name).toBeInstanceOf(SharedArrayBuffer);
      const copied = copy[name]!;
      const old = copied[0]!;
      copied[0] = old + 1;
      expect((array as Float64Array)[0], name).toBe(old + 1);
      copied[0] = old;
    }
  });
});
