// The number scanner of the JSON data-file reader: keeps the bytes and digits of one number literal as the
// state machine in json-stream.ts feeds them, and gives its value exactly as JSON.parse would.
import { InputError } from '../input-error.ts';

/** Longer number literals are refused. */
const MAX_NUMBER_BYTES = 4096;
const POW10 = Float64Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
const decoder = new TextDecoder();

/** One number literal at a time: digits in `mantissa` while they are at most 15 significant ones. */
export class NumberScanner {
  private readonly bytes = new Uint8Array(MAX_NUMBER_BYTES);
  private length = 0;
  private negative = false;
  private mantissa = 0;
  private significant = 0;
  private fractionDigits = 0;
  private exponent = 0;
  private exponentNegative = false;
  /** Where the number is (a JSON pointer), for the error about one too long. */
  private readonly pointer: () => string;

  constructor(pointer: () => string) {
    this.pointer = pointer;
  }

  /** Starts a number at byte `c` if it can start one. */
  start(c: number): boolean {
    if (c !== 45 && (c < 48 || c > 57)) return false;
    this.length = 0;
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

  /** Keeps a byte of the literal that is not a digit of the mantissa or the exponent. */
  keep(c: number): void {
    if (this.length === MAX_NUMBER_BYTES) {
      throw new InputError(`A number in the JSON file is longer than ${MAX_NUMBER_BYTES} characters.`, [
        { pointer: this.pointer(), detail: `the number is longer than ${MAX_NUMBER_BYTES} characters` },
      ]);
    }
    this.bytes[this.length++] = c;
  }

  digit(c: number, fraction: boolean): void {
    this.keep(c);
    const d = c - 48;
    if (fraction) this.fractionDigits++;
    if (d !== 0 || this.significant > 0) this.significant++;
    if (this.significant <= 15) this.mantissa = this.mantissa * 10 + d;
  }

  /** The exponent's sign, `+` or `-`. */
  exponentSign(c: number): void {
    this.keep(c);
    this.exponentNegative = c === 45;
  }

  exponentDigit(c: number): void {
    this.keep(c);
    if (this.exponent < 1e6) this.exponent = this.exponent * 10 + (c - 48);
  }

  /** The number's value: exact for up to 15 significant digits and a power of ten within ±22, else Number(). */
  value(): number {
    if (this.significant <= 15) {
      const e10 = (this.exponentNegative ? -this.exponent : this.exponent) - this.fractionDigits;
      let v = Number.NaN;
      if (e10 === 0) v = this.mantissa;
      else if (e10 > 0 && e10 <= 22) v = this.mantissa * POW10[e10]!;
      else if (e10 < 0 && e10 >= -22) v = this.mantissa / POW10[-e10]!;
      if (!Number.isNaN(v)) return this.negative ? -v : v;
    }
    return Number(this.text());
  }

  /** The literal as written. */
  text(): string {
    return decoder.decode(this.bytes.subarray(0, this.length));
  }
}
