// A JSON QUBO data file `{"num_variables": n, "q_matrix": [[...], ...]}` read by the shared streaming JSON reader
// (parse/json-stream.ts, which checks the shape and finiteness) into this store: the diagonal, and
// W_ij = Q[i][j] + Q[j][i] summed into one upper triangle that grows with the rows read (half the memory of keeping
// both triangles), then the total weight check and the CSR.
import { InputError } from '../input-error.ts';
import { grown, type JsonMatrixFormat, type MatrixStore, upperBase } from '../read/json-matrix.ts';
import { readJsonMatrix } from '../read/json-stream.ts';
import { QUBO_MATRIX } from './inline.ts';
import { type QuboInput, TOTAL_WEIGHT_DETAIL, TOTAL_WEIGHT_MESSAGE } from './input.ts';

/** Reads the JSON QUBO shape from a stream of bytes. Throws InputError with JSON pointers. */
export function quboFromJsonStream(chunks: AsyncIterable<Uint8Array>): Promise<QuboInput> {
  return readJsonMatrix(chunks, QUBO_JSON);
}

const QUBO_JSON: JsonMatrixFormat<QuboInput> = {
  ...QUBO_MATRIX,
  noun: 'QUBO',
  units: 'variables',
  textFormat: 'a .qubo file',
  textLayout: 'a line "p qubo 0 n nDiagonals nElements", then one line "i j value" per non-zero entry',
  store: () => new QuboJsonMatrix(),
};

/** The diagonal and W over the strict upper triangle, grown row by row, and Σ|Q[i][j]|. */
class QuboJsonMatrix implements MatrixStore<QuboInput> {
  private width = 0;
  private diagonal = new Float64Array(0);
  /** W over the strict upper triangle row by row: (i, j), i < j, at upperBase(i) + j. */
  private upper = new Float64Array(0);
  /** Where the current row starts in `upper`. */
  private rowUpper = 0;
  /** Σ|Q[i][j]| over the finite entries read. */
  private total = 0;

  allocate(width: number): void {
    this.width = width;
    this.diagonal = new Float64Array(width);
    this.upper = new Float64Array(Math.min((width * (width - 1)) / 2, 1 << 16));
  }

  startRow(r: number): void {
    const width = this.width;
    this.rowUpper = upperBase(r, width);
    const needed = this.rowUpper + width;
    if (this.upper.length < needed) this.upper = grown(this.upper, needed, (width * (width - 1)) / 2);
  }

  entry(r: number, c: number, v: number): void {
    if (Number.isFinite(v)) this.total += Math.abs(v);
    if (c > r) this.upper[this.rowUpper + c] = v;
    else if (c < r)
      this.upper[upperBase(c, this.width) + r]! += v; // Q[r][c] joins Q[c][r], read in row c
    else this.diagonal[r] = v;
  }

  /** The QUBO, once the absolute values sum to a finite number; throws InputError as checkQubo does. */
  result(n: number): QuboInput {
    if (!Number.isFinite(this.total))
      throw new InputError(TOTAL_WEIGHT_MESSAGE, [{ pointer: '/q_matrix', detail: TOTAL_WEIGHT_DETAIL }]);
    return this.build(n);
  }

  /** The upper-triangle CSR of the non-zero W_ij: counted, then filled, row by row in increasing j. */
  private build(n: number): QuboInput {
    const upper = this.upper;
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const base = upperBase(i, n);
      let count = 0;
      for (let j = i + 1; j < n; j++) if (upper[base + j] !== 0) count++;
      offsets[i + 1] = offsets[i]! + count;
    }
    const size = offsets[n]!;
    const columns = new Int32Array(size);
    const couplings = new Float64Array(size);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const base = upperBase(i, n);
      for (let j = i + 1; j < n; j++) {
        const w = upper[base + j]!;
        if (w !== 0) {
          columns[k] = j;
          couplings[k++] = w;
        }
      }
    }
    return { n, diagonal: this.diagonal, offsets, columns, couplings };
  }
}
