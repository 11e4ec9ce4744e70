// A streaming parser for the Gset/rudy weighted edge list: a header line `n m`, then m lines `i j w`
// (1-based nodes, any finite weight). Reads bytes chunk by chunk (never the file as one string), collects
// the edges in growable typed arrays and builds the CSR directly, merging repeated edges. Nothing is sized by
// the header's counts: the edges arrays grow with the lines read, and counts no data file could hold are refused
// before any line is.
import { type Graph, graphFromEdges } from './graph.ts';
import { InputError } from '../input-error.ts';
import { type ChunkReader, emptyFile, readChunks } from '../read/chunk-reader.ts';
import { DeclaredCount, LineErrors, lineError, moreLinesThanFit } from '../read/line-errors.ts';
import { ascii, LineSplitter, mostEntryLines, quote, tokens, unsigned } from '../read/text-lines.ts';
import { maxDataFileBytes, maxNodes, tooManyNodesDetail } from './limits.ts';

/** Reads an edge list from a stream of bytes. Throws InputError with `/line/<n>` pointers (1-based). */
export function graphFromEdgeList(chunks: AsyncIterable<Uint8Array>): Promise<Graph> {
  return readChunks(chunks, new EdgeListReader());
}

class EdgeListReader implements ChunkReader<Graph> {
  private readonly lines = new LineSplitter((buf, start, end, line) => this.parseLine(buf, start, end, line));
  private n = -1;
  private headerLine = 0;
  private readonly edgeLines = new DeclaredCount();
  private readonly errors = new LineErrors('"i j w"', 'weight');
  private readonly edges = new EdgeBuffer();
  /** The first three tokens' [start, end) of the line being parsed. */
  private readonly bounds = new Int32Array(6);

  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  finish(): Graph {
    this.lines.end();
    if (this.n < 0) {
      if (this.lines.count === 0) throw emptyFile();
      throw new InputError('The file has no header line "n m": it holds only blank lines.', [
        { pointer: '/line/1', detail: 'expected "n m" (node and edge counts), found only blank lines' },
      ]);
    }
    this.errors.checkCount('the header', 'edges', this.edgeLines, this.headerLine);
    this.errors.throwIfAny();
    return this.edges.build(this.n);
  }

  /** One line, bytes [start, end) without its line ending. */
  private parseLine(buf: Uint8Array, start: number, end: number, line: number): void {
    const bounds = this.bounds;
    const count = tokens(buf, start, end, bounds);
    if (count === 0) return;
    if (this.n < 0) {
      this.parseHeader(buf, start, end, line, count);
      return;
    }
    if (!this.edgeLines.add(line)) return;
    if (count !== 3) {
      this.errors.wrongLayout(line, buf, start, end);
      return;
    }
    const i = this.node(buf, bounds[0]!, bounds[1]!, start, end, line);
    if (i < 0) return;
    const j = this.node(buf, bounds[2]!, bounds[3]!, start, end, line);
    if (j < 0) return;
    const w = this.errors.entryValue(line, buf, bounds[4]!, bounds[5]!, start, end);
    if (Number.isNaN(w)) return;
    if (i !== j && w !== 0) this.edges.push(i - 1, j - 1, w);
  }

  private parseHeader(buf: Uint8Array, start: number, end: number, line: number, count: number): void {
    const [s0, e0, s1, e1] = this.bounds;
    const n = count === 2 ? unsigned(buf, s0!, e0!) : -1;
    const m = count === 2 ? unsigned(buf, s1!, e1!) : -1;
    let detail = '';
    if (n < 0 || m < 0) detail = `expected "n m" (node and edge counts), found ${quote(buf, start, end)}`;
    else if (n < 1) detail = 'the graph must have at least 1 node';
    else if (n > maxNodes) detail = tooManyNodesDetail(ascii(buf, s0!, e0!));
    else if (m > mostEntryLines(maxDataFileBytes))
      detail = moreLinesThanFit(`${ascii(buf, s1!, e1!)} edges`, maxDataFileBytes, '"i j w"');
    if (detail !== '') throw lineError(line, detail);
    this.n = n;
    this.edgeLines.declared = m;
    this.headerLine = line;
  }

  /** A 1-based node number in range, or -1 after reporting the fault. */
  private node(buf: Uint8Array, s: number, e: number, start: number, end: number, line: number): number {
    const v = unsigned(buf, s, e);
    if (v < 0) {
      this.errors.notAnIndex(line, `node ${quote(buf, s, e)} is not a node number`, 'node', buf, start, end);
      return -1;
    }
    if (v < 1 || v > this.n) {
      this.errors.report(line, `node ${ascii(buf, s, e)} is out of range 1..${this.n}`);
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
