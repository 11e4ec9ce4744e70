// A tournament tree over n keys: the index of the largest key in O(1), a key change in O(log n). Works for
// any real keys (so for any real edge weights), where a bucket structure would need integer gains.
// -Infinity takes a key out of the running; when every key is -Infinity, `top()` returns -1.

export class MaxTree {
  readonly keys: Float64Array;
  readonly #winner: Int32Array;
  readonly #leaves: number;

  constructor(n: number) {
    let leaves = 1;
    while (leaves < n) leaves *= 2;
    this.#leaves = leaves;
    this.keys = new Float64Array(leaves).fill(-Infinity);
    this.#winner = new Int32Array(2 * leaves);
    for (let i = 0; i < leaves; i++) this.#winner[leaves + i] = i;
    this.rebuild();
  }

  /** Recomputes every inner node after `keys` was written directly: O(n). */
  rebuild(): void {
    const winner = this.#winner, keys = this.keys;
    for (let p = this.#leaves - 1; p >= 1; p--) {
      const l = winner[2 * p]!, r = winner[2 * p + 1]!;
      winner[p] = keys[l]! >= keys[r]! ? l : r;
    }
  }

  set(i: number, key: number): void {
    const winner = this.#winner, keys = this.keys;
    keys[i] = key;
    for (let p = (this.#leaves + i) >> 1; p >= 1; p >>= 1) {
      const l = winner[2 * p]!, r = winner[2 * p + 1]!;
      winner[p] = keys[l]! >= keys[r]! ? l : r;
    }
  }

  /** The index of a largest key, or -1 when all are -Infinity. */
  top(): number {
    const i = this.#winner[1]!;
    return this.keys[i] === -Infinity ? -1 : i;
  }
}
