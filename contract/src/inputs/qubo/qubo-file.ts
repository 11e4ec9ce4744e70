// A streaming reader for qbsolv's .qubo text: `c` comment lines anywhere, one `p qubo 0 maxDiagonals nDiagonals
// nElements` line before any entry, then nDiagonals lines `i i value` and nElements lines `i j value` (0-based,
// any order; `i j` with i > j is Q[i][j]). Reads bytes chunk by chunk, never the file as one string; the diagonal
// is filled as it is read, the other entries collected in qubo-entries.ts, which builds the couplings' CSR. The
// p line's counts size nothing: the entries grow with the lines read, and counts no data file could hold are
// refused before any line is.
import { ErrorList, InputError } from '../input-error.ts';
import {
  ascii,
  decimal,
  LineSplitter,
  lineTooLong,
  MAX_LINE_BYTES,
  quote,
  SPACE,
  TAB,
  unsigned,
} from '../read/text-lines.ts';
import { mostEntryLines } from '../maxcut/edge-list.ts';
import { type QuboInput, TOTAL_WEIGHT_DETAIL, TOTAL_WEIGHT_MESSAGE } from './input.ts';
import { maxDataFileBytes, maxVariables, tooManyVariablesDetail } from './limits.ts';
import { EntryBuffer } from './qubo-entries.ts';

const CR = 13,
  C = 99;
const decoder = new TextDecoder();
const P_LINE = '"p qubo 0 maxDiagonals nDiagonals nElements"';

/** Reads a .qubo file from a stream of bytes. Throws InputError with `/line/<n>` pointers (1-based). */
export async function quboFromQuboFile(chunks: AsyncIterable<Uint8Array>): Promise<QuboInput> {
  const reader = new QuboFileReader();
  for await (const chunk of chunks) reader.push(chunk);
  return reader.finish();
}

class QuboFileReader {
  private readonly lines = new LineSplitter((buf, start, end) => this.parseLine(buf, start, end));
  private line = 0;
  private n = -1;
  private pLine = 0;
  private declaredDiagonals = 0;
  private declaredElements = 0;
  /** Entry lines seen (valid or not) of each kind, and the first line past each declared count. */
  private diagonals = 0;
  private elements = 0;
  private firstExtraDiagonal = 0;
  private firstExtraElement = 0;
  private diagonal = new Float64Array(0);
  /** The line of each variable's diagonal entry, 0 while none. */
  private diagonalLine = new Int32Array(0);
  private readonly entries = new EntryBuffer();
  /** Σ|value| over the entries. */
  private total = 0;
  private readonly errors = new ErrorList();
  private firstMessage = '';
  /** The first three tokens' [start, end) of the line being parsed. */
  private readonly bounds = new Int32Array(6);

  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  finish(): QuboInput {
    this.lines.end();
    if (this.n < 0) {
      if (this.line === 0) throw new InputError('The file is empty.', [{ pointer: '', detail: 'the file is empty' }]);
      const detail = `expected ${P_LINE}, found only comments and blank lines`;
      throw new InputError(`The file has no p line ${P_LINE}.`, [{ pointer: '/line/1', detail }]);
    }
    this.checkCount('diagonal entries', this.declaredDiagonals, this.diagonals, this.firstExtraDiagonal);
    this.checkCount('elements', this.declaredElements, this.elements, this.firstExtraElement);
    this.entries.sort(this.n);
    this.entries.findRepeats((line, detail) => this.report(line, detail));
    if (this.errors.total > 0) throw this.errors.error(this.firstMessage);
    if (!Number.isFinite(this.total))
      throw new InputError(TOTAL_WEIGHT_MESSAGE, [{ pointer: '', detail: TOTAL_WEIGHT_DETAIL }]);
    return { n: this.n, diagonal: this.diagonal, ...this.entries.couplings(this.n) };
  }

  private checkCount(what: string, declared: number, found: number, firstExtra: number): void {
    if (found === declared) return;
    const detail = `the p line says ${declared} ${what} but the file has ${found}`;
    this.report(found < declared ? this.pLine : firstExtra, detail);
  }

  /** Notes a problem on `line`; the first one's message is the error's (`Line N: detail.`). */
  private report(line: number, detail: string, message = `Line ${line}: ${detail}.`): void {
    if (this.errors.total === 0) this.firstMessage = message;
    this.errors.add(`/line/${line}`, detail);
    if (this.errors.full) throw this.errors.error(this.firstMessage);
  }

