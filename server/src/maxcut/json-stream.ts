// A streaming reader for a JSON data file in the inline shape `{"num_nodes": n, "adj_matrix": [[...], ...]}`
// (up to 100 MiB). A byte-level state machine for exactly this grammar: no JS arrays for the matrix and no
// whole-file string. Both triangles are kept in Float64Arrays (n × n × 8 bytes in all, at most 512 MiB), so
// symmetry is checked after the last row in cache-friendly tiles, and the CSR is filled row by row.
import type { Graph } from './graph.ts';
import { ErrorList, InputError, jsonPointer } from './input-error.ts';
import { FINITE_MESSAGE, rowCountDetail, rowLengthDetail, shapeMessage, SYMMETRIC_MESSAGE } from './inline.ts';

/** The most nodes a JSON data file may have: an n × n Float64Array must fit in 512 MiB. */
export const MAX_JSON_NODES = Math.floor(Math.sqrt((512 * 1024 * 1024) / 8));
/** Longer number literals are refused. */
const MAX_NUMBER_BYTES = 4096;
/** Longer keys are unknown keys anyway; only this much of one is kept for the message. */
const MAX_KEY_BYTES = 256;

// States. Structure outside the matrix:
const T_START = 0; // before '{'
const T_KEY_OR_CLOSE = 1; // after '{': '"' or '}'
const T_KEY = 2; // inside a key
const T_KEY_ESCAPE = 3; // after '\' inside a key
const T_COLON = 4; // after a key
const T_VALUE = 5; // after ':'
const T_COMMA_OR_CLOSE = 6; // after a member: ',' or '}'
const T_KEY_NEXT = 7; // after ',': '"'
const T_END = 8; // after '}': only whitespace
// Inside the matrix:
const M_ROW_OR_CLOSE = 9; // after the outer '[': '[' or ']'
const M_ROW = 10; // after ',' between rows: '['
const M_AFTER_ROW = 11; // ',' or ']'
const M_ENTRY_OR_CLOSE = 12; // after a row's '[': a number or ']'
const M_ENTRY = 13; // after ',' in a row: a number
const M_AFTER_ENTRY = 14; // ',' or ']'
// Inside a number (num_nodes or a matrix entry), JSON's grammar -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?:
const N_MINUS = 15; // after '-'
const N_ZERO = 16; // after a leading '0'
const N_INT = 17; // in the integer digits
const N_DOT = 18; // after '.'
const N_FRACTION = 19; // in the fraction digits
const N_E = 20; // after 'e'
const N_EXPONENT_SIGN = 21; // after the exponent's sign
const N_EXPONENT = 22; // in the exponent digits

const KEY_NONE = 0, KEY_NUM_NODES = 1, KEY_ADJ_MATRIX = 2;
const NUMBER_NUM_NODES = 0, NUMBER_ENTRY = 1;
const BOM = [0xef, 0xbb, 0xbf] as const;
const POW10 = Float64Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
const decoder = new TextDecoder();

/** Reads the JSON max-cut shape from a stream of bytes. Throws InputError with JSON pointers. */
export async function graphFromJsonStream(chunks: AsyncIterable<Uint8Array>): Promise<Graph> {
  const reader = new JsonMatrixReader();
  for await (const chunk of chunks) reader.push(chunk);
  return reader.finish();
}

class JsonMatrixReader {
  private state = T_START;
  /** File offset of the current chunk's first byte. */
  private offset = 0;
  private bomSeen = 0;

  // Object members.
  private readonly keyBytes = new Uint8Array(MAX_KEY_BYTES);
  private keyLength = 0;
  private key = KEY_NONE;
  private haveNumNodes = false;
  private haveMatrix = false;
  private numNodes = -1;

  // The number being read: digits in `mantissa` while they are at most 15 significant ones.
  private numberContext = NUMBER_ENTRY;
  private readonly numberBytes = new Uint8Array(MAX_NUMBER_BYTES);
  private numberLength = 0;
  private negative = false;
  private mantissa = 0;
  private significant = 0;
  private fractionDigits = 0;
  private exponent = 0;
  private exponentNegative = false;

  // The matrix: `width` is num_nodes, or row 0's length when num_nodes comes later (-1 until known).
  private width = -1;
  private rows = 0;
  private column = 0;
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
  private readonly notFinite = new ErrorList();

