// A max-cut JSON data file `{"num_nodes": n, "adj_matrix": [[...], ...]}`, read by the shared streaming reader
// (parse/json-stream.ts) into this sink: both triangles in Float64Arrays grown row by row, then the shape,
// finiteness and symmetry checks (in cache-friendly tiles) and the CSR.
import type { Graph } from './graph.ts';
import { ErrorList, InputError } from '../core/input-error.ts';
import { type JsonMatrixFormat, type MatrixSink, readJsonMatrix } from '../parse/json-stream.ts';
import { FINITE_MESSAGE, rowCountDetail, rowLengthDetail, shapeMessage, SYMMETRIC_MESSAGE } from './inline.ts';
import { maxNodes, tooManyNodes } from './limits.ts';

/** The most nodes a JSON data file may have: an n × n Float64Array must fit in 512 MiB. */
export const MAX_JSON_NODES = Math.floor(Math.sqrt((512 * 1024 * 1024) / 8));

/** Reads the JSON max-cut shape from a stream of bytes. Throws InputError with JSON pointers. */
export function graphFromJsonStream(chunks: AsyncIterable<Uint8Array>): Promise<Graph> {
  return readJsonMatrix(chunks, MAX_CUT_JSON);
}

const MAX_CUT_JSON: JsonMatrixFormat<Graph> = {
  sizeKey: 'num_nodes',
  matrixKey: 'adj_matrix',
  maxSize: MAX_JSON_NODES,
  tooLarge,
  sink: () => new JsonMatrix(),
};

/**
 * The rows read so far. `width` is num_nodes, or row 0's length when num_nodes comes later (-1 until
 * known); entries beyond the width are counted for the shape check but not kept.
 */
class JsonMatrix implements MatrixSink<Graph> {
  /** The rows finished so far: the current row's index. */
  rows = 0;
  /** The entries read so far in the current row: the next entry's column. */
  column = 0;
  private width = -1;
  private rowLengths = new Int32Array(64);
  /** Row 0 while the width is unknown. */
  private row0 = new Float64Array(64);
  /** The strict upper triangle row by row: entry (i, j), i < j, at upperBase(i) + j. */
  private upper = new Float64Array(0);
  /** The strict lower triangle row by row: entry (i, j), j < i, at i(i-1)/2 + j. */
  private lower = new Float64Array(0);
  /** Non-zero entries off the diagonal, per row (the CSR's row sizes once symmetry holds). */
  private degree = new Int32Array(0);
  private rowUpper = 0;
  private rowLower = 0;
  private rowDegree = 0;
  /**
   * A row of another length than the width was read: the matrix will be refused, so the triangles grow no more. A
   * row is a byte or two (`[],`) while its share of the triangles is 8 × width bytes: growing them for rows that
   * hold no entries would let a small file claim gigabytes.
   */
  private short = false;
  private readonly notFinite = new ErrorList();

  /** The matrix starts; `numNodes` is -1 when num_nodes comes after it. */
  start(numNodes: number): void {
    if (numNodes > 0) this.allocate(numNodes);
  }

  /** Sets the width. The triangles grow with the rows read, so a file that only claims a size costs little. */
  private allocate(width: number): void {
    this.width = width;
    this.degree = new Int32Array(width);
    this.upper = new Float64Array(Math.min(width, 1 << 16));
  }

  startRow(): void {
    const r = this.rows;
    const width = this.width;
    this.column = 0;
    this.rowDegree = 0;
    this.rowUpper = upperBase(r, width);
    this.rowLower = (r * (r - 1)) >> 1;
    if (r >= width || this.short) return;
    const full = (width * (width - 1)) / 2;
    if (this.upper.length < this.rowUpper + width) this.upper = grown(this.upper, this.rowUpper + width, full);
    if (this.lower.length < this.rowLower + r) this.lower = grown(this.lower, this.rowLower + r, full);
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
      // num_nodes is not known yet: row 0's length is the width (if not, the shape check fails anyway).
      this.allocate(this.column);
      for (let j = 1; j < this.width; j++) {
        const v = this.row0[j]!;
        this.upper[j - 1] = v;
        if (v !== 0) this.rowDegree++;
      }
      this.row0 = new Float64Array(0);
    }
    if (this.column !== this.width) this.short = true;
    if (r < this.width) this.degree[r] = this.rowDegree;
  }

  /** Notes that the entry about to be added, written `literal`, is not a finite number. */
  notFiniteEntry(literal: string): void {
    this.notFinite.add(`/adj_matrix/${this.rows}/${this.column}`, `${literal} is not a finite number`);
  }

  entry(v: number): void {
    const r = this.rows;
    const c = this.column++;
    const width = this.width;
    if (width < 0) {
      if (c >= MAX_JSON_NODES) throw tooLarge(c + 1, `more than ${MAX_JSON_NODES}`, '/adj_matrix/0');
      if (c === this.row0.length) {
        const grown = new Float64Array(c * 2);
        grown.set(this.row0);
        this.row0 = grown;
      }
      this.row0[c] = v;
      return;
    }
    if (r >= width || c >= width || c === r || this.short) return;
    if (c > r) this.upper[this.rowUpper + c] = v;
    else this.lower[this.rowLower + c] = v;
    if (v !== 0) this.rowDegree++;
  }

  /** The graph of the whole matrix, for num_nodes `n`; throws InputError as graphFromInline does. */
  result(n: number): Graph {
    const shape = new ErrorList();
    if (this.rows !== n) shape.add('/adj_matrix', rowCountDetail(this.rows, n));
    for (let r = 0; r < this.rows; r++) {
      const length = this.rowLengths[r]!;
      if (length !== n) shape.add(`/adj_matrix/${r}`, rowLengthDetail(r, length, n));
    }
    if (shape.total > 0) throw shape.error(shapeMessage(n));
    if (this.notFinite.total > 0) throw this.notFinite.error(FINITE_MESSAGE);
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

/**
 * The error for a graph of `size` nodes (`nodes` as written), more than the JSON format takes, at `pointer`: an edge
 * list is the way for a graph of at most maxNodes nodes, none for a larger one.
 */
function tooLarge(size: number, nodes: string, pointer: string): InputError {
  if (size > maxNodes) return tooManyNodes(nodes, pointer);
  return new InputError(
    `A graph of ${nodes} nodes is too large for the JSON format (at most ${MAX_JSON_NODES} nodes); upload it as an edge list instead (a line "n m", then one line "i j w" per edge).`,
    [
      {
        pointer,
        detail: `${nodes} nodes is more than the ${MAX_JSON_NODES} the JSON format accepts; use an edge list`,
      },
    ],
  );
}

/** Where upper row i starts, less i + 1: entry (i, j) is at upperBase(i, n) + j. */
function upperBase(i: number, n: number): number {
  return i * n - ((i * (i + 3)) >> 1) - 1; // integers below 2^31 for n ≤ MAX_JSON_NODES
}

/** A copy of `array` with room for at least `needed` entries (doubling, at most `full`). */
function grown(array: Float64Array, needed: number, full: number): Float64Array<ArrayBuffer> {
  const copy = new Float64Array(Math.min(full, Math.max(needed, 2 * array.length)));
  copy.set(array);
  return copy;
}
