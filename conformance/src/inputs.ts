// Inputs made from a use case's example without knowing the use case: a data file of it in the JSON format
// every use case accepts, with bytes of this run's own, and, when the example is a size and a square matrix
// of that size (as max-cut's and QUBO's are), larger inputs of copies of it along the diagonal.
import { createHash } from 'node:crypto';

type Input = Record<string, unknown>;

/** Where an example holds its square matrix and the integer members that give its size. */
export interface SquareShape {
  matrix: string;
  sizes: string[];
  n: number;
}

/** The example's square-matrix shape: one member holding n rows of n numbers, and members equal to n. */
export function squareShape(example: Input): SquareShape | undefined {
  const matrices = Object.entries(example).filter(
    ([, v]) =>
      Array.isArray(v) &&
      v.length > 0 &&
      v.every((row) => Array.isArray(row) && row.length === v.length && row.every((x) => typeof x === 'number')),
  );
  if (matrices.length !== 1) return undefined;
  const [matrix, rows] = matrices[0]! as [string, number[][]];
  const sizes = Object.entries(example)
    .filter(([, v]) => v === rows.length)
    .map(([k]) => k);
  return sizes.length ? { matrix, sizes, n: rows.length } : undefined;
}

/** The size of an input of the example's shape (its number of rows), or undefined. */
export function sizeOf(example: Input, input: Input = example): number | undefined {
  const shape = squareShape(example);
  return shape ? (input[shape.matrix] as unknown[] | undefined)?.length : undefined;
}

/** The example with `matrix` as its square matrix, and its sizes set to the matrix's. */
export function withMatrix(example: Input, matrix: number[][]): Input {
  const shape = squareShape(example)!;
  return { ...example, ...Object.fromEntries(shape.sizes.map((k) => [k, matrix.length])), [shape.matrix]: matrix };
}

/** Square matrices along the diagonal of one, zero elsewhere: parts that do not interact. */
export function blockDiagonal(blocks: readonly number[][][]): number[][] {
  const size = blocks.reduce((n, block) => n + block.length, 0);
  const matrix = Array.from({ length: size }, () => Array<number>(size).fill(0));
  let at = 0;
  for (const block of blocks) {
    block.forEach((row, i) => row.forEach((value, j) => (matrix[at + i]![at + j] = value)));
    at += block.length;
  }
  return matrix;
}

/**
 * `copies` copies of the example along the diagonal of a matrix `copies` times as wide, zero elsewhere (an
 * input made of independent copies of a valid one is valid in any use case of this shape); undefined when the
 * example is not a size and a square matrix.
 */
export function repeated(example: Input, copies: number): Input | undefined {
  const shape = squareShape(example);
  if (!shape) return undefined;
  return withMatrix(example, blockDiagonal(Array(copies).fill(example[shape.matrix])));
}

/**
 * `copies` copies of the example in every block of a matrix `copies` times as wide, each block off the
 * diagonal scaled by a factor from -2 to 2 that is the same for blocks (a, b) and (b, a) (so a symmetric
 * example stays symmetric): the copies are coupled, so no reduction takes the input apart.
 */
export function coupled(example: Input, copies: number): Input | undefined {
  const shape = squareShape(example);
  if (!shape) return undefined;
  const { n } = shape;
  const block = example[shape.matrix] as number[][];
  const factor = (a: number, b: number) => (a === b ? 1 : ((a * b * 3 + (a + b) * 7) % 5) - 2);
  const size = n * copies;
  const matrix = Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => block[i % n]![j % n]! * factor(Math.floor(i / n), Math.floor(j / n)) + 0),
  );
  return withMatrix(example, matrix);
}

/** An input a heuristic keeps working on until its time limit: about 60 rows of coupled copies, or else the example. */
export function longInput(example: Input): Input {
  const n = squareShape(example)?.n;
  return (n && coupled(example, Math.max(1, Math.ceil(60 / n)))) || structuredClone(example);
}

/** About the largest input of copies of the example whose JSON is at most `bytes` bytes, or the example itself. */
export function largeInput(example: Input, bytes: number): Input {
  const n = squareShape(example)?.n;
  if (!n) return structuredClone(example);
  // Mostly zeros ("0," each): measure one guess, then scale to the target, then step down until it fits.
  const guess = Math.max(1, Math.floor(Math.sqrt(bytes / 4) / n));
  const measured = Buffer.byteLength(JSON.stringify(repeated(example, guess)));
  for (let copies = Math.floor(guess * Math.sqrt((0.97 * bytes) / measured)); copies > 1; copies--) {
    const input = repeated(example, copies)!;
    if (Buffer.byteLength(JSON.stringify(input)) <= bytes) return input;
  }
  return structuredClone(example);
}

/**
 * The input as a JSON data file whose bytes (so its SHA-1, its identifier) are unique to `salt`: the JSON,
 * then a line of spaces and tabs spelling the salt's hash in binary (whitespace JSON ignores).
 */
export function jsonDataFile(input: Input, salt: string): string {
  const bits = [...createHash('sha1').update(salt).digest().subarray(0, 6)]
    .map((byte) => byte.toString(2).padStart(8, '0'))
    .join('');
  return `${JSON.stringify(input)}\n${bits.replaceAll('0', ' ').replaceAll('1', '\t')}\n`;
}
