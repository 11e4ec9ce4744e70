// The sandbox's one source of chance, seeded (`--seed`): ids, tokens, timings and answers are drawn from it in the
// order requests come, so one seed and one sequence of requests give the same answers run after run. pure-rand's
// xoroshiro128+ (the generator fast-check runs on); without a seed, one is drawn at start.
import { randomInt } from 'node:crypto';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export interface Random {
  /** The seed it started from (printed at start, so a run can be repeated). */
  readonly seed: number;
  /** An integer in [from, to]. */
  int(from: number, to: number): number;
  /** A number in [0, 1). */
  float(): number;
  /** `length` characters of `alphabet`. */
  text(alphabet: string, length: number): string;
}

/** The largest seed taken: a 32-bit signed integer, as pure-rand's generators take it. */
export const maxSeed = 2 ** 31 - 1;

export function createRandom(seed: number = randomInt(maxSeed)): Random {
  const rng = xoroshiro128plus(seed);
  const int = (from: number, to: number) => uniformInt(rng, from, to);
  return {
    seed,
    int,
    float: () => uniformFloat64(rng),
    text: (alphabet, length) => Array.from({ length }, () => alphabet[int(0, alphabet.length - 1)]).join(''),
  };
}
