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

/**
 * Builds a graph from undirected edges (0-based ends). Self-loops and zero weights are dropped; repeated
 * edges between the same two nodes are merged by adding their weights (and dropped if the sum is zero).
 */
export function graphFromEdges(n: number, from: ArrayLike<number>, to: ArrayLike<number>, weight: ArrayLike<number>): Graph {
  const merged = new Map<number, number>();
  for (let e = 0; e < from.length; e++) {
    const a = from[e]!, b = to[e]!, w = weight[e]!;
    if (a === b || w === 0) continue;
    const key = a < b ? a * n + b : b * n + a;
    merged.set(key, (merged.get(key) ?? 0) + w);
  }
  const degree = new Int32Array(n + 1);
  let edges = 0;
  for (const [key, w] of merged) {
    if (w === 0) continue;
    edges++;
    degree[Math.floor(key / n)]!++;
    degree[key % n]!++;
  }
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + degree[i]!;
  const fill = offsets.slice(0, n);
  const targets = new Int32Array(2 * edges);
  const weights = new Float64Array(2 * edges);
  for (const [key, w] of merged) {
    if (w === 0) continue;
    const a = Math.floor(key / n), b = key % n;
    targets[fill[a]!] = b; weights[fill[a]!++] = w;
    targets[fill[b]!] = a; weights[fill[b]!++] = w;
  }
  return { n, edges, offsets, targets, weights };
}
