// Partition crossover (maxcut/solvers/crossover.ts): the child of two partitions is at least as good as both, its
// cut is what crossover says it grew by, and improvements found apart by two parents in separate parts of a graph
// come together in one child.
import { describe, expect, it } from 'vitest';
import { cutValue, graphFromEdges } from '@jes/contract/inputs';
import { crossover, crossoverScratch } from '../src/maxcut/solvers/crossover.ts';
import { computeGains, descend, gainEpsilon } from '../src/maxcut/solvers/gains.ts';
import { createRandom } from '../src/maxcut/solvers/random.ts';
import { sparseGraph } from './support/solver-cases.ts';

const never = () => false;

describe('crossover', () => {
  it('gives a child at least as good as both parents, grown by what it says, on mixed-sign graphs', () => {
    for (const [seed, degree] of [
      [1, 3],
      [2, 4],
      [3, 8],
    ] as const) {
      const graph = sparseGraph(seed, 600, degree, true);
      const eps = gainEpsilon(graph);
      const rng = createRandom(seed);
      const localOptimum = (): Uint8Array => {
        const side = Uint8Array.from({ length: graph.n }, () => rng.uint32() & 1);
        const gain = new Float64Array(graph.n);
        computeGains(graph, side, gain);
        descend(graph, side, gain, eps, never, 1 << 14);
        return side;
      };
      let grewSomewhere = false;
      for (let round = 0; round < 10; round++) {
        const a = localOptimum(),
          b = localOptimum();
        const [cutA, cutB] = [cutValue(graph, a), cutValue(graph, b)];
        const bBefore = b.slice();
        const { grown } = crossover(graph, a, b, crossoverScratch(graph.n), eps);
        expect(b).toEqual(bBefore);
        expect(cutValue(graph, a)).toBeCloseTo(cutA + grown, 9);
        expect(cutValue(graph, a)).toBeGreaterThanOrEqual(Math.max(cutA, cutB) - 1e-9);
        grewSomewhere ||= grown > 0;
      }
      // On the sparse graphs the parents differ in clusters, and some of them are better in the second parent.
      if (degree === 3) expect(grewSomewhere).toBe(true);
    }
  });

  it('takes each separate part from the parent that cuts it better, whichever way round a parent is given', () => {
    // Two triangles with a pendant edge each, apart: a triangle cuts at most 2 of its 3 edges.
    const from = Int32Array.from([0, 1, 2, 0, 4, 5, 6, 4]);
    const to = Int32Array.from([1, 2, 0, 3, 5, 6, 4, 7]);
    const graph = graphFromEdges(8, from, to, new Float64Array(8).fill(1));
    const eps = gainEpsilon(graph);
    // a cuts the first part well (3 edges) and the second badly (its pendant edge alone); b the other way round.
    const a = [0, 1, 1, 1, 0, 0, 0, 1];
    const b = [0, 0, 0, 1, 0, 1, 1, 1];
    for (const other of [b, b.map((s) => s ^ 1)]) {
      const child = Uint8Array.from(a);
      expect([cutValue(graph, child), cutValue(graph, other)]).toEqual([4, 4]);
      expect(crossover(graph, child, Uint8Array.from(other), crossoverScratch(graph.n), eps)).toEqual({
        grown: 2,
        turned: 2,
      });
      expect(cutValue(graph, child)).toBe(6);
    }
  });

  it('takes a cluster both cut alike only when asked to, and says how many nodes it turned', () => {
    // A triangle cuts at most 2 of its 3 edges, in 6 ways: a and b are two of them, apart on node 2 alone.
    const graph = graphFromEdges(
      3,
      Int32Array.from([0, 1, 2]),
      Int32Array.from([1, 2, 0]),
      new Float64Array(3).fill(1),
    );
    const eps = gainEpsilon(graph);
    const b = Uint8Array.from([0, 1, 1]);
    const child = Uint8Array.from([0, 1, 0]);
    expect(crossover(graph, child, b, crossoverScratch(graph.n), eps)).toEqual({ grown: 0, turned: 0 });
    expect(child).toEqual(Uint8Array.from([0, 1, 0]));
    expect(crossover(graph, child, b, crossoverScratch(graph.n), eps, true)).toEqual({ grown: 0, turned: 1 });
    expect(child).toEqual(b);
  });
});
