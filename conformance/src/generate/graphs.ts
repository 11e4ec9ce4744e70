// Max-cut inputs where valid bodies of that use case are wanted by name (the fuzz suite, the mutants test):
// small symmetric matrices with integer, fractional, negative and zero weights (sparse and dense graphs).
import fc from 'fast-check';
import { type Graph, graphOf } from '../maxcut.ts';
import { weight } from './examples.ts';

/** Graphs of `minNodes` to `maxNodes` nodes. */
export function graphArbitrary(minNodes: number, maxNodes: number): fc.Arbitrary<Graph> {
  return fc.integer({ min: minNodes, max: maxNodes }).chain((n) =>
    fc.array(weight, { minLength: (n * (n - 1)) / 2, maxLength: (n * (n - 1)) / 2 }).map((weights) => {
      let k = 0;
      return graphOf(n, () => weights[k++]!);
    }),
  );
}
