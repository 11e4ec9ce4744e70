// A job's answers: valid, not good. An input small enough to enumerate (at most `enumerableSize` nodes or variables)
// gets its optimum, found by walking every assignment in Gray-code order (one flip at a time), and `optimal: true`;
// a larger one gets the better of two seeded random assignments and never claims to be optimal. Either way the
// value reported is recomputed from the assignment with the contract's own functions (inputs.ts), so it is exact.
import type { Prepared } from './inputs.ts';
import type { Random } from './random.ts';

/** Inputs of at most this many nodes or variables are solved exactly (2^20 flips: milliseconds). */
export const enumerableSize = 20;

export interface Solved {
  x: Uint8Array;
  value: number;
  optimal: boolean;
  /** The value of a first, worse or equal assignment: what the run shows as its best before it ends. */
  firstValue: number;
  /** Assignments looked at. */
  iterations: number;
}

const better = (maximise: boolean, a: number, b: number) => (maximise ? a > b : a < b);

function randomAssignment(n: number, random: Random): Uint8Array {
  const x = new Uint8Array(n);
  for (let i = 0; i < n; i++) x[i] = random.int(0, 1);
  return x;
}

/** The optimum by enumeration: a cut fixes the last node in part 0 (its mirror image cuts alike). */
function enumerate(input: Prepared): { x: Uint8Array; iterations: number } {
  const { n, maximise } = input;
  const pairs = new Float64Array(n * n);
  const own = new Float64Array(n);
  input.dense(pairs, own);
  const bits = maximise ? n - 1 : n;
  const x = new Uint8Array(n);
  let value = 0;
  let best = 0;
  let bestCode = 0;
  const steps = 2 ** bits;
  for (let k = 1; k < steps; k++) {
    const i = 31 - Math.clz32(k & -k);
    let delta = 0;
    if (maximise) {
      for (let j = 0; j < n; j++) delta += x[i] === x[j] ? pairs[i * n + j]! : -pairs[i * n + j]!;
    } else {
      let field = own[i]!;
      for (let j = 0; j < n; j++) if (j !== i && x[j] === 1) field += pairs[i * n + j]!;
      delta = x[i] === 1 ? -field : field;
    }
    x[i] = 1 - x[i]!;
    value += delta;
    if (better(maximise, value, best)) {
      best = value;
      bestCode = k ^ (k >> 1);
    }
  }
  const found = new Uint8Array(n);
  for (let i = 0; i < bits; i++) found[i] = (bestCode >> i) & 1;
  return { x: found, iterations: steps };
}

/**
 * The answers to an input, each drawn from the random source it is given (an execution's: its `seed` param's, or
 * the sandbox's); the optimum of an enumerable input is found once, whatever the source.
 */
export function answers(input: Prepared): (random: Random) => Solved {
  let optimum: ReturnType<typeof enumerate> | undefined;
  return (random) => solve(input, random, () => (optimum ??= enumerate(input)));
}

function solve(input: Prepared, random: Random, enumerated: () => ReturnType<typeof enumerate>): Solved {
  const first = randomAssignment(input.n, random);
  const firstValue = input.value(first);
  if (input.n <= enumerableSize) {
    const { x, iterations } = enumerated();
    const value = input.value(x);
    const shown = better(input.maximise, firstValue, value) ? value : firstValue;
    return { x, value, optimal: true, firstValue: shown, iterations };
  }
  const second = randomAssignment(input.n, random);
  const secondValue = input.value(second);
  return better(input.maximise, secondValue, firstValue)
    ? { x: second, value: secondValue, optimal: false, firstValue, iterations: 2 }
    : { x: first, value: firstValue, optimal: false, firstValue, iterations: 2 };
}
