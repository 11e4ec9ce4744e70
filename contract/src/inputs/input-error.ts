// The error every use case's input parser throws when an input breaks the rules: a human message (a problem's
// `detail`) and JSON pointers (RFC 6901) naming the offending places. No HTTP here: the caller maps it to a
// problem (`invalid_input` inline, `data_file_invalid` for a data file).

export interface InputErrorItem {
  /** An RFC 6901 pointer: `/adj_matrix/2/3` into a JSON input, `/line/3` or `/byte/17` into a data file. */
  pointer: string;
  detail: string;
}

/** At most this many pointers are reported with one error. */
export const MAX_REPORTED_ERRORS = 20;

export class InputError extends Error {
  /** At most MAX_REPORTED_ERRORS entries, in the order the input holds them. */
  readonly errors: InputErrorItem[];

  constructor(message: string, errors: readonly InputErrorItem[] = []) {
    super(message);
    this.name = 'InputError';
    this.errors = errors.slice(0, MAX_REPORTED_ERRORS);
  }
}

/** Builds a pointer from reference tokens, escaping `~` and `/` (RFC 6901): ('adj_matrix', 2) → `/adj_matrix/2`. */
export function jsonPointer(...tokens: ReadonlyArray<string | number>): string {
  let pointer = '';
  for (const token of tokens) pointer += '/' + String(token).replaceAll('~', '~0').replaceAll('/', '~1');
  return pointer;
}

/** Collects errors, keeping the first MAX_REPORTED_ERRORS and counting the rest. */
export class ErrorList {
  readonly items: InputErrorItem[] = [];
  total = 0;

  add(pointer: string, detail: string): void {
    this.total++;
    if (this.items.length < MAX_REPORTED_ERRORS) this.items.push({ pointer, detail });
  }

  get full(): boolean {
    return this.total >= MAX_REPORTED_ERRORS;
  }

  /** An InputError with `message`, noting how many problems there were when not all are listed. */
  error(message: string): InputError {
    const more =
      this.total > this.items.length ? ` ${this.total} problems; the first ${this.items.length} are listed.` : '';
    return new InputError(message + more, this.items);
  }
}
