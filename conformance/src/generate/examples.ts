// Inputs of any use case for the generated checks, made from its example without knowing the use case: when
// the example is a size and a square matrix, copies of it along the diagonal with every entry scaled (by
// negative, fractional and zero factors too); otherwise the example alone.
import fc from 'fast-check';
import { repeated, squareShape } from '../inputs.ts';

type Input = Record<string, unknown>;

/** `input` with every entry of its square matrix multiplied by `factor`. */
function scaled(example: Input, input: Input, factor: number): Input {
  const shape = squareShape(example)!;
  const matrix = (input[shape.matrix] as number[][]).map((row) => row.map((x) => x * factor + 0));
  return { ...input, [shape.matrix]: matrix };
}

/** Variants of the example: 1 to `maxCopies` copies, scaled by a factor from -4 to 4 (integers, halves, zero). */
export function exampleArbitrary(example: Input, maxCopies = 3): fc.Arbitrary<Input> {
  if (!squareShape(example)) return fc.constant(structuredClone(example));
  return fc
    .record({
      copies: fc.integer({ min: 1, max: maxCopies }),
      factor: fc.oneof(
        fc.constantFrom(1, -1, 0),
        fc.integer({ min: -8, max: 8 }).map((n) => n / 2),
      ),
    })
    .map(({ copies, factor }) => scaled(example, repeated(example, copies)!, factor));
}
