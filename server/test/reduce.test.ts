// The exact reductions (maxcut/reduce.ts): on many small sparse graphs, the kernel's best cut plus the
// offset is the graph's best cut (both by brute force), and expanding the kernel's best partition gives a
// partition of the graph with exactly that cut.
import { describe, expect, it } from 'vitest';
import { cutValue, graphFromEdges } from '../../contract/src/inputs/maxcut/graph.ts';
import type { Graph } from '../../contract/src/inputs/maxcut/graph.ts';
import { reduceGraph } from '../src/maxcut/reduce.ts';
import { bruteForce, randomCase } from './support/solver-cases.ts';
import type { WeightKind } from './support/solver-cases.ts';

/** The best partition of a graph of at most 20 nodes, by trying them all. */
function bestPartition(graph: Graph): Uint8Array {
  let best = -Infinity,
    bestMask = 0;
  const side = new Uint8Array(graph.n);
  for (let mask = 0; mask < 2 ** graph.n; mask++) {
    for (let i = 0; i < graph.n; i++) side[i] = (mask >>> i) & 1;
    const cut = cutValue(graph, side);
    if (cut > best) {
      best = cut;
      bestMask = mask;
    }
  }
  return Uint8Array.from({ length: graph.n }, (_, i) => (bestMask >>> i) & 1);
}

describe('reduceGraph', () => {
  const kinds: WeightKind[] = ['unit', 'integer', 'negative', 'fractional'];
  let shrunk = 0,
    emptied = 0;
  for (let i = 0; i < 120; i++) {
    const n = 4 + (i % 11);
    const c = randomCase(`sparse n=${n} #${i}`, 500 + i, n, 1.5 / n + (i % 3) * 0.15, kinds[i % 4]!);
    it(`keeps the best cut and finds it again: ${c.name} ${kinds[i % 4]}`, () => {
      const reduction = reduceGraph(c.graph);
      const optimum = bruteForce(c);
      const kernelBest = bestPartition(reduction.kernel);
      expect(cutValue(reduction.kernel, kernelBest) + reduction.offset).toBeCloseTo(optimum, 9);
      const partition = reduction.expand(kernelBest);
      expect(partition.length).toBe(c.n);
      expect(cutValue(c.graph, partition)).toBeCloseTo(optimum, 9);
      // The kernel's nodes all have degree 3 or more, and are the graph's nodes in order.
      for (let v = 0; v < reduction.kernel.n; v++)
        expect(reduction.kernel.offsets[v + 1]! - reduction.kernel.offsets[v]!).toBeGreaterThanOrEqual(3);
      for (let v = 1; v < reduction.original.length; v++)
        expect(reduction.original[v]!).toBeGreaterThan(reduction.original[v - 1]!);
      if (reduction.kernel.n < c.n) shrunk++;
      if (reduction.kernel.edges === 0) emptied++;
    });
  }
  it('covered graphs it shrinks and graphs it solves outright', () => {
    expect(shrunk).toBeGreaterThan(60);
    expect(emptied).toBeGreaterThan(20);
  });

  it('leaves a graph whose nodes all have degree 3 or more as it is', () => {
    const c = randomCase('complete n=8', 1, 8, 1, 'fractional');
    const reduction = reduceGraph(c.graph);
    expect(reduction.kernel).toBe(c.graph);
    expect(reduction.offset).toBe(0);
    expect([...reduction.original]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('merges the edge a series node leaves into an edge already there, and drops it when they cancel', () => {
    // Path 0-1-2 (weights 1, 1) beside the edge 0-2 of weight 1: node 1 leaves an edge 0-2 of weight -1,
    // which cancels it; then 0 and 2 have degree 0. Best cut: 2 (node 1 opposite 0 and 2).
    const graph = graphFromEdges(3, [0, 1, 0], [1, 2, 2], [1, 1, 1]);
    const reduction = reduceGraph(graph);
    expect(reduction.kernel.n).toBe(0);
    expect(reduction.offset).toBe(2);
    expect(cutValue(graph, reduction.expand([]))).toBe(2);
  });
});

describe('reduceGraph with a stop flag', () => {
  it('gives up and returns the graph whole once the flag is up', () => {
    const n = 20_000;
    const nodes = Array.from({ length: n }, (_, i) => i);
    const cycle = graphFromEdges(
      n,
      nodes,
      nodes.map((i) => (i + 1) % n),
      nodes.map(() => 1),
    );
    expect(reduceGraph(cycle).kernel.n).toBe(0);
    let reads = 0;
    const stopped = reduceGraph(cycle, {
      get aborted() {
        return ++reads > 2;
      },
    });
    expect(stopped.kernel).toBe(cycle);
    expect(stopped.offset).toBe(0);
  });
});
