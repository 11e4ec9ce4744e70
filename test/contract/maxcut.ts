// Small reference computations for checking the contract's examples.

/** The weight of the edges whose ends are in different parts (upper triangle; the diagonal never counts). */
export function cutValue(matrix: number[][], partition: number[]): number {
  let cut = 0;
  for (let i = 0; i < matrix.length; i++) {
    for (let j = i + 1; j < matrix.length; j++) if (partition[i] !== partition[j]) cut += matrix[i]![j]!;
  }
  return cut;
}

/** The maximum cut by enumerating every partition (node 0 fixed in part 0). For tiny graphs only. */
export function bruteForceMaxCut(matrix: number[][]): number {
  const n = matrix.length;
  let best = -Infinity;
  for (let mask = 0; mask < 1 << Math.max(n - 1, 0); mask++) {
    const partition = Array.from({ length: n }, (_, i) => (i === 0 ? 0 : (mask >> (i - 1)) & 1));
    best = Math.max(best, cutValue(matrix, partition));
  }
  return best;
}

/** An RFC 3339 instant in the documented `MM/DD/YYYY, HH:MM:SS` form (UTC). */
export function formatTimestamp(rfc3339: string | null | undefined): string | undefined {
  if (!rfc3339) return undefined;
  const d = new Date(rfc3339);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}
