// The matrix of a JSON data file as json-stream.ts reads it: the bookkeeping of its rows every use case shares (the
// width, known up front or from row 0, each row's length, the entries that are not finite, the shape check at the
// end) in MatrixRows, which hands the entries in range to the use case's MatrixStore: its storage, checks and build.
import { ErrorList, InputError, jsonPointer } from '../input-error.ts';
import { checkShape, finiteMessage, type SquareMatrixForm } from './square-matrix.ts';

/** The largest size a JSON data file may have: an n × n Float64Array must fit in 512 MiB. */
export const MAX_JSON_SIZE = Math.floor(Math.sqrt((512 * 1024 * 1024) / 8));

/** A use case's JSON data file: its members, the words of its refusal of a size too large for JSON, its store. */
export interface JsonMatrixFormat<T> extends SquareMatrixForm {
  /** What the matrix is and what its size counts, for messages: `graph`, `nodes`. */
  readonly noun: string;
  readonly units: string;
  /** The use case's text format, for a size too large for JSON (`an edge list`), and its layout. */
  readonly textFormat: string;
  readonly textLayout: string;
  store(): MatrixStore<T>;
}

/** Where a use case keeps the entries in range (row and column below the width), and what they become. */
export interface MatrixStore<T> {
  /** The width is known: the size member's value, or row 0's length when the size comes after the matrix. */
  allocate(width: number): void;
  /** Row r (below the width) starts: room for it. Storage grows with the rows read, so a claimed size costs little. */
  startRow(r: number): void;
  /** Entry (r, c), both below the width, after startRow(r); row by row, in column order. */
  entry(r: number, c: number, v: number): void;
  /** The matrix for size `n`, once every row has n entries, all finite: the use case's own checks, then its build. */
  result(n: number): T;
}

/**
 * The rows read so far. `width` is the size, or row 0's length when the size comes later (-1 until known, row 0
 * buffered meanwhile); entries beyond the width are counted for the shape check but not stored.
 */
export class MatrixRows<T> {
  /** The rows finished so far: the current row's index. */
  rows = 0;
  /** The entries read so far in the current row: the next entry's column. */
  column = 0;
  private width = -1;
  private rowLengths = new Int32Array(64);
  /** Row 0 while the width is unknown. */
  private row0 = new Float64Array(64);
  /**
   * A row of another length than the width was read: the matrix will be refused, so the store grows no more. A row
   * is a byte or two (`[],`) while its share of the store is 8 × width bytes: growing it for rows that hold no
   * entries would let a small file claim gigabytes.
   */
  private short = false;
  private readonly notFinite = new ErrorList();
  private readonly format: JsonMatrixFormat<T>;
  private readonly store: MatrixStore<T>;

  constructor(format: JsonMatrixFormat<T>) {
    this.format = format;
    this.store = format.store();
  }

  /** The matrix starts; `size` is -1 when the size member comes after it. */
  start(size: number): void {
    if (size > 0) this.allocate(size);
  }

  private allocate(width: number): void {
    this.width = width;
    this.store.allocate(width);
  }

  startRow(): void {
    this.column = 0;
    const r = this.rows;
    if (r < this.width && !this.short) this.store.startRow(r);
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
      // The size is not known yet: row 0's length is the width (if not, the shape check fails anyway).
      const row0 = this.row0;
      this.allocate(this.column);
      if (this.width > 0) this.store.startRow(0);
      for (let c = 0; c < this.width; c++) this.store.entry(0, c, row0[c]!);
      this.row0 = new Float64Array(0);
    }
    if (this.column !== this.width) this.short = true;
  }

  /** Notes that the entry about to be added, written `literal`, is not a finite number. */
  notFiniteEntry(literal: string): void {
    this.notFinite.add(jsonPointer(this.format.matrixKey, this.rows, this.column), `${literal} is not a finite number`);
  }

  entry(v: number): void {
    const c = this.column++;
    const width = this.width;
    if (width < 0) this.bufferRow0(c, v);
    else if (this.rows < width && c < width && !this.short) this.store.entry(this.rows, c, v);
  }

  /** Keeps row 0's entry `c` while the width is unknown (a call of its own: entry stays small enough to inline). */
  private bufferRow0(c: number, v: number): void {
    if (c >= MAX_JSON_SIZE)
      throw tooLarge(this.format, c + 1, `more than ${MAX_JSON_SIZE}`, jsonPointer(this.format.matrixKey, 0));
    if (c === this.row0.length) {
      const grown = new Float64Array(c * 2);
      grown.set(this.row0);
      this.row0 = grown;
    }
    this.row0[c] = v;
  }

  /** The whole matrix for size `n`; throws InputError for a wrong shape, an entry not finite, or the store's checks. */
  result(n: number): T {
    checkShape(this.format, n, this.rows, (r) => this.rowLengths[r]!);
    if (this.notFinite.total > 0) throw this.notFinite.error(finiteMessage(this.format));
    return this.store.result(n);
  }
}

/**
 * The error for a size (`written` as in the file) more than the JSON format takes, at `pointer`: the use case's text
 * format is the way up to its own limit, none beyond it.
 */
export function tooLarge<T>(format: JsonMatrixFormat<T>, size: number, written: string, pointer: string): InputError {
  if (size > format.maxSize) return format.tooMany(written, pointer);
  const { noun, units, textFormat, textLayout } = format;
  return new InputError(
    `A ${noun} of ${written} ${units} is too large for the JSON format (at most ${MAX_JSON_SIZE} ${units}); upload it as ${textFormat} instead (${textLayout}).`,
    [
      {
        pointer,
        detail: `${written} ${units} is more than the ${MAX_JSON_SIZE} the JSON format accepts; use ${textFormat}`,
      },
    ],
  );
}

/** Where upper row i of an n × n matrix starts, less i + 1: entry (i, j), i < j, is at upperBase(i, n) + j. */
export function upperBase(i: number, n: number): number {
  return i * n - ((i * (i + 3)) >> 1) - 1; // integers below 2^31 for n ≤ MAX_JSON_SIZE
}

/** A copy of `array` with room for at least `needed` entries (doubling, at most `full`). */
export function grown(array: Float64Array, needed: number, full: number): Float64Array<ArrayBuffer> {
  const copy = new Float64Array(Math.min(full, Math.max(needed, 2 * array.length)));
  copy.set(array);
  return copy;
}
