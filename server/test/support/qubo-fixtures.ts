// Shared fixtures for the QUBO tests: the contract's 4-variable example (inline and as a .qubo file), seeded
// random matrices, the energy by brute-force enumeration over the dense matrix, and a readable QuboInput.
import { contract } from '../../src/core/contract.ts';
import type { QuboInput } from '../../../contract/src/inputs/qubo/input.ts';
import { createRandom } from '../../src/maxcut/solvers/random.ts';

type Operation = {
  requestBody: { content: Record<string, { examples: Record<string, { value: { file: string } }> }> };
};
const upload = contract.paths['/data_file']!.post as Operation;

export const EXAMPLE = contract.components.examples.QuboInput!.value as { num_variables: number; q_matrix: number[][] };
/** The contract's upload example: the same QUBO as a qbsolv .qubo file. */
export const EXAMPLE_FILE = upload.requestBody.content['multipart/form-data']!.examples.qubo!.value.file;
export const EXAMPLE_MINIMUM = -11;
export const EXAMPLE_ASSIGNMENT = [1, 0, 0, 1];

/** x^T Q x over the dense matrix, every entry as written. */
export function denseEnergy(q: number[][], x: ArrayLike<number>): number {
  let e = 0;
  for (let i = 0; i < q.length; i++) for (let j = 0; j < q.length; j++) if (x[i] && x[j]) e += q[i]![j]!;
  return e;
}

/** The minimum energy over all 2^n assignments of the dense matrix. */
export function bruteForce(q: number[][]): number {
  const n = q.length;
  let best = Infinity;
  const x = new Uint8Array(n);
  for (let mask = 0; mask < 2 ** n; mask++) {
    for (let i = 0; i < n; i++) x[i] = (mask >>> i) & 1;
    best = Math.min(best, denseEnergy(q, x));
  }
  return best;
}

export type EntryKind = 'integer' | 'fractional' | 'sparse';

/** A seeded random n × n matrix, not symmetric: small integers, fractions, or mostly zeros. */
export function randomMatrix(seed: number, n: number, kind: EntryKind): number[][] {
  const rng = createRandom(seed);
  return Array.from({ length: n }, () =>
    Array.from({ length: n }, () => {
      if (kind === 'integer') return rng.int(21) - 10;
      if (kind === 'fractional') return Math.round((rng.float() * 8 - 4) * 1024) / 1024;
      return rng.float() < 0.7 ? 0 : rng.int(11) - 5;
    }),
  );
}

/** A QuboInput as plain arrays, for readable comparisons. */
export function plain(input: QuboInput) {
  return {
    n: input.n,
    diagonal: Array.from(input.diagonal),
    offsets: Array.from(input.offsets),
    columns: Array.from(input.columns),
    couplings: Array.from(input.couplings),
  };
}

/** The matrix as a .qubo file: every non-zero entry on its own line, diagonal first. */
export function quboText(q: number[][]): string {
  const n = q.length;
  const diagonal: string[] = [];
  const elements: string[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (q[i]![j] === 0) continue;
      (i === j ? diagonal : elements).push(`${i} ${j} ${q[i]![j]}`);
    }
  return [`p qubo 0 ${n} ${diagonal.length} ${elements.length}`, ...diagonal, ...elements].join('\n') + '\n';
}
