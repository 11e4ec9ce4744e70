// A weighted undirected graph in compressed sparse row (CSR) form: the one representation every parser
// produces and every solver reads. Typed arrays, so it crosses to worker threads without copying each edge.

export interface Graph {
  /** Number of nodes, numbered 0..n-1. */
  readonly n: number;
  /** Number of undirected edges with a non-zero weight (each appears twice in the arrays below). */
  readonly edges: number;
  /** Length n + 1: the neighbours of node i are targets[offsets[i] .. offsets[i + 1] - 1]. */
  readonly offsets: Int32Array;
  /** Neighbour of each adjacency entry. */
  readonly targets: Int32Array;
  /** Weight of each adjacency entry (finite, non-zero). */
  readonly weights: Float64Array;
}

/** The weight of the edges whose ends are in different parts of `partition` (one 0/1 entry per node). */
export function cutValue(graph: Graph, partition: ArrayLike<number>): number {
  let cut = 0;
  for (let i = 0; i < graph.n; i++) {
    for (let k = graph.offsets[i]!; k < graph.offsets[i + 1]!; k++) {
      const j = graph.targets[k]!;
      if (j > i && partition[i] !== partition[j]) cut += graph.weights[k]!;
    }
  }
  return cut;
}

/** Why a graph is refused though every weight is finite: its weights sum past a double, and so could a cut. */
export const TOTAL_WEIGHT_MESSAGE =
  'The absolute weights must sum to a finite number (below about 1.8e308), or a cut could not be represented.';

/** The largest cut any partition could reach, Σ|w| over the edges: Infinity when the weights overflow a double. */
export function absoluteWeight(graph: Graph): number {
  let total = 0;
  for (let i = 0; i < graph.n; i++) {
    for (let k = graph.offsets[i]!; k < graph.offsets[i + 1]!; k++)
      if (graph.targets[k]! > i) total += Math.abs(graph.weights[k]!);
  }
  return total;
}

/**
 * Builds a graph from undirected edges (0-based ends, edge e = from[e]–to[e] with weight[e]). Self-loops
 * and zero weights are dropped; repeated edges between the same two nodes are merged by adding their
 * weights in input order (and dropped if the sum is zero). Each row comes out sorted by neighbour.
 *
 * Two stable counting sorts (by neighbour, then by node) put the repeats of an edge next to each other,
 * in input order, in both of its rows, so both rows add them in the same order and agree exactly. Typed
 * arrays only: no per-edge objects, no map of pairs (which tops out near 16.7M entries).
 */
export function graphFromEdges(
  n: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  weight: ArrayLike<number>,
): Graph {
  const count = from.length;
  const real = (e: number) => from[e] !== to[e] && weight[e] !== 0;
  // Entry k is edge k >> 1 seen from `from` (k even) or from `to` (k odd); each node has one entry per
  // edge end, so the row sizes are the same whether entries are grouped by node or by neighbour.
  const offsets = new Int32Array(n + 1);
  for (let e = 0; e < count; e++) {
    if (!real(e)) continue;
    offsets[from[e]! + 1]!++;
    offsets[to[e]! + 1]!++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const size = offsets[n]!;

  const byNeighbour = new Int32Array(size);
  const fill = offsets.slice(0, n);
  for (let e = 0; e < count; e++) {
    if (!real(e)) continue;
    byNeighbour[fill[to[e]!]!++] = 2 * e;
    byNeighbour[fill[from[e]!]!++] = 2 * e + 1;
  }
  let targets = new Int32Array(size);
  let weights = new Float64Array(size);
  fill.set(offsets.subarray(0, n));
  for (let x = 0; x < size; x++) {
    const k = byNeighbour[x]!;
    const e = k >> 1;
    const even = (k & 1) === 0;
    const at = fill[even ? from[e]! : to[e]!]!++;
    targets[at] = even ? to[e]! : from[e]!;
    weights[at] = weight[e]!;
  }

  // Merge runs of the same neighbour in place.
  let out = 0;
  let rowStart = 0;
  for (let i = 0; i < n; i++) {
    const rowEnd = offsets[i + 1]!;
    offsets[i] = out;
    let p = rowStart;
    while (p < rowEnd) {
      const t = targets[p]!;
      let w = weights[p++]!;
      while (p < rowEnd && targets[p] === t) w += weights[p++]!;
      if (w !== 0) {
        targets[out] = t;
        weights[out++] = w;
      }
    }
    rowStart = rowEnd;
  }
  offsets[n] = out;
  if (out < size) {
    targets = targets.slice(0, out);
    weights = weights.slice(0, out);
  }
  return { n, edges: out / 2, offsets, targets, weights };
}
