// A JSON QUBO data file `{"num_variables": n, "q_matrix": [[...], ...]}` read by the shared streaming JSON reader
// (parse/json-stream.ts) into this sink: the diagonal, and W_ij = Q[i][j] + Q[j][i] summed into one upper
// triangle that grows with the rows read (half the memory of keeping both triangles), then the CSR.
import { ErrorList, InputError } from '../core/input-error.ts';
import { MAX_JSON_NODES } from '../maxcut/json-matrix.ts';
import { type JsonMatrixFormat, type MatrixSink, readJsonMatrix } from '../parse/json-stream.ts';
import {
  FINITE_MESSAGE,
  type QuboInput,
  rowCountDetail,
  rowLengthDetail,
  shapeMessage,
  TOTAL_WEIGHT_DETAIL,
  TOTAL_WEIGHT_MESSAGE,
} from './input.ts';
import { maxVariables, tooManyVariables } from './limits.ts';

/** The most variables a JSON data file may have: max cut's limit (the upper triangle then takes 256 MiB). */
export const MAX_JSON_VARIABLES = MAX_JSON_NODES;

/** Reads the JSON QUBO shape from a stream of bytes. Throws InputError with JSON pointers. */
export function quboFromJsonStream(chunks: AsyncIterable<Uint8Array>): Promise<QuboInput> {
  return readJsonMatrix(chunks, QUBO_JSON);
}

const QUBO_JSON: JsonMatrixFormat<QuboInput> = {
  sizeKey: 'num_variables',
  matrixKey: 'q_matrix',
  maxSize: MAX_JSON_VARIABLES,
  tooLarge,
  sink: () => new QuboJsonMatrix(),
};

/**
 * The rows read so far. `width` is num_variables, or row 0's length when num_variables comes later (-1 until
 * known); entries beyond the width are counted for the shape check but not kept.
 */
class QuboJsonMatrix implements MatrixSink<QuboInput> {
  rows = 0;
  column = 0;
  private width = -1;
  private rowLengths = new Int32Array(64);
  /** Row 0 while the width is unknown. */
  private row0 = new Float64Array(64);
  private diagonal = new Float64Array(0);
  /** W over the strict upper triangle row by row: (i, j), i < j, at upperBase(i) + j. */
  private upper = new Float64Array(0);
  private rowUpper = 0;
  /** Σ|Q[i][j]| over the finite entries read. */
  private total = 0;
  /** A row of another length than the width was read: the triangle grows no more (as max cut's JsonMatrix). */
  private short = false;
  private readonly notFinite = new ErrorList();

  start(size: number): void {
    if (size > 0) this.allocate(size);
  }

  /** Sets the width. The triangle grows with the rows read, so a file that only claims a size costs little. */
  private allocate(width: number): void {
    this.width = width;
    this.diagonal = new Float64Array(width);
    this.upper = new Float64Array(Math.min((width * (width - 1)) / 2, 1 << 16));
  }

  startRow(): void {
    const r = this.rows;
    const width = this.width;
    this.column = 0;
    this.rowUpper = upperBase(r, width);
    if (r >= width || this.short) return;
    const needed = this.rowUpper + width;
    if (this.upper.length < needed) {
      const full = (width * (width - 1)) / 2;
      const grown = new Float64Array(Math.min(full, Math.max(needed, 2 * this.upper.length)));
      grown.set(this.upper);
      this.upper = grown;
    }
  }

  endRow(): void {
    const r = this.rows++;
    if (r === this.rowLengths.length) {
      const grown = new Int32Array(r * 2);
      grown.set(this.rowLengths);
      this.rowLengths = grown;
    }
    this.rowLengths[r] = this.column;
    if (this.width < 0) {
      // num_variables is not known yet: row 0's length is the width (if not, the shape check fails anyway).
      const row0 = this.row0;
      this.allocate(this.column);
      if (this.width > 0) this.diagonal[0] = row0[0]!;
      for (let j = 1; j < this.width; j++) this.upper[j - 1] = row0[j]!;
      this.row0 = new Float64Array(0);
    }
    if (this.column !== this.width) this.short = true;
  }

  notFiniteEntry(literal: string): void {
    this.notFinite.add(`/q_matrix/${this.rows}/${this.column}`, `${literal} is not a finite number`);
  }

  entry(v: number): void {
    const r = this.rows;
    const c = this.column++;
    const width = this.width;
    if (Number.isFinite(v)) this.total += Math.abs(v);
    if (width < 0) {
      if (c >= MAX_JSON_VARIABLES) throw tooLarge(c + 1, `more than ${MAX_JSON_VARIABLES}`, '/q_matrix/0');
      if (c === this.row0.length) {
        const grown = new Float64Array(c * 2);
        grown.set(this.row0);
        this.row0 = grown;
      }
      this.row0[c] = v;
      return;
    }
    if (r >= width || c >= width || this.short) return;
    if (c > r) this.upper[this.rowUpper + c] = v;
    else if (c < r)
      this.upper[upperBase(c, width) + r]! += v; // Q[r][c] joins Q[c][r], read in row c
    else this.diagonal[r] = v;
  }

  /** The QUBO of the whole matrix, for num_variables `n`; throws InputError as checkQubo does. */
  result(n: number): QuboInput {
    const shape = new ErrorList();
    if (this.rows !== n) shape.add('/q_matrix', rowCountDetail(this.rows, n));
    for (let r = 0; r < this.rows; r++) {
      const length = this.rowLengths[r]!;
      if (length !== n) shape.add(`/q_matrix/${r}`, rowLengthDetail(r, length, n));
    }
    if (shape.total > 0) throw shape.error(shapeMessage(n));
    if (this.notFinite.total > 0) throw this.notFinite.error(FINITE_MESSAGE);
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

/**
 * The error for a QUBO of `size` variables (`variables` as written), more than the JSON format takes, at `pointer`:
 * a .qubo file is the way for a QUBO of at most maxVariables variables, none for a larger one.
 */
function tooLarge(size: number, variables: string, pointer: string): InputError {
  if (size > maxVariables) return tooManyVariables(variables, pointer);
  return new InputError(
    `A QUBO of ${variables} variables is too large for the JSON format (at most ${MAX_JSON_VARIABLES} variables); upload it as a .qubo file instead (a line "p qubo 0 n nDiagonals nElements", then one line "i j value" per non-zero entry).`,
    [
      {
        pointer,
        detail: `${variables} variables is more than the ${MAX_JSON_VARIABLES} the JSON format accepts; use a .qubo file`,
      },
    ],
  );
}

/** Where upper row i starts, less i + 1: entry (i, j) is at upperBase(i, n) + j. */
function upperBase(i: number, n: number): number {
  return i * n - ((i * (i + 3)) >> 1) - 1; // integers below 2^31 for n ≤ MAX_JSON_VARIABLES
}
