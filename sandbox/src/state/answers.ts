// A job's answers: valid, not good. An input small enough to enumerate (at most `enumerableSize` nodes or variables)
// gets its optimum, found by walking every assignment in Gray-code order (one flip at a time), and `optimal: true`;
// a larger one gets the better of two seeded random assignments and never claims to be optimal. Either way the
// value reported is recomputed from the assignment with the contract's own functions (inputs.ts), so it is exact.
// The values found on the way are kept too, in the order found (the run's progress history, plan.ts): the first
// random assignment's, then each better one the walk (or the second draw) met, each recomputed alike.
import type { Prepared } from './inputs.ts';
import type { Random } from './random.ts';

/** Inputs of at most this many nodes or variables are solved exactly (2^20 flips: milliseconds). */
export const enumerableSize = 20;

/** A better value found, and how far into the search (0: at once, 1: when the answer was found). */
export interface Improvement {
  fraction: number;
  value: number;
}

export interface Solved {
  x: Uint8Array;
  value: number;
  optimal: boolean;
  /** Each better value found, in order: the first assignment's at 0, the answer's last (at 1 when found later). */
  improvements: Improvement[];
  /** Assignments looked at. */
  iterations: number;
}

/** The most improvements of a walk kept: a run's history holds 256 points at most (maxProgressPoints). */
const maxRecords = 256;

const better = (maximise: boolean, a: number, b: number) => (maximise ? a > b : a < b);

function randomAssignment(n: number, random: Random): Uint8Array {
  const x = new Uint8Array(n);
  for (let i = 0; i < n; i++) x[i] = random.int(0, 1);
  return x;
}

/** The assignment of Gray code `code` over `n` entries. */
function grayAssignment(code: number, n: number): Uint8Array {
  const x = new Uint8Array(n);
  for (let i = 0; i < n; i++) x[i] = (code >> i) & 1;
  return x;
}

interface Enumerated {
  x: Uint8Array;
  iterations: number;
  /** The steps at which the walk met a better value, and the Gray codes met (the last is the optimum's). */
  records: { step: number; code: number }[];
}

/** The optimum by enumeration: a cut fixes the last node in part 0 (its mirror image cuts alike). */
function enumerate(input: Prepared): Enumerated {
  const { n, maximise } = input;
  const pairs = new Float64Array(n * n);
  const own = new Float64Array(n);
  input.dense(pairs, own);
  const bits = maximise ? n - 1 : n;
  const x = new Uint8Array(n);
  let value = 0;
  let best = 0;
  let bestCode = 0;
  const records: { step: number; code: number }[] = [];
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
      records.push({ step: k, code: bestCode });
    }
  }
  // Past the bound, the earliest go: the history's last points are the ones nearest the answer.
  return { x: grayAssignment(bestCode, n), iterations: steps, records: records.slice(-maxRecords) };
}

/**
 * The answers to an input, each drawn from the random source it is given (an execution's: its `seed` param's, or
 * the sandbox's); the optimum of an enumerable input is found once, whatever the source.
 */
export function answers(input: Prepared): (random: Random) => Solved {
  let optimum: ReturnType<typeof enumerate> | undefined;
  return (random) => solve(input, random, () => (optimum ??= enumerate(input)));
}

function solve(input: Prepared, random: Random, enumerated: () => Enumerated): Solved {
  const first = randomAssignment(input.n, random);
  const firstValue = input.value(first);
  if (input.n <= enumerableSize) {
    const { x, iterations, records } = enumerated();
    const value = input.value(x);
    const improvements: Improvement[] = [
      { fraction: 0, value: better(input.maximise, firstValue, value) ? value : firstValue },
    ];
    const last = records.at(-1)?.step ?? 1;
    for (const { step, code } of records) {
      // Each recomputed from its assignment, as the answer is: the walk's running sum only found them.
      const found = code === records.at(-1)!.code ? value : input.value(grayAssignment(code, input.n));
      if (better(input.maximise, found, improvements.at(-1)!.value))
        improvements.push({ fraction: step / last, value: found });
    }
    return { x, value, optimal: true, improvements, iterations };
  }
  const second = randomAssignment(input.n, random);
  const secondValue = input.value(second);
  return better(input.maximise, secondValue, firstValue)
    ? {
        x: second,
        value: secondValue,
        optimal: false,
        improvements: [
          { fraction: 0, value: firstValue },
          { fraction: 1, value: secondValue },
        ],
        iterations: 2,
      }
    : {
        x: first,
        value: firstValue,
        optimal: false,
        improvements: [{ fraction: 0, value: firstValue }],
        iterations: 2,
      };
}
