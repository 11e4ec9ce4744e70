// Reference computations for the max-cut use case: the optimum by enumeration (by the cut of a partition, as
// @jes/contract computes it), and graphs as the two input formats (the inline matrix and the Gset/rudy edge list).
import { cutValue } from '@jes/contract';

export interface Graph {
  num_nodes: number;
  adj_matrix: number[][];
}

/** The maximum cut by enumerating every partition (node 0 fixed in part 0). For graphs of at most ~20 nodes. */
export function bruteForceMaxCut(matrix: number[][]): number {
  const n = matrix.length;
  let best = -Infinity;
  for (let mask = 0; mask < 1 << Math.max(n - 1, 0); mask++) {
    const partition = Array.from({ length: n }, (_, i) => (i === 0 ? 0 : (mask >> (i - 1)) & 1));
    best = Math.max(best, cutValue(matrix, partition));
  }
  return best;
}

/** The graph as an edge list: `n m`, then `i j w` per non-zero edge with 1-based nodes. */
export function edgeList(graph: Graph): string {
  const edges: string[] = [];
  for (let i = 0; i < graph.num_nodes; i++) {
    for (let j = i + 1; j < graph.num_nodes; j++) {
      const w = graph.adj_matrix[i]![j]!;
      if (w !== 0) edges.push(`${i + 1} ${j + 1} ${w}`);
    }
  }
  return `${graph.num_nodes} ${edges.length}\n${edges.join('\n')}\n`;
}

/** A symmetric graph from the upper-triangle weights `weight(i, j)`. */
export function graphOf(n: number, weight: (i: number, j: number) => number): Graph {
  const adj_matrix = Array.from({ length: n }, () => Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) adj_matrix[i]![j] = adj_matrix[j]![i] = weight(i, j);
  }
  return { num_nodes: n, adj_matrix };
}