  push(chunk: Uint8Array): void {
    const length = chunk.length;
    let i = 0;
    while (this.bomSeen < 3 && i < length) {
      if (chunk[i] === BOM[this.bomSeen]) { this.bomSeen++; i++; continue; }
      if (this.bomSeen > 0) this.unexpected(0xef, 0, 'a UTF-8 byte-order mark or "{"');
      this.bomSeen = 3;
    }
    let state = this.state;
    while (i < length) {
      const c = chunk[i]!;
      if ((c === 32 || c === 10 || c === 13 || c === 9) && (state < T_KEY || state > T_KEY_ESCAPE) && state < N_MINUS) {
        i++;
        continue;
      }
      switch (state) {
        case M_ENTRY:
        case M_ENTRY_OR_CLOSE:
          if (c === 93 /* ] */ && state === M_ENTRY_OR_CLOSE) { this.endRow(); state = M_AFTER_ROW; break; }
          if (!this.startNumber(c, NUMBER_ENTRY)) this.unexpected(c, this.offset + i, state === M_ENTRY ? 'a number' : 'a number or "]"', state);
          state = c === 45 ? N_MINUS : c === 48 ? N_ZERO : N_INT;
          break;
        case M_AFTER_ENTRY:
          if (c === 44 /* , */) state = M_ENTRY;
          else if (c === 93) { this.endRow(); state = M_AFTER_ROW; }
          else this.unexpected(c, this.offset + i, '"," or "]"', state);
          break;
        case N_INT:
        case N_FRACTION:
          if (c >= 48 && c <= 57) { this.digit(c, state === N_FRACTION); break; }
          if (c === 46 /* . */ && state === N_INT) { this.keep(c); state = N_DOT; break; }
          if (c === 101 || c === 69) { this.keep(c); state = N_E; break; }
          state = this.endNumber();
          continue; // the byte after the number is read again in the new state
        case N_ZERO:
          if (c === 46) { this.keep(c); state = N_DOT; break; }
          if (c === 101 || c === 69) { this.keep(c); state = N_E; break; }
          if (c >= 48 && c <= 57) this.unexpected(c, this.offset + i, '".", "e" or the end of the number (no leading zeros)', state);
          state = this.endNumber();
          continue;
        case N_MINUS:
          if (c === 48) { this.keep(c); state = N_ZERO; break; }
          if (c >= 49 && c <= 57) { this.digit(c, false); state = N_INT; break; }
          this.unexpected(c, this.offset + i, 'a digit', state);
          break;
        case N_DOT:
          if (c >= 48 && c <= 57) { this.digit(c, true); state = N_FRACTION; break; }
          this.unexpected(c, this.offset + i, 'a digit after "."', state);
          break;
        case N_E:
          if (c === 43 || c === 45) { this.keep(c); this.exponentNegative = c === 45; state = N_EXPONENT_SIGN; break; }
          if (c >= 48 && c <= 57) { this.exponentDigit(c); state = N_EXPONENT; break; }
          this.unexpected(c, this.offset + i, 'a digit or a sign after "e"', state);
          break;
        case N_EXPONENT_SIGN:
          if (c >= 48 && c <= 57) { this.exponentDigit(c); state = N_EXPONENT; break; }
          this.unexpected(c, this.offset + i, 'a digit', state);
          break;
        case N_EXPONENT:
          if (c >= 48 && c <= 57) { this.exponentDigit(c); break; }
          state = this.endNumber();
          continue;
        case M_ROW:
        case M_ROW_OR_CLOSE:
          if (c === 91 /* [ */) { this.startRow(); state = M_ENTRY_OR_CLOSE; break; }
          if (c === 93 && state === M_ROW_OR_CLOSE) { state = T_COMMA_OR_CLOSE; break; }
          this.unexpected(c, this.offset + i, state === M_ROW ? '"[" (a row)' : '"[" (a row) or "]"', state);
          break;
        case M_AFTER_ROW:
          if (c === 44) state = M_ROW;
          else if (c === 93) state = T_COMMA_OR_CLOSE;
          else this.unexpected(c, this.offset + i, '"," or "]"', state);
          break;
        case T_START:
          if (c !== 123 /* { */) this.unexpected(c, this.offset + i, '"{"', state);
          state = T_KEY_OR_CLOSE;
          break;
        case T_KEY_OR_CLOSE:
        case T_KEY_NEXT:
          if (c === 34 /* " */) { this.keyLength = 0; state = T_KEY; break; }
          if (c === 125 /* } */ && state === T_KEY_OR_CLOSE) { state = T_END; break; }
          this.unexpected(c, this.offset + i, state === T_KEY_NEXT ? 'a key' : 'a key or "}"', state);
          break;
        case T_KEY:
          if (c === 34) { this.endKey(this.offset + i); state = T_COLON; break; }
          if (c === 92 /* \ */) state = T_KEY_ESCAPE;
          if (this.keyLength < MAX_KEY_BYTES) this.keyBytes[this.keyLength] = c;
          this.keyLength++;
          break;
        case T_KEY_ESCAPE:
          if (this.keyLength < MAX_KEY_BYTES) this.keyBytes[this.keyLength] = c;
          this.keyLength++;
          state = T_KEY;
          break;
        case T_COLON:
          if (c !== 58 /* : */) this.unexpected(c, this.offset + i, '":"', state);
          state = T_VALUE;
          break;
        case T_VALUE:
          if (this.key === KEY_ADJ_MATRIX) {
            if (c !== 91) this.unexpected(c, this.offset + i, '"[": adj_matrix is an array of rows', state);
            this.startMatrix();
            state = M_ROW_OR_CLOSE;
          } else {
            if (!this.startNumber(c, NUMBER_NUM_NODES)) this.unexpected(c, this.offset + i, 'an integer: num_nodes is a number', state);
            state = c === 45 ? N_MINUS : c === 48 ? N_ZERO : N_INT;
          }
          break;
        case T_COMMA_OR_CLOSE:
          if (c === 44) state = T_KEY_NEXT;
          else if (c === 125) state = T_END;
          else this.unexpected(c, this.offset + i, '"," or "}"', state);
          break;
        case T_END:
          this.unexpected(c, this.offset + i, 'nothing after the end of the JSON object', state);
          break;
      }
      i++;
    }
    this.state = state;
    this.offset += length;
  }

