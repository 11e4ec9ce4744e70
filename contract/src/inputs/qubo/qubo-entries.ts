// The off-diagonal entries of a .qubo file as they are read, and the couplings they make: sorted by pair, a
// pair's entries sit side by side, which shows an entry given twice and sums Q[i][j] + Q[j][i] into W_ij.
import type { QuboInput } from './input.ts';

/**
 * The off-diagonal entries (i, j, value, line) in growable typed arrays. Sorted by pair (min, max) with two stable
 * counting sorts, the entries of a pair are adjacent, in input order: Q[i][j] and Q[j][i] at most, once each.
 */
export class EntryBuffer {
  private from = new Int32Array(0);
  private to = new Int32Array(0);
  private value = new Float64Array(0);
  private line = new Int32Array(0);
  private count = 0;
  /** The entries' indices sorted by (min, max), then by input order (once sorted). */
  private order = new Int32Array(0);

  push(i: number, j: number, value: number, line: number): void {
    if (this.count === this.from.length) this.resize(Math.max(1024, this.count * 2));
    this.from[this.count] = i;
    this.to[this.count] = j;
    this.value[this.count] = value;
    this.line[this.count++] = line;
  }

  private resize(capacity: number): void {
    const from = new Int32Array(capacity),
      to = new Int32Array(capacity),
      value = new Float64Array(capacity),
      line = new Int32Array(capacity);
    from.set(this.from.subarray(0, this.count));
    to.set(this.to.subarray(0, this.count));
    value.set(this.value.subarray(0, this.count));
    line.set(this.line.subarray(0, this.count));
    this.from = from;
    this.to = to;
    this.value = value;
    this.line = line;
  }

  /** Sorts the entries (every index < n) by max then, stably, by min. */
  sort(n: number): void {
    const { from, to, count } = this;
    const byHigh = new Int32Array(count);
    const starts = new Int32Array(n + 1);
    for (let e = 0; e < count; e++) starts[Math.max(from[e]!, to[e]!) + 1]!++;
    for (let i = 0; i < n; i++) starts[i + 1]! += starts[i]!;
    for (let e = 0; e < count; e++) byHigh[starts[Math.max(from[e]!, to[e]!)]!++] = e;
    starts.fill(0);
    for (let e = 0; e < count; e++) starts[Math.min(from[e]!, to[e]!) + 1]!++;
    for (let i = 0; i < n; i++) starts[i + 1]! += starts[i]!;
    const order = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const e = byHigh[k]!;
      order[starts[Math.min(from[e]!, to[e]!)]!++] = e;
    }
    this.order = order;
  }

  /** Whether sorted entries a and b are the same pair, in either order. */
  private samePair(a: number, b: number): boolean {
    const { from, to } = this;
    return (from[a] === from[b] && to[a] === to[b]) || (from[a] === to[b] && to[a] === from[b]);
  }

  /** After sort(): calls `report` for each entry whose (i, j) an earlier line already gave, naming both lines. */
  findRepeats(report: (line: number, detail: string) => void): void {
    const { order, from, to, line } = this;
    for (let k = 1; k < order.length; k++) {
      const b = order[k]!;
      for (let q = k - 1; q >= 0 && this.samePair(order[q]!, b); q--) {
        const a = order[q]!;
        if (from[a] === from[b]) {
          report(line[b]!, `the entry (${from[b]}, ${to[b]}) is given twice, on lines ${line[a]} and ${line[b]}`);
          break;
        }
      }
    }
  }

  /** After sort(), with no repeats: the upper-triangle CSR of W_ij (a pair's values summed, zeros dropped). */
  couplings(n: number): Pick<QuboInput, 'offsets' | 'columns' | 'couplings'> {
    const { order, from, to, value } = this;
    const offsets = new Int32Array(n + 1);
    let size = 0;
    for (let k = 0; k < order.length;) {
      const a = order[k++]!;
      let w = value[a]!;
      if (k < order.length && this.samePair(a, order[k]!)) w += value[order[k++]!]!;
      if (w !== 0) {
        offsets[Math.min(from[a]!, to[a]!) + 1]!++;
        size++;
      }
    }
    for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
    const columns = new Int32Array(size);
    const couplings = new Float64Array(size);
    let at = 0;
    for (let k = 0; k < order.length;) {
      const a = order[k++]!;
      let w = value[a]!;
      if (k < order.length && this.samePair(a, order[k]!)) w += value[order[k++]!]!;
      if (w !== 0) {
        columns[at] = Math.max(from[a]!, to[a]!);
        couplings[at++] = w;
      }
    }
    return { offsets, columns, couplings };
  }
}
