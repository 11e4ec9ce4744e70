// A streaming parser for the Gset/rudy weighted edge list: a header line `n m`, then m lines `i j w`
// (1-based nodes, any finite weight). Reads bytes chunk by chunk (never the file as one string), collects
// the edges in growable typed arrays and builds the CSR directly, merging repeated edges. Nothing is sized by
// the header's counts: the edges arrays grow with the lines read, and counts no data file could hold are refused
// before any line is.
import { type Graph, graphFromEdges } from './graph.ts';
import { ErrorList, InputError } from '../input-error.ts';
import { ascii, decimal, LineSplitter, quote, SPACE, TAB, unsigned } from '../read/text-lines.ts';
import { maxDataFileBytes, maxNodes, tooManyNodesDetail } from './limits.ts';

const CR = 13;

/**
 * The most lines of three tokens ("i j w", "i j value") `bytes` bytes can hold: each takes at least 5 bytes and a
 * line feed, but for the last. The QUBO text format's lines are as short.
 */
export function mostEntryLines(bytes: number): number {
  return Math.floor((bytes + 1) / 6);
}

/** Reads an edge list from a stream of bytes. Throws InputError with `/line/<n>` pointers (1-based). */
export async function graphFromEdgeList(chunks: AsyncIterable<Uint8Array>): Promise<Graph> {
  const reader = new EdgeListReader();
  for await (const chunk of chunks) reader.push(chunk);
  return reader.finish();
}

class EdgeListReader {
  private readonly lines = new LineSplitter((buf, start, end) => this.parseLine(buf, start, end));
  private line = 0;
  private n = -1;
  private declared = 0;
  private headerLine = 0;
  /** Edge lines seen (valid or not), and the first line past the declared count. */
  private edgeLines = 0;
  private firstExtraLine = 0;
  private readonly errors = new ErrorList();
  private firstMessage = '';
  private readonly edges = new EdgeBuffer();

  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  finish(): Graph {
    this.lines.end();
    if (this.n < 0) {
      if (this.line === 0) throw new InputError('The file is empty.', [{ pointer: '', detail: 'the file is empty' }]);
      throw new InputError('The file has no header line "n m": it holds only blank lines.', [
        { pointer: '/line/1', detail: 'expected "n m" (node and edge counts), found only blank lines' },
      ]);
    }
    if (this.edgeLines !== this.declared) {
      const detail = `the header says ${this.declared} edges but the file has ${this.edgeLines}`;
      const line = this.edgeLines < this.declared ? this.headerLine : this.firstExtraLine;
      this.report(line, detail, `Line ${line}: ${detail}.`);
    }
    if (this.errors.total > 0) throw this.errors.error(this.firstMessage);
    return this.edges.build(this.n);
  }

  private report(line: number, detail: string, message: string): void {
    if (this.errors.total === 0) this.firstMessage = message;
    this.errors.add(`/line/${line}`, detail);
    if (this.errors.full) throw this.errors.error(this.firstMessage);
  }

  /** One line, bytes [start, end) without its LF. */
  private parseLine(buf: Uint8Array, start: number, end: number): void {
    const line = ++this.line;
    if (end > start && buf[end - 1] === CR) end--;
    // Up to four tokens: [s0, e0, s1, e1, s2, e2, s3, e3].
    let count = 0;
    let s0 = 0,
      e0 = 0,
      s1 = 0,
      e1 = 0,
      s2 = 0,
      e2 = 0;
    let p = start;
    while (p < end) {
      let c = buf[p]!;
      if (c === SPACE || c === TAB) {
        p++;
        continue;
      }
      const s = p;
      while (p < end && (c = buf[p]!) !== SPACE && c !== TAB) p++;
      if (count === 0) {
        s0 = s;
        e0 = p;
      } else if (count === 1) {
        s1 = s;
        e1 = p;
      } else if (count === 2) {
        s2 = s;
        e2 = p;
      }
      count++;
    }
    if (count === 0) return;

    if (this.n < 0) {
      this.parseHeader(buf, start, end, line, count, s0, e0, s1, e1);
      return;
    }
    if (this.edgeLines++ >= this.declared) {
      if (this.firstExtraLine === 0) this.firstExtraLine = line;
      return;
    }
    if (count !== 3) {
      const found = quote(buf, start, end);
      this.report(line, `expected "i j w", found ${found}`, `Line ${line}: expected "i j w", found ${found}.`);
      return;
    }
    const i = this.node(buf, s0, e0, start, end, line);
    if (i < 0) return;
    const j = this.node(buf, s1, e1, start, end, line);
    if (j < 0) return;
    const w = decimal(buf, s2, e2);
    if (Number.isNaN(w)) {
      const found = quote(buf, start, end);
      this.report(
        line,
        `weight ${quote(buf, s2, e2)} is not a number`,
        `Line ${line}: expected "i j w" with a numeric weight, found ${found}.`,
      );
      return;
    }
    if (!Number.isFinite(w)) {
      const text = ascii(buf, s2, e2);
      this.report(line, `${text} is not a finite number`, `Line ${line}: the weight ${text} is not a finite number.`);
      return;
    }
    if (i !== j && w !== 0) this.edges.push(i - 1, j - 1, w);
  }