  finish(): Graph {
    let state = this.state;
    // A number at the very end of the file is complete; anything else unfinished is a truncated file.
    if (state === N_ZERO || state === N_INT || state === N_FRACTION || state === N_EXPONENT) state = this.endNumber();
    if (state !== T_END) {
      if (this.bomSeen > 0 && this.bomSeen < 3) this.unexpected(-1, this.offset, 'the rest of a UTF-8 byte-order mark');
      if (state === T_START) throw new InputError('The file is empty.', [{ pointer: '', detail: 'the file is empty' }]);
      this.unexpected(-1, this.offset, expectedIn(state), state);
    }

    const missing: string[] = [];
    if (!this.haveNumNodes) missing.push('num_nodes');
    if (!this.haveMatrix) missing.push('adj_matrix');
    if (missing.length > 0) {
      throw new InputError(`The JSON object must hold "num_nodes" and "adj_matrix"; ${missing.map((k) => `"${k}"`).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing.`,
        missing.map((k) => ({ pointer: `/${k}`, detail: 'this required key is missing' })));
    }

    const n = this.numNodes;
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

  // --- numbers ---------------------------------------------------------------------------------------

  /** Starts a number at byte `c` if it can start one. */
  private startNumber(c: number, context: number): boolean {
    if (c !== 45 && (c < 48 || c > 57)) return false;
    this.numberContext = context;
    this.numberLength = 0;
    this.negative = c === 45;
    this.mantissa = 0;
    this.significant = 0;
    this.fractionDigits = 0;
    this.exponent = 0;
    this.exponentNegative = false;
    if (c === 45 || c === 48) this.keep(c);
    else this.digit(c, false);
    return true;
  }

  private keep(c: number): void {
    if (this.numberLength === MAX_NUMBER_BYTES) {
      throw new InputError(`A number in the JSON file is longer than ${MAX_NUMBER_BYTES} characters.`, [{ pointer: this.where(N_INT, this.offset), detail: `the number is longer than ${MAX_NUMBER_BYTES} characters` }]);
    }
    this.numberBytes[this.numberLength++] = c;
  }

  private digit(c: number, fraction: boolean): void {
    this.keep(c);
    const d = c - 48;
    if (fraction) this.fractionDigits++;
    if (d !== 0 || this.significant > 0) this.significant++;
    if (this.significant <= 15) this.mantissa = this.mantissa * 10 + d;
  }

  private exponentDigit(c: number): void {
    this.keep(c);
    if (this.exponent < 1e6) this.exponent = this.exponent * 10 + (c - 48);
  }

  /** The number's value: exact for up to 15 significant digits and a power of ten within ±22, else Number(). */
  private numberValue(): number {
    if (this.significant <= 15) {
      const e10 = (this.exponentNegative ? -this.exponent : this.exponent) - this.fractionDigits;
      let v = Number.NaN;
      if (e10 === 0) v = this.mantissa;
      else if (e10 > 0 && e10 <= 22) v = this.mantissa * POW10[e10]!;
      else if (e10 < 0 && e10 >= -22) v = this.mantissa / POW10[-e10]!;
      if (!Number.isNaN(v)) return this.negative ? -v : v;
    }
    return Number(this.numberText());
  }

  private numberText(): string {
    return decoder.decode(this.numberBytes.subarray(0, this.numberLength));
  }

  /** Ends the number just read; returns the state that follows it. */
  private endNumber(): number {
    const v = this.numberValue();
    if (this.numberContext === NUMBER_ENTRY) {
      this.entry(v);
      return M_AFTER_ENTRY;
    }
    if (!Number.isInteger(v) || v < 1) {
      throw new InputError('num_nodes must be an integer ≥ 1.', [{ pointer: '/num_nodes', detail: `must be an integer ≥ 1, found ${this.numberText()}` }]);
    }
    if (v > MAX_JSON_NODES) throw tooLarge(this.numberText(), '/num_nodes');
    this.numNodes = v;
    return T_COMMA_OR_CLOSE;
  }

  // --- keys ------------------------------------------------------------------------------------------

  private endKey(at: number): void {
    let key: string;
    if (this.keyLength > MAX_KEY_BYTES) {
      key = decoder.decode(this.keyBytes) + '…'; // unknown, whatever it says
    } else {
      try {
        key = JSON.parse(`"${decoder.decode(this.keyBytes.subarray(0, this.keyLength))}"`) as string;
      } catch {
        throw new InputError(`The key ending at byte ${at} of the JSON file is not a valid JSON string.`, [{ pointer: `/byte/${at}`, detail: 'the key is not a valid JSON string' }]);
      }
    }
    if (key === 'num_nodes' || key === 'adj_matrix') {
      const seen = key === 'num_nodes' ? this.haveNumNodes : this.haveMatrix;
      if (seen) throw new InputError(`The key "${key}" appears twice in the JSON object.`, [{ pointer: `/${key}`, detail: 'duplicate key' }]);
      if (key === 'num_nodes') this.haveNumNodes = true;
      else this.haveMatrix = true;
      this.key = key === 'num_nodes' ? KEY_NUM_NODES : KEY_ADJ_MATRIX;
      return;
    }
    throw new InputError(`The JSON object may hold only "num_nodes" and "adj_matrix"; it holds ${JSON.stringify(key)}.`,
      [{ pointer: jsonPointer(key), detail: 'unknown key; only "num_nodes" and "adj_matrix" are allowed' }]);
  }

  // --- the matrix ------------------------------------------------------------------------------------

  private startMatrix(): void {
    if (this.numNodes > 0) this.allocate(this.numNodes);
  }

  /** Sets the width. The triangles grow with the rows read, so a file that only claims a size costs little. */
  private allocate(width: number): void {
    this.width = width;
    this.degree = new Int32Array(width);
    this.upper = new Float64Array(Math.min(width, 1 << 16));
  }

  private startRow(): void {
    const r = this.rows;
    const width = this.width;
    this.column = 0;
    this.rowDegree = 0;
    this.rowUpper = upperBase(r, width);
    this.rowLower = (r * (r - 1)) >> 1;
    if (r >= width) return;
    const full = (width * (width - 1)) / 2;
    if (this.upper.length < this.rowUpper + width) this.upper = grown(this.upper, this.rowUpper + width, full);
    if (this.lower.length < this.rowLower + r) this.lower = grown(this.lower, this.rowLower + r, full);
  }

  private endRow(): void {
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
    if (r < this.width) this.degree[r] = this.rowDegree;
  }

  private entry(v: number): void {
    const r = this.rows;
    const c = this.column++;
    if (!Number.isFinite(v)) this.notFinite.add(`/adj_matrix/${r}/${c}`, `${this.numberText()} is not a finite number`);
    const width = this.width;
    if (width < 0) {
      if (c >= MAX_JSON_NODES) throw tooLarge(`more than ${MAX_JSON_NODES}`, '/adj_matrix/0');
      if (c === this.row0.length) {
        const grown = new Float64Array(c * 2);
        grown.set(this.row0);
        this.row0 = grown;
      }
      this.row0[c] = v;
      return;
    }
    if (r >= width || c >= width || c === r) return;
    if (c > r) this.upper[this.rowUpper + c] = v;
    else this.lower[this.rowLower + c] = v;
    if (v !== 0) this.rowDegree++;
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
        if (u !== v) asymmetric.add(`/adj_matrix/${j}/${i}`, `adj_matrix[${j}][${i}] = ${u} but adj_matrix[${i}][${j}] = ${v}`);
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

  // --- errors ----------------------------------------------------------------------------------------

  /** Where an error in `state` points: the matrix position inside adj_matrix, else the byte offset. */
  private where(state: number, at: number): string {
    if (state >= N_MINUS) return this.numberContext === NUMBER_ENTRY ? `/adj_matrix/${this.rows}/${this.column}` : '/num_nodes';
    if (state >= M_ENTRY_OR_CLOSE) return `/adj_matrix/${this.rows}/${this.column}`;
    if (state >= M_ROW_OR_CLOSE) return `/adj_matrix/${this.rows}`;
    if (state === T_VALUE) return this.key === KEY_ADJ_MATRIX ? '/adj_matrix' : '/num_nodes';
    return `/byte/${at}`;
  }

  /** Throws for byte `c` at offset `at` (c < 0: the end of the file). */
  private unexpected(c: number, at: number, expected: string, state = T_START): never {
    const detail = c < 0 ? `the file ends at byte ${at}; expected ${expected}` : `unexpected ${describe(c)} at byte ${at}; expected ${expected}`;
    const message = c < 0
      ? `The JSON file ends early (at byte ${at}); expected ${expected}.`
      : `Unexpected ${describe(c)} at byte ${at} of the JSON file; expected ${expected}.`;
    throw new InputError(message, [{ pointer: this.where(state, at), detail }]);
  }
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

function tooLarge(nodes: string, pointer: string): InputError {
  return new InputError(
    `A graph of ${nodes} nodes is too large for the JSON format (at most ${MAX_JSON_NODES} nodes); upload it as an edge list instead (a line "n m", then one line "i j w" per edge).`,
    [{ pointer, detail: `${nodes} nodes is more than the ${MAX_JSON_NODES} the JSON format accepts; use an edge list` }],
  );
}

function describe(c: number): string {
  return c > 32 && c < 127 ? JSON.stringify(String.fromCharCode(c)) : `byte 0x${c.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** What may come next in `state`, for a file that ends there. */
function expectedIn(state: number): string {
  switch (state) {
    case T_START: return '"{"';
    case T_KEY_OR_CLOSE: return 'a key or "}"';
    case T_KEY: case T_KEY_ESCAPE: return 'the rest of the key';
    case T_COLON: return '":"';
    case T_VALUE: return 'a value';
    case T_COMMA_OR_CLOSE: return '"," or "}"';
    case T_KEY_NEXT: return 'a key';
    case M_ROW_OR_CLOSE: return '"[" (a row) or "]"';
    case M_ROW: return '"[" (a row)';
    case M_AFTER_ROW: return '"," or "]"';
    case M_ENTRY_OR_CLOSE: return 'a number or "]"';
    case M_ENTRY: return 'a number';
    case M_AFTER_ENTRY: return '"," or "]"';
    default: return 'the rest of the number';
  }
}
