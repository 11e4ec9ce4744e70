// The graphs of the jobs this tab started: the API serves a job's output but not its input, so the dashboard
// keeps the graph it sent (an inline input, or an edge list it uploaded) to draw the answer on. Kept in
// sessionStorage with the token; a graph too large to keep is simply not drawn (the page shows a summary).
export interface Graph {
  nodes: number;
  /** Edges as [u, v, weight] triples, flat. */
  edges: number[];
}

const key = (kind: 'job' | 'file', id: string) => `jes.graph.${kind}.${id}`;

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

export function keep(kind: 'job' | 'file', id: string, graph: Graph | undefined): void {
  if (!graph) return;
  try {
    sessionStorage.setItem(key(kind, id), JSON.stringify(graph));
  } catch {
    // Over the storage quota: this graph is not drawn.
  }
}

export function kept(jobId: string, dataFile: string | undefined): Graph | undefined {
  const text =
    sessionStorage.getItem(key('job', jobId)) ?? (dataFile ? sessionStorage.getItem(key('file', dataFile)) : null);
  return text ? (JSON.parse(text) as Graph) : undefined;
}
