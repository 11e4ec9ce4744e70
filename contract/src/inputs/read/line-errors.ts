// The errors of a line-oriented data file (a header line, then one entry line "i j value" each): pointers
// `/line/N`, the first fault's message the error's, and the faults every such format words alike but for the
// names of its layout and of its value.
import { ErrorList, InputError } from '../input-error.ts';
import { ascii, decimal, mostEntryLines, quote } from './text-lines.ts';

/** The error, at once, for a fault that stops the reading: on the header, or before it. */
export function lineError(line: number, detail: string): InputError {
  return new InputError(`Line ${line}: ${detail}.`, [{ pointer: `/line/${line}`, detail }]);
}

/** The detail for a header whose count of entry lines (`what`, as in the file) no data file of `bytes` can hold. */
export function moreLinesThanFit(what: string, bytes: number, layout: string): string {
  return `${what} is more than a data file of at most ${bytes} bytes can hold (at most ${mostEntryLines(bytes)} lines ${layout})`;
}

/** The faults of one file, in line order; reading stops once there are as many as an error lists. */
export class LineErrors {
  private readonly list = new ErrorList();
  private firstMessage = '';
  /** An entry line's layout and its value's name, for messages: `"i j w"`, `weight`. */
  private readonly layout: string;
  private readonly value: string;

  constructor(layout: string, value: string) {
    this.layout = layout;
    this.value = value;
  }

  /** Notes a fault on `line`; the first one's message is the error's (`Line N: detail.` unless told). */
  report(line: number, detail: string, message = `Line ${line}: ${detail}.`): void {
    if (this.list.total === 0) this.firstMessage = message;
    this.list.add(`/line/${line}`, detail);
    if (this.list.full) this.throwIfAny();
  }

  /** Throws the error listing the faults noted, if any. */
  throwIfAny(): void {
    if (this.list.total > 0) throw this.list.error(this.firstMessage);
  }

  /** An entry line [start, end) without the layout's three tokens. */
  wrongLayout(line: number, buf: Uint8Array, start: number, end: number): void {
    this.report(line, `expected ${this.layout}, found ${quote(buf, start, end)}`);
  }

  /**
   * A count the header declares (`the p line`, `elements`) against the lines read: reported on the header line when
   * there are fewer, on the first extra line when there are more.
   */
  checkCount(header: string, what: string, count: DeclaredCount, headerLine: number): void {
    if (count.found === count.declared) return;
    const detail = `${header} says ${count.declared} ${what} but the file has ${count.found}`;
    this.report(count.found < count.declared ? headerLine : count.firstExtra, detail);
  }

  /** The finite number in token [s, e) of the entry line [start, end), or NaN once the fault is noted. */
  entryValue(line: number, buf: Uint8Array, s: number, e: number, start: number, end: number): number {
    const v = decimal(buf, s, e);
    if (Number.isFinite(v)) return v;
    if (Number.isNaN(v)) {
      this.report(
        line,
        `${this.value} ${quote(buf, s, e)} is not a number`,
        `Line ${line}: expected ${this.layout} with a numeric ${this.value}, found ${quote(buf, start, end)}.`,
      );
    } else {
      const text = ascii(buf, s, e);
      this.report(
        line,
        `${text} is not a finite number`,
        `Line ${line}: the ${this.value} ${text} is not a finite number.`,
      );
    }
    return Number.NaN;
  }

  /** Notes an entry's index token [s, e) that is not an integer (`noun`: `node`, `variable`), with its detail. */
  notAnIndex(line: number, detail: string, noun: string, buf: Uint8Array, start: number, end: number): void {
    this.report(
      line,
      detail,
      `Line ${line}: expected ${this.layout} with integer ${noun} numbers, found ${quote(buf, start, end)}.`,
    );
  }
}

/**
 * The entry lines of one kind a header declares, and those read: valid or not, so that one bad line does not also
 * break the count.
 */
export class DeclaredCount {
  declared = 0;
  found = 0;
  /** The first line past the declared count, 0 while none. */
  firstExtra = 0;

  /** Counts entry line `line`; false once past the declared count. */
  add(line: number): boolean {
    if (this.found++ < this.declared) return true;
    if (this.firstExtra === 0) this.firstExtra = line;
    return false;
  }
}
