// A streaming reader for qbsolv's .qubo text: `c` comment lines anywhere, one `p qubo 0 maxDiagonals nDiagonals
// nElements` line before any entry, then nDiagonals lines `i i value` and nElements lines `i j value` (0-based,
// any order; `i j` with i > j is Q[i][j]). Reads bytes chunk by chunk, never the file as one string; the diagonal
// is filled as it is read, the other entries collected in qubo-entries.ts, which builds the couplings' CSR. The
// p line's counts size nothing: the entries grow with the lines read, and counts no data file could hold are
// refused before any line is.
import { InputError } from '../input-error.ts';
import { type ChunkReader, emptyFile, readChunks } from '../read/chunk-reader.ts';
import { DeclaredCount, LineErrors, lineError, moreLinesThanFit } from '../read/line-errors.ts';
import { ascii, LineSplitter, mostEntryLines, quote, tokens, unsigned } from '../read/text-lines.ts';
import { type QuboInput, TOTAL_WEIGHT_DETAIL, TOTAL_WEIGHT_MESSAGE } from './input.ts';
import { maxDataFileBytes, maxVariables, tooManyVariablesDetail } from './limits.ts';
import { EntryBuffer } from './qubo-entries.ts';

const C = 99;
const decoder = new TextDecoder();
const P_LINE = '"p qubo 0 maxDiagonals nDiagonals nElements"';

/** Reads a .qubo file from a stream of bytes. Throws InputError with `/line/<n>` pointers (1-based). */
export function quboFromQuboFile(chunks: AsyncIterable<Uint8Array>): Promise<QuboInput> {
  return readChunks(chunks, new QuboFileReader());
}

class QuboFileReader implements ChunkReader<QuboInput> {
  private readonly lines = new LineSplitter((buf, start, end, line) => this.parseLine(buf, start, end, line));
  private n = -1;
  private pLine = 0;
  /** The entry lines of each kind: `i i value` and `i j value`, i ≠ j. */
  private readonly diagonals = new DeclaredCount();
  private readonly elements = new DeclaredCount();
  private diagonal = new Float64Array(0);
  /** The line of each variable's diagonal entry, 0 while none. */
  private diagonalLine = new Int32Array(0);
  private readonly entries = new EntryBuffer();
  /** Σ|value| over the entries. */
  private total = 0;
  private readonly errors = new LineErrors('"i j value"', 'value');
  /** The first three tokens' [start, end) of the line being parsed. */
  private readonly bounds = new Int32Array(6);

  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  finish(): QuboInput {
    this.lines.end();
    if (this.n < 0) {
      if (this.lines.count === 0) throw emptyFile();
      const detail = `expected ${P_LINE}, found only comments and blank lines`;
      throw new InputError(`The file has no p line ${P_LINE}.`, [{ pointer: '/line/1', detail }]);
    }
    const { errors, pLine } = this;
    errors.checkCount('the p line', 'diagonal entries', this.diagonals, pLine);
    errors.checkCount('the p line', 'elements', this.elements, pLine);
    this.entries.sort(this.n);
    this.entries.findRepeats((line, detail) => errors.report(line, detail));
    errors.throwIfAny();
    if (!Number.isFinite(this.total))
      throw new InputError(TOTAL_WEIGHT_MESSAGE, [{ pointer: '', detail: TOTAL_WEIGHT_DETAIL }]);
    return { n: this.n, diagonal: this.diagonal, ...this.entries.couplings(this.n) };
  }

  /** One line, bytes [start, end) without its line ending. */
  private parseLine(buf: Uint8Array, start: number, end: number, line: number): void {
    const bounds = this.bounds;
    const count = tokens(buf, start, end, bounds);
    if (count === 0 || buf[bounds[0]!] === C) return; // blank, or a comment
    const s0 = bounds[0]!,
      e0 = bounds[1]!,
      s1 = bounds[2]!,
      e1 = bounds[3]!;
    const isP = e0 - s0 === 1 && buf[s0] === 112; /* p */
    if (this.n < 0) {
      if (!isP) throw lineError(line, `expected the ${P_LINE} line before any entry, found ${quote(buf, start, end)}`);
      this.parsePLine(buf, start, end, line, count);
      return;
    }
    if (isP) {
      this.errors.report(line, `a second p line (the first is line ${this.pLine})`);
      return;
    }
    // Counted even when invalid; an extra line is still read.
    const first = unsigned(buf, s0, e0);
    if (count > 1 && first >= 0 && first === unsigned(buf, s1, e1)) this.diagonals.add(line);
    else this.elements.add(line);
    if (count !== 3) {
      this.errors.wrongLayout(line, buf, start, end);
      return;
    }
    const i = this.variable(buf, s0, e0, start, end, line);
    if (i < 0) return;
    const j = this.variable(buf, s1, e1, start, end, line);
    if (j < 0) return;
    const value = this.errors.entryValue(line, buf, bounds[4]!, bounds[5]!, start, end);
    if (Number.isNaN(value)) return;
    this.total += Math.abs(value);
    if (i !== j) {
      this.entries.push(i, j, value, line);
      return;
    }
    const earlier = this.diagonalLine[i]!;
    if (earlier !== 0) {
      this.errors.report(line, `the entry (${i}, ${i}) is given twice, on lines ${earlier} and ${line}`);
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
      detail = moreLinesThanFit(`nDiagonals + nElements ${diagonals + elements}`, maxDataFileBytes, '"i j value"');
    if (detail !== '') throw lineError(line, detail);
    this.n = n;
    this.pLine = line;
    this.diagonals.declared = diagonals;
    this.elements.declared = elements;
    this.diagonal = new Float64Array(n);
    this.diagonalLine = new Int32Array(n);
  }

  /** A 0-based variable number in range, or -1 after reporting the fault. */
  private variable(buf: Uint8Array, s: number, e: number, start: number, end: number, line: number): number {
    const v = unsigned(buf, s, e);
    if (v < 0) {
      this.errors.notAnIndex(line, `${quote(buf, s, e)} is not a variable number`, 'variable', buf, start, end);
      return -1;
    }
    if (v >= this.n) {
      this.errors.report(line, `variable ${ascii(buf, s, e)} is out of range 0..${this.n - 1}`);
      return -1;
    }
    return v;
  }
}
