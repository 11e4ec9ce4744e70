// A max-cut JSON data file `{"num_nodes": n, "adj_matrix": [[...], ...]}`, read by the shared streaming reader
// (parse/json-stream.ts, which checks the shape and finiteness) into this store: both triangles in Float64Arrays
// grown row by row, then the symmetry check (in cache-friendly tiles) and the CSR.
import type { Graph } from './graph.ts';
import { ErrorList, type InputError } from '../input-error.ts';
import { grown, type JsonMatrixFormat, type MatrixStore, upperBase } from '../read/json-matrix.ts';
import { readJsonMatrix } from '../read/json-stream.ts';
import { MAX_CUT_MATRIX, SYMMETRIC_MESSAGE } from './inline.ts';

/** Reads the JSON max-cut shape from a stream of bytes. Throws InputError with JSON pointers. */
export function graphFromJsonStream(chunks: AsyncIterable<Uint8Array>): Promise<Graph> {
  return readJsonMatrix(chunks, MAX_CUT_JSON);
}

const MAX_CUT_JSON: JsonMatrixFormat<Graph> = {
  ...MAX_CUT_MATRIX,
  noun: 'graph',
  units: 'nodes',
  textFormat: 'an edge list',
  textLayout: 'a line "n m", then one line "i j w" per edge',
  store: () => new JsonMatrix(),
};

/** Both triangles, grown row by row, and each row's non-zero entries off the diagonal (the diagonal is not kept). */
class JsonMatrix implements MatrixStore<Graph> {
  private width = 0;
  /** The strict upper triangle row by row: entry (i, j), i < j, at upperBase(i) + j. */
  private upper = new Float64Array(0);
  /** The strict lower triangle row by row: entry (i, j), j < i, at i(i-1)/2 + j. */
  private lower = new Float64Array(0);
  /** Non-zero entries off the diagonal, per row (the CSR's row sizes once symmetry holds). */
  private degree = new Int32Array(0);
  /** Where the current row starts in each triangle. */
  private rowUpper = 0;
  private rowLower = 0;

  allocate(width: number): void {
    this.width = width;
    this.degree = new Int32Array(width);
    this.upper = new Float64Array(Math.min(width, 1 << 16));
  }

  startRow(r: number): void {
    const width = this.width;
    this.rowUpper = upperBase(r, width);
    this.rowLower = (r * (r - 1)) >> 1;
    const full = (width * (width - 1)) / 2;
    if (this.upper.length < this.rowUpper + width) this.upper = grown(this.upper, this.rowUpper + width, full);
    if (this.lower.length < this.rowLower + r) this.lower = grown(this.lower, this.rowLower + r, full);
  }

  entry(r: number, c: number, v: number): void {
    if (c > r) this.upper[this.rowUpper + c] = v;
    else if (c < r) this.lower[this.rowLower + c] = v;
    else return; // a self-loop never crosses a cut
    if (v !== 0) this.degree[r]!++;
  }

  /** The graph, once the matrix is symmetric; throws InputError as graphFromInline does. */
  result(n: number): Graph {
    if (!this.symmetric(n)) throw this.asymmetryError(n);
    return this.build(n);
  }

  /** Whether upper (i, j) equals lower (j, i) everywhere, compared in 64 × 64 tiles to stay in cache. */
  private symmetric(n: number): boolean {
    const { upper, lower } = this;
    const tile = 64;
    for (let i0 = 0; i0 < n; i0 += tile) {
      const i1 = Math.min(n, i0 + tile);
      for (let j0 = i0; j0 < n; j0 += tile) {
        const j1 = Math.min(n, j0 + tile);
        for (let i = i0; i < i1; i++) {
          const base = upperBase(i, n);
          for (let j = Math.max(j0, i + 1); j < j1; j++) {
            if (upper[base + j] !== lower[((j * (j - 1)) >> 1) + i]) return false;
          }
        }
      }
    }
    return true;
  }

  /** The error for an asymmetric matrix: pointers at the upper entries, in the order inline.ts lists them. */
  private asymmetryError(n: number): InputError {
    const { upper, lower } = this;
    const asymmetric = new ErrorList();
    for (let i = 1; i < n; i++) {
      const base = (i * (i - 1)) >> 1;
      for (let j = 0; j < i; j++) {
        const u = upper[upperBase(j, n) + i]!;
        const v = lower[base + j]!;
        if (u !== v)
          asymmetric.add(`/adj_matrix/${j}/${i}`, `adj_matrix[${j}][${i}] = ${u} but adj_matrix[${i}][${j}] = ${v}`);
      }
    }
    return asymmetric.error(SYMMETRIC_MESSAGE);
  }

  /** The CSR, row i being lower row i then upper row i: neighbours in increasing order, read in sequence. */
  private build(n: number): Graph {
    const { upper, lower, degree } = this;
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + degree[i]!;
    const size = offsets[n]!;
    const targets = new Int32Array(size);
    const weights = new Float64Array(size);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const lowerRow = (i * (i - 1)) >> 1;
      for (let j = 0; j < i; j++) {
        const w = lower[lowerRow + j]!;
        if (w !== 0) {
          targets[k] = j;
          weights[k++] = w;
        }
      }
      const upperRow = upperBase(i, n);
      for (let j = i + 1; j < n; j++) {
        const w = upper[upperRow + j]!;
        if (w !== 0) {
          targets[k] = j;
          weights[k++] = w;
        }
      }
    }
    return { n, edges: size / 2, offsets, targets, weights };
  }
}
