// Max-cut inputs where valid bodies of that use case are wanted by name (the fuzz suite, the mutants test):
// small symmetric matrices with integer, fractional, negative and zero weights (sparse and dense graphs).
import fc from 'fast-check';
import { type Graph, graphOf } from '../maxcut.ts';
import { weight } from './examples.ts';

/**
 * Graphs of `minNodes` to `maxNodes` nodes. The node count and the weights are drawn apart (no `.chain`), the
 * weights of node pairs ordered so that a graph of n nodes takes the first n(n-1)/2: fast-check shrinks a failing
 * graph by dropping its last nodes, the edges among the others kept, and then by zeroing weights.
 */
export function graphArbitrary(minNodes: number, maxNodes: number): fc.Arbitrary<Graph> {
  const pairs = (maxNodes * (maxNodes - 1)) / 2;
  return fc
    .tuple(fc.integer({ min: minNodes, max: maxNodes }), fc.array(weight, { minLength: pairs, maxLength: pairs }))
    .map(([n, weights]) => graphOf(n, (i, j) => weights[(j * (j - 1)) / 2 + i]!));
}
