// Inputs of any use case for the generated checks, made from its example without knowing the use case: when
// the example is a size and a square matrix, copies of it along the diagonal with every entry scaled (by
// negative, fractional and zero factors too), or a matrix of up to 16 rows of weights of its own, symmetric and
// without a diagonal where the example's is (small enough for a semantics check to enumerate its answers);
// otherwise the example alone. Its corner cases, a single row and the example times zero, come first.
import fc from 'fast-check';
import { repeated, squareShape, withMatrix } from '../inputs.ts';

type Input = Record<string, unknown>;

/** A weight: often zero (no edge), mostly small integers of either sign, sometimes fractional. */
export const weight = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 4, arbitrary: fc.integer({ min: -10, max: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2000, max: 2000 }).map((n) => n / 100) },
);

const matrixOf = (example: Input) => example[squareShape(example)!.matrix] as number[][];

/** `input` with every entry of its square matrix multiplied by `factor`. */
function scaled(example: Input, input: Input, factor: number): Input {
  return withMatrix(
    example,
    matrixOf(input).map((row) => row.map((x) => x * factor + 0)),
  );
}

/**
 * Matrices of 1 to 16 rows of generated weights, symmetric if the example's is, with a diagonal only if it has one.
 * The row count and a 16 × 16 grid of weights are drawn apart (no `.chain`) and a matrix of n rows is the grid's top
 * left n × n: fast-check shrinks a failing matrix by dropping its last rows and columns, the rest kept, then by
 * zeroing weights.
 */
function ownWeights(example: Input): fc.Arbitrary<Input> {
  const matrix = matrixOf(example);
  const symmetric = matrix.every((row, i) => row.every((x, j) => x === matrix[j]![i]));
  const diagonal = matrix.some((row, i) => row[i] !== 0);
  const most = 16;
  return fc
    .tuple(fc.integer({ min: 1, max: most }), fc.array(weight, { minLength: most * most, maxLength: most * most }))
    .map(([n, grid]) =>
      withMatrix(
        example,
        Array.from({ length: n }, (_, i) =>
          Array.from({ length: n }, (_, j) =>
            i === j && !diagonal ? 0 : symmetric && j < i ? grid[j * most + i]! : grid[i * most + j]!,
          ),
        ),
      ),
    );
}

/**
 * Variants of the example: 1 to `maxCopies` copies, scaled by a factor from -4 to 4 (integers, halves, zero), or
 * weights of their own.
 */
export function exampleArbitrary(example: Input, maxCopies = 3): fc.Arbitrary<Input> {
  if (!squareShape(example)) return fc.constant(structuredClone(example));
  const copies = fc
    .record({
      copies: fc.integer({ min: 1, max: maxCopies }),
      factor: fc.oneof(
        fc.constantFrom(1, -1, 0),
        fc.integer({ min: -8, max: 8 }).map((n) => n / 2),
      ),
    })
    .map(({ copies, factor }) => scaled(example, repeated(example, copies)!, factor));
  return fc.oneof(copies, ownWeights(example));
}

/** The corner cases of those variants: the example's first entry alone (one row), and the example times zero. */
export function exampleCorners(example: Input): Input[] {
  if (!squareShape(example)) return [];
  return [withMatrix(example, [[matrixOf(example)[0]![0]!]]), scaled(example, example, 0)];
}