  private parseHeader(
    buf: Uint8Array,
    start: number,
    end: number,
    line: number,
    count: number,
    s0: number,
    e0: number,
    s1: number,
    e1: number,
  ): void {
    const n = count === 2 ? unsigned(buf, s0, e0) : -1;
    const m = count === 2 ? unsigned(buf, s1, e1) : -1;
    let detail = '';
    if (n < 0 || m < 0) detail = `expected "n m" (node and edge counts), found ${quote(buf, start, end)}`;
    else if (n < 1) detail = 'the graph must have at least 1 node';
    else if (n > maxNodes) detail = tooManyNodesDetail(ascii(buf, s0, e0));
    else if (m > mostEntryLines(maxDataFileBytes))
      detail = `${ascii(buf, s1, e1)} edges is more than a data file of at most ${maxDataFileBytes} bytes can hold (at most ${mostEntryLines(maxDataFileBytes)} lines "i j w")`;
    if (detail !== '') throw new InputError(`Line ${line}: ${detail}.`, [{ pointer: `/line/${line}`, detail }]);
    this.n = n;
    this.declared = m;
    this.headerLine = line;
  }

  /** A 1-based node number in range, or -1 after reporting the problem. */
  private node(buf: Uint8Array, s: number, e: number, start: number, end: number, line: number): number {
    const v = unsigned(buf, s, e);
    if (v < 0) {
      const found = quote(buf, start, end);
      this.report(
        line,
        `node ${quote(buf, s, e)} is not a node number`,
        `Line ${line}: expected "i j w" with integer node numbers, found ${found}.`,
      );
      return -1;
    }
    if (v < 1 || v > this.n) {
      const detail = `node ${ascii(buf, s, e)} is out of range 1..${this.n}`;
      this.report(line, detail, `Line ${line}: ${detail}.`);
      return -1;
    }
    return v;
  }
}

/** Edges (0-based ends) in growable typed arrays, and the CSR built from them. */
class EdgeBuffer {
  private from = new Int32Array(0);
  private to = new Int32Array(0);
  private weight = new Float64Array(0);
  private count = 0;

  push(a: number, b: number, w: number): void {
    if (this.count === this.from.length) this.resize(Math.max(1024, this.count * 2));
    this.from[this.count] = a;
    this.to[this.count] = b;
    this.weight[this.count++] = w;
  }

  private resize(capacity: number): void {
    const from = new Int32Array(capacity),
      to = new Int32Array(capacity),
      weight = new Float64Array(capacity);
    from.set(this.from.subarray(0, this.count));
    to.set(this.to.subarray(0, this.count));
    weight.set(this.weight.subarray(0, this.count));
    this.from = from;
    this.to = to;
    this.weight = weight;
  }

  /** The CSR of the edges pushed so far (see graphFromEdges). */
  build(n: number): Graph {
    const { count } = this;
    return graphFromEdges(n, this.from.subarray(0, count), this.to.subarray(0, count), this.weight.subarray(0, count));
  }
}
