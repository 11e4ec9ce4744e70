// QUBO inputs for qubo_semantics: small matrices that are not symmetric, with integer, fractional, negative
// and zero entries (so sparse and dense ones both come up).
import fc from 'fast-check';
import { type Qubo, quboOf } from '../qubo.ts';

const entry = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: -10, max: 10 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2000, max: 2000 }).map((n) => n / 100) },
);

/** QUBOs of `min` to `max` variables. */
export function quboArbitrary(min: number, max: number): fc.Arbitrary<Qubo> {
  return fc
    .integer({ min, max })
    .chain((n) =>
      fc
        .array(entry, { minLength: n * n, maxLength: n * n })
        .map((entries) => quboOf(n, (i, j) => entries[i * n + j]!)),
    );
}