  /** One line, bytes [start, end) without its LF. */
  private parseLine(buf: Uint8Array, start: number, end: number): void {
    const line = ++this.line;
    if (end - start > MAX_LINE_BYTES) throw lineTooLong(line); // as for a line split across chunks
    if (end > start && buf[end - 1] === CR) end--;
    const bounds = this.bounds;
    let count = 0;
    let p = start;
    while (p < end) {
      let c = buf[p]!;
      if (c === SPACE || c === TAB) {
        p++;
        continue;
      }
      if (count === 0 && c === C) return; // a comment
      const s = p;
      while (p < end && (c = buf[p]!) !== SPACE && c !== TAB) p++;
      if (count < 3) {
        bounds[2 * count] = s;
        bounds[2 * count + 1] = p;
      }
      count++;
    }
    if (count === 0) return;
    const s0 = bounds[0]!,
      e0 = bounds[1]!,
      s1 = bounds[2]!,
      e1 = bounds[3]!,
      s2 = bounds[4]!,
      e2 = bounds[5]!;
    const isP = e0 - s0 === 1 && buf[s0] === 112; /* p */
    if (this.n < 0) {
      if (!isP) {
        const detail = `expected the ${P_LINE} line before any entry, found ${quote(buf, start, end)}`;
        throw new InputError(`Line ${line}: ${detail}.`, [{ pointer: `/line/${line}`, detail }]);
      }
      this.parsePLine(buf, start, end, line, count);
      return;
    }
    if (isP) {
      this.report(line, `a second p line (the first is line ${this.pLine})`);
      return;
    }
    // Counted even when invalid, so that one bad line does not also break the count.
    const first = unsigned(buf, s0, e0);
    if (count > 1 && first >= 0 && first === unsigned(buf, s1, e1)) {
      if (this.diagonals++ === this.declaredDiagonals) this.firstExtraDiagonal = line;
    } else if (this.elements++ === this.declaredElements) this.firstExtraElement = line;
    if (count !== 3) {
      this.report(line, `expected "i j value", found ${quote(buf, start, end)}`);
      return;
    }
    const i = this.variable(buf, s0, e0, start, end, line);
    if (i < 0) return;
    const j = this.variable(buf, s1, e1, start, end, line);
    if (j < 0) return;
    const value = decimal(buf, s2, e2);
    if (Number.isNaN(value)) {
      this.report(
        line,
        `value ${quote(buf, s2, e2)} is not a number`,
        `Line ${line}: expected "i j value" with a numeric value, found ${quote(buf, start, end)}.`,
      );
      return;
    }
    if (!Number.isFinite(value)) {
      const text = ascii(buf, s2, e2);
      this.report(line, `${text} is not a finite number`, `Line ${line}: the value ${text} is not a finite number.`);
      return;
    }
    this.total += Math.abs(value);
    if (i !== j) {
      this.entries.push(i, j, value, line);
      return;
    }
    const earlier = this.diagonalLine[i]!;
    if (earlier !== 0) {
      this.report(line, `the entry (${i}, ${i}) is given twice, on lines ${earlier} and ${line}`);
      return;
    }
    this.diagonalLine[i] = line;
    this.diagonal[i] = value;
  }

  private parsePLine(buf: Uint8Array, start: number, end: number, line: number, count: number): void {
    const tokens =
      count === 6
        ? decoder
            .decode(buf.subarray(start, end))
            .trim()
            .split(/[ \t]+/)
        : [];
    const [, format, topology, ...counts] = tokens;
    const [n, diagonals, elements] = counts.map((t) => (/^\d+$/.test(t) ? Number(t) : -1)) as [number, number, number];
    let detail = '';
    if (format !== 'qubo' || n < 0 || diagonals < 0 || elements < 0 || !/^\d+$/.test(topology!))
      detail = `expected ${P_LINE} with counts as integers, found ${quote(buf, start, end)}`;
    else if (topology !== '0') detail = `the topology must be 0 (unconstrained), found ${topology}`;
    else if (n < 1) detail = 'maxDiagonals (the number of variables) must be at least 1';
    else if (n > maxVariables) detail = tooManyVariablesDetail(counts[0]!);
    else if (diagonals > n) detail = `nDiagonals ${diagonals} is more than maxDiagonals ${n}`;
    else if (elements > n * (n - 1)) detail = `nElements ${elements} is more than the ${n * (n - 1)} pairs i ≠ j`;
    else if (diagonals + elements > mostEntryLines(maxDataFileBytes))
      detail = `nDiagonals + nElements ${diagonals + elements} is more than a data file of at most ${maxDataFileBytes} bytes can hold (at most ${mostEntryLines(maxDataFileBytes)} lines "i j value")`;
    if (detail !== '') throw new InputError(`Line ${line}: ${detail}.`, [{ pointer: `/line/${line}`, detail }]);
    this.n = n;
    this.pLine = line;
    this.declaredDiagonals = diagonals;
    this.declaredElements = elements;
    this.diagonal = new Float64Array(n);
    this.diagonalLine = new Int32Array(n);
  }

  /** A 0-based variable number in range, or -1 after reporting the problem. */
  private variable(buf: Uint8Array, s: number, e: number, start: number, end: number, line: number): number {
    const v = unsigned(buf, s, e);
    if (v < 0) {
      this.report(
        line,
        `${quote(buf, s, e)} is not a variable number`,
        `Line ${line}: expected "i j value" with integer variable numbers, found ${quote(buf, start, end)}.`,
      );
      return -1;
    }
    if (v >= this.n) {
      this.report(line, `variable ${ascii(buf, s, e)} is out of range 0..${this.n - 1}`);
      return -1;
    }
    return v;
  }
}
