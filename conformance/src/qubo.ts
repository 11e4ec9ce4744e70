// Reference computations for the QUBO use case: the minimum by enumeration (by the energy xᵀQx of an assignment,
// as @jes/contract computes it), and an input as qbsolv's .qubo text (the data-file format the contract describes).
import { energy } from '@jes/contract';

export interface Qubo {
  num_variables: number;
  q_matrix: number[][];
}

/** The minimum energy by enumerating all 2ⁿ assignments. For at most ~20 variables (16 gives 65,536). */
export function bruteForceQubo(matrix: number[][]): number {
  const n = matrix.length;
  let best = Infinity;
  for (let mask = 0; mask < 2 ** n; mask++) {
    const assignment = Array.from({ length: n }, (_, i) => (mask >> i) & 1);
    best = Math.min(best, energy(matrix, assignment));
  }
  return best;
}

/**
 * The input as a .qubo file: a comment, `p qubo 0 n nDiagonals nElements`, then the non-zero diagonal
 * entries `i i value` and the non-zero others `i j value`, 0-based, each entry once.
 */
export function quboFile(input: Qubo, comment = 'written by the conformance suite'): string {
  const diagonal: string[] = [];
  const elements: string[] = [];
  input.q_matrix.forEach((row, i) =>
    row.forEach((value, j) => {
      if (value !== 0) (i === j ? diagonal : elements).push(`${i} ${j} ${value}`);
    }),
  );
  const header = `p qubo 0 ${input.num_variables} ${diagonal.length} ${elements.length}`;
  return [`c ${comment}`, header, ...diagonal, ...elements, ''].join('\n');
}

/** An n-variable QUBO whose entries are `value(i, j)` (every entry: the matrix need not be symmetric). */
export function quboOf(n: number, value: (i: number, j: number) => number): Qubo {
  return {
    num_variables: n,
    q_matrix: Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => value(i, j))),
  };
}
