// Max-cut inputs for the generated checks: small symmetric matrices with integer, fractional, negative
// and zero weights (so sparse and dense graphs both come up).
import fc from 'fast-check';
import { type Graph, graphOf } from '../maxcut.ts';

const weight = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: -10, max: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2000, max: 2000 }).map((n) => n / 100) },
);

/** Graphs of `minNodes` to `maxNodes` nodes. */
export function graphArbitrary(minNodes: number, maxNodes: number): fc.Arbitrary<Graph> {
  return fc.integer({ min: minNodes, max: maxNodes }).chain((n) =>
    fc.array(weight, { minLength: (n * (n - 1)) / 2, maxLength: (n * (n - 1)) / 2 }).map((weights) => {
      let k = 0;
      return graphOf(n, () => weights[k++]!);
    }),
  );
}
