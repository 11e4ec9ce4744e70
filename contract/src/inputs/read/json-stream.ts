// A streaming reader for a JSON data file `{"<size key>": n, "<matrix key>": [[...], ...]}` (up to 100 MiB): the
// byte-level state machine for exactly this grammar, feeding json-number.ts and the matrix's rows (json-matrix.ts,
// which hands the entries to the use case's store); no whole-file string. The member names and the store are the
// use case's (its JsonMatrixFormat), the grammar is shared.
import { InputError, jsonPointer } from '../input-error.ts';
import { type ChunkReader, emptyFile, readChunks } from './chunk-reader.ts';
import { type JsonMatrixFormat, MatrixRows, MAX_JSON_SIZE, tooLarge } from './json-matrix.ts';
import { NumberScanner } from './json-number.ts';
import { checkSize } from './square-matrix.ts';

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
// Inside a number (the size or a matrix entry), JSON's grammar -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?:
const N_MINUS = 15; // after '-'
const N_ZERO = 16; // after a leading '0'
const N_INT = 17; // in the integer digits
const N_DOT = 18; // after '.'
const N_FRACTION = 19; // in the fraction digits
const N_E = 20; // after 'e'
const N_EXPONENT_SIGN = 21; // after the exponent's sign
const N_EXPONENT = 22; // in the exponent digits

const KEY_NONE = 0,
  KEY_SIZE = 1,
  KEY_MATRIX = 2;
const NUMBER_SIZE = 0,
  NUMBER_ENTRY = 1;
const BOM = [0xef, 0xbb, 0xbf] as const;
const decoder = new TextDecoder();

/** Reads `{"<sizeKey>": n, "<matrixKey>": [[...], ...]}` from a stream of bytes. Throws InputError with JSON pointers. */
export function readJsonMatrix<T>(chunks: AsyncIterable<Uint8Array>, format: JsonMatrixFormat<T>): Promise<T> {
  return readChunks(chunks, new JsonMatrixReader(format));
}

class JsonMatrixReader<T> implements ChunkReader<T> {
  private state = T_START;
  /** File offset of the current chunk's first byte. */
  private offset = 0;
  private bomSeen = 0;

  // Object members.
  private readonly keyBytes = new Uint8Array(MAX_KEY_BYTES);
  private keyLength = 0;
  private key = KEY_NONE;
  private haveSize = false;
  private haveMatrix = false;
  private size = -1;

  /** The number being read: the size or a matrix entry. */
  private numberContext = NUMBER_ENTRY;
  private readonly number = new NumberScanner(() => this.where(N_INT, this.offset));
  private readonly format: JsonMatrixFormat<T>;
  private readonly matrix: MatrixRows<T>;
  /** `/adj_matrix`, `/num_nodes`: the members' pointers. */
  private readonly matrixPointer: string;
  private readonly sizePointer: string;

  constructor(format: JsonMatrixFormat<T>) {
    this.format = format;
    this.matrix = new MatrixRows(format);
    this.matrixPointer = jsonPointer(format.matrixKey);
    this.sizePointer = jsonPointer(format.sizeKey);
  }

