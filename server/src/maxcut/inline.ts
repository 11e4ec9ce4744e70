// The inline max-cut input (`{num_nodes, adj_matrix}`, already checked against the JSON Schema) to a
// Graph: the checks the schema cannot express (square, finite, symmetric), then the CSR built row by row.
import type { Graph } from './graph.ts';
import { ErrorList, InputError } from './input-error.ts';

export interface MaxCutInlineInput {
  num_nodes: number;
  adj_matrix: number[][];
}

/** The message of every shape error, inline and in a JSON data file. */
export function shapeMessage(n: number): string {
  return `adj_matrix must be num_nodes × num_nodes (${n} × ${n}).`;
}
export const FINITE_MESSAGE = 'adj_matrix entries must be finite numbers.';
export const SYMMETRIC_MESSAGE = 'adj_matrix must be symmetric.';

/**
 * Converts a schema-valid inline input to a Graph. Throws InputError when the matrix is not
 * num_nodes × num_nodes, holds a non-finite number (JSON.parse reads 1e400 as Infinity) or is not
 * symmetric; the diagonal is ignored (a self-loop never crosses a cut), and so are zero weights.
 */
export function graphFromInline(body: MaxCutInlineInput): Graph {
  const n = body.num_nodes;
  const matrix = body.adj_matrix;
  if (!Number.isInteger(n) || n < 1) {
    throw new InputError('num_nodes must be an integer ≥ 1.', [{ pointer: '/num_nodes', detail: `must be an integer ≥ 1, found ${String(n)}` }]);
  }

  const shape = new ErrorList();
  if (matrix.length !== n) shape.add('/adj_matrix', `adj_matrix has ${matrix.length} rows; expected ${n}`);
  for (let i = 0; i < matrix.length; i++) {
    const row: unknown = matrix[i];
    if (!Array.isArray(row)) shape.add(`/adj_matrix/${i}`, `row ${i} is not an array`);
    else if (row.length !== n) shape.add(`/adj_matrix/${i}`, `row ${i} has ${row.length} entries; expected ${n}`);
  }
  if (shape.total > 0) throw shape.error(shapeMessage(n));

  // One pass: finiteness of every entry, symmetry against the rows above, non-zero count per row.
  const notFinite = new ErrorList();
  const asymmetric = new ErrorList();
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    let count = 0;
    for (let j = 0; j < n; j++) {
      const v = row[j]!;
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        notFinite.add(`/adj_matrix/${i}/${j}`, typeof v === 'number' ? `${v} is not a finite number` : `${JSON.stringify(v)} is not a number`);
        continue;
      }
      if (j < i) {
        const u = matrix[j]![i]!;
        if (u !== v) asymmetric.add(`/adj_matrix/${j}/${i}`, `adj_matrix[${j}][${i}] = ${u} but adj_matrix[${i}][${j}] = ${v}`);
      }
      if (v !== 0 && j !== i) count++;
    }
    offsets[i + 1] = offsets[i]! + count;
  }
  if (notFinite.total > 0) throw notFinite.error(FINITE_MESSAGE);
  if (asymmetric.total > 0) throw asymmetric.error(SYMMETRIC_MESSAGE);

  // Symmetric, so row i holds exactly node i's neighbours, in increasing order.
  const size = offsets[n]!;
  const targets = new Int32Array(size);
  const weights = new Float64Array(size);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    for (let j = 0; j < n; j++) {
      const v = row[j]!;
      if (v !== 0 && j !== i) {
        targets[k] = j;
        weights[k++] = v;
      }
    }
  }
  return { n, edges: size / 2, offsets, targets, weights };
}
