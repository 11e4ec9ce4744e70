// The inline QUBO (`{num_variables, q_matrix}`, already checked against the JSON Schema) to a QuboInput: the
// checks the schema cannot express (square, finite entries, a finite total), then the upper-triangle CSR.
import { ErrorList, InputError } from '../input-error.ts';
import { checkInlineShape, finiteMessage, notFiniteDetail, type SquareMatrixForm } from '../read/square-matrix.ts';
import { type QuboInput, TOTAL_WEIGHT_DETAIL, TOTAL_WEIGHT_MESSAGE } from './input.ts';
import { maxVariables, tooManyVariables } from './limits.ts';

export interface QuboInlineInput {
  num_variables: number;
  q_matrix: number[][];
}

/** The members of a QUBO's matrix, inline or in a JSON data file, and the limit on its size. */
export const QUBO_MATRIX: SquareMatrixForm = {
  sizeKey: 'num_variables',
  matrixKey: 'q_matrix',
  maxSize: maxVariables,
  tooMany: tooManyVariables,
};

/** An inline QUBO that passed every check, its couplings not gathered yet (a job storing the JSON text needs none). */
export interface CheckedQubo {
  n: number;
  /** Non-zero couplings W_ij, j > i: the prepared input's `columns.length`. */
  couplings: number;
  /** The prepared QuboInput, built on each call. */
  input(): QuboInput;
}

/**
 * Checks a schema-valid inline QUBO. Throws InputError when q_matrix is not num_variables × num_variables,
 * holds a non-finite number (JSON.parse reads 1e400 as Infinity), or its entries' absolute values sum past a
 * double. One sweep checks the entries, fills the diagonal and sizes the CSR's rows; a second, when `input()` is
 * called, fills them.
 */
export function checkQubo(body: QuboInlineInput): CheckedQubo {
  const n = body.num_variables;
  const matrix = body.q_matrix;
  checkInlineShape(QUBO_MATRIX, n, matrix);
  const diagonal = new Float64Array(n);
  const offsets = rowSizes(matrix, n, diagonal);
  return { n, couplings: offsets[n]!, input: () => ({ n, diagonal, offsets, ...couplings(matrix, n, offsets) }) };
}

// Separate functions, so that the engine optimises each loop on its own.

/**
 * Checks every entry in row order, fills `diagonal` and returns the CSR offsets (the non-zero W_ij, j > i, per
 * row). Throws for a non-finite entry or a total |Q| past a double.
 */
function rowSizes(matrix: number[][], n: number, diagonal: Float64Array): Int32Array {
  const notFinite = new ErrorList();
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    let count = 0;
    for (let j = 0; j < n; j++) {
      const v = row[j]!;
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        notFinite.add(`/q_matrix/${i}/${j}`, notFiniteDetail(v));
        continue;
      }
      total += Math.abs(v);
      if (j === i) diagonal[i] = v;
      else if (j > i && v + matrix[j]![i]! !== 0) count++; // a non-finite [j][i] is reported in its own row
    }
    offsets[i + 1] = offsets[i]! + count;
  }
  if (notFinite.total > 0) throw notFinite.error(finiteMessage(QUBO_MATRIX));
  if (!Number.isFinite(total))
    throw new InputError(TOTAL_WEIGHT_MESSAGE, [{ pointer: '/q_matrix', detail: TOTAL_WEIGHT_DETAIL }]);
  return offsets;
}

/** The couplings W_ij = Q[i][j] + Q[j][i], j > i, non-zero only, row by row in increasing j. */
function couplings(
  matrix: number[][],
  n: number,
  offsets: Int32Array,
): { columns: Int32Array; couplings: Float64Array } {
  const size = offsets[n]!;
  const columns = new Int32Array(size);
  const weights = new Float64Array(size);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    for (let j = i + 1; j < n; j++) {
      const w = row[j]! + matrix[j]![i]!;
      if (w !== 0) {
        columns[k] = j;
        weights[k++] = w;
      }
    }
  }
  return { columns, couplings: weights };
}