  push(chunk: Uint8Array): void {
    const length = chunk.length;
    let i = 0;
    while (this.bomSeen < 3 && i < length) {
      if (chunk[i] === BOM[this.bomSeen]) {
        this.bomSeen++;
        i++;
        continue;
      }
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
          if (c === 93 /* ] */ && state === M_ENTRY_OR_CLOSE) {
            this.matrix.endRow();
            state = M_AFTER_ROW;
            break;
          }
          if (!this.startNumber(c, NUMBER_ENTRY))
            this.unexpected(c, this.offset + i, state === M_ENTRY ? 'a number' : 'a number or "]"', state);
          state = c === 45 ? N_MINUS : c === 48 ? N_ZERO : N_INT;
          break;
        case M_AFTER_ENTRY:
          if (c === 44 /* , */) state = M_ENTRY;
          else if (c === 93) {
            this.matrix.endRow();
            state = M_AFTER_ROW;
          } else this.unexpected(c, this.offset + i, '"," or "]"', state);
          break;
        case N_INT:
        case N_FRACTION:
          if (c >= 48 && c <= 57) {
            this.number.digit(c, state === N_FRACTION);
            break;
          }
          if (c === 46 /* . */ && state === N_INT) {
            this.number.keep(c);
            state = N_DOT;
            break;
          }
          if (c === 101 || c === 69) {
            this.number.keep(c);
            state = N_E;
            break;
          }
          state = this.endNumber();
          continue; // the byte after the number is read again in the new state
        case N_ZERO:
          if (c === 46) {
            this.number.keep(c);
            state = N_DOT;
            break;
          }
          if (c === 101 || c === 69) {
            this.number.keep(c);
            state = N_E;
            break;
          }
          if (c >= 48 && c <= 57)
            this.unexpected(c, this.offset + i, '".", "e" or the end of the number (no leading zeros)', state);
          state = this.endNumber();
          continue;
        case N_MINUS:
          if (c === 48) {
            this.number.keep(c);
            state = N_ZERO;
            break;
          }
          if (c >= 49 && c <= 57) {
            this.number.digit(c, false);
            state = N_INT;
            break;
          }
          this.unexpected(c, this.offset + i, 'a digit', state);
          break;
        case N_DOT:
          if (c >= 48 && c <= 57) {
            this.number.digit(c, true);
            state = N_FRACTION;
            break;
          }
          this.unexpected(c, this.offset + i, 'a digit after "."', state);
          break;
        case N_E:
          if (c === 43 || c === 45) {
            this.number.exponentSign(c);
            state = N_EXPONENT_SIGN;
            break;
          }
          if (c >= 48 && c <= 57) {
            this.number.exponentDigit(c);
            state = N_EXPONENT;
            break;
          }
          this.unexpected(c, this.offset + i, 'a digit or a sign after "e"', state);
          break;
        case N_EXPONENT_SIGN:
          if (c >= 48 && c <= 57) {
            this.number.exponentDigit(c);
            state = N_EXPONENT;
            break;
          }
          this.unexpected(c, this.offset + i, 'a digit', state);
          break;
        case N_EXPONENT:
          if (c >= 48 && c <= 57) {
            this.number.exponentDigit(c);
            break;
          }
          state = this.endNumber();
          continue;
        case M_ROW:
        case M_ROW_OR_CLOSE:
          if (c === 91 /* [ */) {
            this.matrix.startRow();
            state = M_ENTRY_OR_CLOSE;
            break;
          }
          if (c === 93 && state === M_ROW_OR_CLOSE) {
            state = T_COMMA_OR_CLOSE;
            break;
          }
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
          if (c === 34 /* " */) {
            this.keyLength = 0;
            state = T_KEY;
            break;
          }
          if (c === 125 /* } */ && state === T_KEY_OR_CLOSE) {
            state = T_END;
            break;
          }
          this.unexpected(c, this.offset + i, state === T_KEY_NEXT ? 'a key' : 'a key or "}"', state);
          break;
        case T_KEY:
          if (c === 34) {
            this.endKey(this.offset + i);
            state = T_COLON;
            break;
          }
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
          if (this.key === KEY_MATRIX) {
            if (c !== 91)
              this.unexpected(c, this.offset + i, `"[": ${this.format.matrixKey} is an array of rows`, state);
            this.matrix.start(this.size);
            state = M_ROW_OR_CLOSE;
          } else {
            if (!this.startNumber(c, NUMBER_SIZE))
              this.unexpected(c, this.offset + i, `an integer: ${this.format.sizeKey} is a number`, state);
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

  finish(): T {
    let state = this.state;
    // A number at the very end of the file is complete; anything else unfinished is a truncated file.
    if (state === N_ZERO || state === N_INT || state === N_FRACTION || state === N_EXPONENT) state = this.endNumber();
    if (state !== T_END) {
      if (this.bomSeen > 0 && this.bomSeen < 3) this.unexpected(-1, this.offset, 'the rest of a UTF-8 byte-order mark');
      if (state === T_START) throw emptyFile();
      this.unexpected(-1, this.offset, expectedIn(state), state);
    }

    const { sizeKey, matrixKey } = this.format;
    const missing: string[] = [];
    if (!this.haveSize) missing.push(sizeKey);
    if (!this.haveMatrix) missing.push(matrixKey);
    if (missing.length > 0) {
      throw new InputError(
        `The JSON object must hold "${sizeKey}" and "${matrixKey}"; ${missing.map((k) => `"${k}"`).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing.`,
        missing.map((k) => ({ pointer: jsonPointer(k), detail: 'this required key is missing' })),
      );
    }

    return this.matrix.result(this.size);
  }

  // --- numbers ---------------------------------------------------------------------------------------

  /** Starts a number at byte `c` if it can start one. */
  private startNumber(c: number, context: number): boolean {
    if (!this.number.start(c)) return false;
    this.numberContext = context;
    return true;
  }

  /** Ends the number just read; returns the state that follows it. */
  private endNumber(): number {
    const number = this.number;
    const v = number.value();
    if (this.numberContext === NUMBER_ENTRY) {
      const matrix = this.matrix;
      if (!Number.isFinite(v)) matrix.notFiniteEntry(number.text());
      matrix.entry(v);
      return M_AFTER_ENTRY;
    }
    checkSize(this.format, v, number.text());
    if (v > MAX_JSON_SIZE) throw tooLarge(this.format, v, number.text(), this.sizePointer);
    this.size = v;
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
        throw new InputError(`The key ending at byte ${at} of the JSON file is not a valid JSON string.`, [
          { pointer: `/byte/${at}`, detail: 'the key is not a valid JSON string' },
        ]);
      }
    }
    const { sizeKey, matrixKey } = this.format;
    if (key === sizeKey || key === matrixKey) {
      const seen = key === sizeKey ? this.haveSize : this.haveMatrix;
      if (seen)
        throw new InputError(`The key "${key}" appears twice in the JSON object.`, [
          { pointer: jsonPointer(key), detail: 'duplicate key' },
        ]);
      if (key === sizeKey) this.haveSize = true;
      else this.haveMatrix = true;
      this.key = key === sizeKey ? KEY_SIZE : KEY_MATRIX;
      return;
    }
    throw new InputError(
      `The JSON object may hold only "${sizeKey}" and "${matrixKey}"; it holds ${JSON.stringify(key)}.`,
      [{ pointer: jsonPointer(key), detail: `unknown key; only "${sizeKey}" and "${matrixKey}" are allowed` }],
    );
  }

  // --- errors ----------------------------------------------------------------------------------------

  /** Where an error in `state` points: the matrix position inside the matrix, else the byte offset. */
  private where(state: number, at: number): string {
    const matrix = this.matrixPointer;
    if (state >= N_MINUS)
      return this.numberContext === NUMBER_ENTRY
        ? `${matrix}/${this.matrix.rows}/${this.matrix.column}`
        : this.sizePointer;
    if (state >= M_ENTRY_OR_CLOSE) return `${matrix}/${this.matrix.rows}/${this.matrix.column}`;
    if (state >= M_ROW_OR_CLOSE) return `${matrix}/${this.matrix.rows}`;
    if (state === T_VALUE) return this.key === KEY_MATRIX ? matrix : this.sizePointer;
    return `/byte/${at}`;
  }

  /** Throws for byte `c` at offset `at` (c < 0: the end of the file). */
  private unexpected(c: number, at: number, expected: string, state = T_START): never {
    const detail =
      c < 0
        ? `the file ends at byte ${at}; expected ${expected}`
        : `unexpected ${describe(c)} at byte ${at}; expected ${expected}`;
    const message =
      c < 0
        ? `The JSON file ends early (at byte ${at}); expected ${expected}.`
        : `Unexpected ${describe(c)} at byte ${at} of the JSON file; expected ${expected}.`;
    throw new InputError(message, [{ pointer: this.where(state, at), detail }]);
  }
}

function describe(c: number): string {
  return c > 32 && c < 127
    ? JSON.stringify(String.fromCharCode(c))
    : `byte 0x${c.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** What may come next in `state`, for a file that ends there. */
function expectedIn(state: number): string {
  switch (state) {
    case T_START:
      return '"{"';
    case T_KEY_OR_CLOSE:
      return 'a key or "}"';
    case T_KEY:
    case T_KEY_ESCAPE:
      return 'the rest of the key';
    case T_COLON:
      return '":"';
    case T_VALUE:
      return 'a value';
    case T_COMMA_OR_CLOSE:
      return '"," or "}"';
    case T_KEY_NEXT:
      return 'a key';
    case M_ROW_OR_CLOSE:
      return '"[" (a row) or "]"';
    case M_ROW:
      return '"[" (a row)';
    case M_AFTER_ROW:
      return '"," or "]"';
    case M_ENTRY_OR_CLOSE:
      return 'a number or "]"';
    case M_ENTRY:
      return 'a number';
    case M_AFTER_ENTRY:
      return '"," or "]"';
    default:
      return 'the rest of the number';
  }
}
