// A use case's square-matrix input, `{"<size key>": n, "<matrix key>": [[...], ...]}`, inline or in a JSON data
// file: the checks of its size and shape, and the messages, built from the two keys, that the inline body and the
// streamed file give word for word alike.
import { ErrorList, InputError, jsonPointer } from '../input-error.ts';

/** The members' names, and the use case's own limit on the size with its refusal (the same in every form). */
export interface SquareMatrixForm {
  /** The integer member ≥ 1 (`num_nodes`, say). */
  readonly sizeKey: string;
  /** The array-of-rows member (`adj_matrix`). */
  readonly matrixKey: string;
  /** The largest size the use case takes, whatever its form. */
  readonly maxSize: number;
  /** The error for a size beyond maxSize, `size` as written, pointing at `pointer`. */
  tooMany(size: string, pointer: string): InputError;
}

/** Throws unless the size `n` (written `written`) is an integer from 1 to form.maxSize. */
export function checkSize(form: SquareMatrixForm, n: number, written: string): void {
  const pointer = jsonPointer(form.sizeKey);
  if (!Number.isInteger(n) || n < 1) {
    throw new InputError(`${form.sizeKey} must be an integer ≥ 1.`, [
      { pointer, detail: `must be an integer ≥ 1, found ${written}` },
    ]);
  }
  if (n > form.maxSize) throw form.tooMany(written, pointer);
}

/**
 * Throws unless the matrix has `n` rows of `n` entries; `lengthOf(r)` is row r's length, -1 for a row that is not an
 * array. Every row at fault is named.
 */
export function checkShape(form: SquareMatrixForm, n: number, rows: number, lengthOf: (row: number) => number): void {
  const { sizeKey, matrixKey } = form;
  const shape = new ErrorList();
  if (rows !== n)
    shape.add(jsonPointer(matrixKey), `${matrixKey} has ${rows} ${rows === 1 ? 'row' : 'rows'}; expected ${n}`);
  for (let r = 0; r < rows; r++) {
    const length = lengthOf(r);
    if (length < 0) shape.add(jsonPointer(matrixKey, r), `row ${r} is not an array`);
    else if (length !== n)
      shape.add(
        jsonPointer(matrixKey, r),
        `row ${r} has ${length} ${length === 1 ? 'entry' : 'entries'}; expected ${n}`,
      );
  }
  if (shape.total > 0) throw shape.error(`${matrixKey} must be ${sizeKey} × ${sizeKey} (${n} × ${n}).`);
}

/** An inline body's size and shape (the body already schema-valid): throws InputError as checkSize, checkShape do. */
export function checkInlineShape(form: SquareMatrixForm, n: number, matrix: readonly unknown[]): void {
  checkSize(form, n, String(n));
  checkShape(form, n, matrix.length, (r) => {
    const row = matrix[r];
    return Array.isArray(row) ? row.length : -1;
  });
}

/** The message of the error that lists the entries that are not finite numbers. */
export function finiteMessage(form: SquareMatrixForm): string {
  return `${form.matrixKey} entries must be finite numbers.`;
}

/** Why an inline entry `v` is not a finite number (JSON.parse reads 1e400 as Infinity). */
export function notFiniteDetail(v: unknown): string {
  return typeof v === 'number'
    ? `${v} is not a finite number (numbers beyond ±1.8e308 overflow)`
    : `${JSON.stringify(v)} is not a number`;
}
