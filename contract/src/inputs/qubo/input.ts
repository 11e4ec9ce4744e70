// The prepared QUBO: what every reader (inline, JSON data file, .qubo file) produces and every solver reads. The
// energy xᵀQx only needs the diagonal and, per pair i < j, W_ij = Q[i][j] + Q[j][i], so the two triangles are
// folded into one upper-triangle CSR of the non-zero couplings, in typed arrays (cheap to encode and to clone).

export interface QuboInput {
  /** Number of variables, numbered 0..n-1. */
  readonly n: number;
  /** Q[i][i], the weight of x_i alone. */
  readonly diagonal: Float64Array;
  /** Length n + 1: the couplings of variable i with j > i are columns/couplings[offsets[i] .. offsets[i + 1] - 1]. */
  readonly offsets: Int32Array;
  /** The j of each coupling, increasing within a row. */
  readonly columns: Int32Array;
  /** W_ij = Q[i][j] + Q[j][i] (finite, non-zero). */
  readonly couplings: Float64Array;
}

/** The energy xᵀQx of an assignment (one 0/1 entry per variable): Σ Q[i][i] x_i + Σ_{i<j} W_ij x_i x_j. */
export function energy(input: QuboInput, x: ArrayLike<number>): number {
  const { n, diagonal, offsets, columns, couplings } = input;
  let e = 0;
  for (let i = 0; i < n; i++) {
    if (x[i] !== 1) continue;
    e += diagonal[i]!;
    for (let k = offsets[i]!; k < offsets[i + 1]!; k++) if (x[columns[k]!] === 1) e += couplings[k]!;
  }
  return e + 0; // never -0
}

/** Why a QUBO is refused though every entry is finite: |Q| sums past a double, and so could an energy. */
export const TOTAL_WEIGHT_MESSAGE =
  'The absolute values of the entries of Q must sum to a finite number (below about 1.8e308), or an energy could not be represented.';
export const TOTAL_WEIGHT_DETAIL = 'the absolute values of the entries sum past the largest double';
