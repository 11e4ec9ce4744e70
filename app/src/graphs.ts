// A max-cut job's graph, from its input as getJobInput answers it (the inline matrix, a JSON data file, or an
// edge list's text), in the compact form the drawing takes.
export interface Graph {
  nodes: number;
  /** Edges as [u, v, weight] triples, flat. */
  edges: number[];
}

export function fromMatrix(input: unknown): Graph | undefined {
  const { num_nodes: nodes, adj_matrix: matrix } = (input ?? {}) as { num_nodes?: unknown; adj_matrix?: unknown };
  if (typeof nodes !== 'number' || !Array.isArray(matrix)) return undefined;
  const edges: number[] = [];
  for (let i = 0; i < matrix.length; i++) {
    const row = matrix[i];
    if (!Array.isArray(row)) return undefined;
    for (let j = i + 1; j < row.length; j++) if (row[j]) edges.push(i, j, Number(row[j]));
  }
  return { nodes, edges };
}

/** A Gset/rudy edge list: a first line "nodes edges", then "u v weight" per edge, nodes numbered from 1. */
export function fromEdgeList(text: string): Graph | undefined {
  const lines = text.split('\n');
  const nodes = Number(lines[0]?.trim().split(/\s+/)[0]);
  if (!Number.isInteger(nodes) || nodes < 1) return undefined;
  const edges: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const [u, v, w = '1'] = lines[i]!.trim().split(/\s+/);
    if (u && v) edges.push(Number(u) - 1, Number(v) - 1, Number(w));
  }
  return { nodes, edges };
}

/** The graph of a max-cut input as getJobInput gives it: JSON (parsed) or an edge list's text. */
export function graphOf(input: unknown): Graph | undefined {
  return typeof input === 'string' ? fromEdgeList(input) : fromMatrix(input);
}
