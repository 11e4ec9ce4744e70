// The inline max-cut input (`{num_nodes, adj_matrix}`, already checked against the JSON Schema) to a
// Graph: the checks the schema cannot express (square, finite, symmetric) in one sweep, then, when the graph
// is needed, the CSR built row by row.
import { type Graph, TOTAL_WEIGHT_MESSAGE } from './graph.ts';
import { ErrorList, InputError } from '../input-error.ts';
import { checkInlineShape, finiteMessage, notFiniteDetail, type SquareMatrixForm } from '../read/square-matrix.ts';
import { maxNodes, tooManyNodes } from './limits.ts';

export interface MaxCutInlineInput {
  num_nodes: number;
  adj_matrix: number[][];
}

/** The members of a max-cut matrix, inline or in a JSON data file, and the limit on its size. */
export const MAX_CUT_MATRIX: SquareMatrixForm = {
  sizeKey: 'num_nodes',
  matrixKey: 'adj_matrix',
  maxSize: maxNodes,
  tooMany: tooManyNodes,
};
/** Shared with the JSON data file's reader (json-matrix.ts). */
export const SYMMETRIC_MESSAGE = 'adj_matrix must be symmetric.';

/** An inline input that passed every check, its graph not built yet (a job that stores the JSON text needs none). */
export interface CheckedInline {
  n: number;
  /** Non-zero edges: the graph's `edges`. */
  edges: number;
  /** absoluteWeight of the graph (Infinity when the weights overflow a double), summed in the same order. */
  absoluteWeight: number;
  /** The graph graphFromInline gives, built on each call. */
  graph(): Graph;
}

/**
 * Converts a schema-valid inline input to a Graph. Throws InputError when the matrix is not
 * num_nodes × num_nodes, holds a non-finite number (JSON.parse reads 1e400 as Infinity) or is not
 * symmetric; the diagonal is ignored (a self-loop never crosses a cut), and so are zero weights.
 */
export function graphFromInline(body: MaxCutInlineInput): Graph {
  return checkMatrix(body).graph();
}

/**
 * graphFromInline's checks, in one sweep over the matrix (a dense 4 MiB body is two million entries), without
 * building the graph. A matrix with a problem is checked again the slow way, which names every entry at fault.
 */
export function checkMatrix(body: MaxCutInlineInput): CheckedInline {
  const n = body.num_nodes;
  const matrix = body.adj_matrix;
  checkInlineShape(MAX_CUT_MATRIX, n, matrix);
  const offsets = new Int32Array(n + 1);
  const absoluteWeight = sweep(matrix, n, offsets);
  if (Number.isNaN(absoluteWeight)) {
    checkFinite(matrix, n);
    checkSymmetric(matrix, n);
    throw new Error('The sweep of an inline matrix found a problem the checks did not.');
  }
  return { n, edges: offsets[n]! / 2, absoluteWeight, graph: () => fill(matrix, n, offsets) };
}

/**
 * A deployment's whole verdict on an inline input: checkMatrix's checks, and one the matrix alone cannot make
 * (finite weights can still sum past a double, and so could a cut).
 */
export function checkMaxCutInline(body: MaxCutInlineInput): CheckedInline {
  const checked = checkMatrix(body);
  if (!Number.isFinite(checked.absoluteWeight))
    throw new InputError(TOTAL_WEIGHT_MESSAGE, [
      { pointer: '/adj_matrix', detail: 'the absolute weights sum past the largest double' },
    ]);
  return checked;
}

/**
 * Row by row, the entries from the diagonal on must be finite numbers; then the matrix must be symmetric (so the
 * entries left of the diagonal, equal to their mirrors, are finite numbers too). Fills the CSR offsets and returns
 * Σ|w| over the upper triangle in row order (absoluteWeight's order: zeros add nothing), or NaN at the first problem.
 */
function sweep(matrix: number[][], n: number, offsets: Int32Array): number {
  let total = 0;
  // Each row's edges left of the diagonal, counted from their mirrors above it (equal once symmetry is checked).
  const left = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    let count = left[i]!;
    const diagonal = row[i]!;
    if (typeof diagonal !== 'number' || !Number.isFinite(diagonal)) return Number.NaN;
    for (let j = i + 1; j < n; j++) {
      const v = row[j]!;
      if (typeof v !== 'number' || !Number.isFinite(v)) return Number.NaN;
      if (v !== 0) {
        count++;
        left[j]!++;
      }
      total += Math.abs(v);
    }
    offsets[i + 1] = offsets[i]! + count;
  }
  return symmetric(matrix, n) ? total : Number.NaN;
}

/** The side of the blocks symmetric() compares: two blocks of this many rows and columns stay in the CPU's cache. */
const block = 64;

/**
 * Whether matrix[i][j] === matrix[j][i] for all i ≠ j, compared block by block: entry by entry, the mirror of a row
 * is a column, one entry from each of n rows, and a dense 4 MiB matrix's rows do not all fit in the cache.
 */
function symmetric(matrix: number[][], n: number): boolean {
  for (let bi = 0; bi < n; bi += block) {
    const iEnd = Math.min(bi + block, n);
    for (let bj = 0; bj <= bi; bj += block) {
      for (let i = bi; i < iEnd; i++) {
        const row = matrix[i]!;
        const jEnd = Math.min(bj + block, i);
        for (let j = bj; j < jEnd; j++) if (row[j] !== matrix[j]![i]) return false;
      }
    }
  }
  return true;
}

// The slow checks, run only on a matrix with a problem: every entry at fault, in the order the input holds them.

/** Throws if an entry is not a finite number. */
function checkFinite(matrix: number[][], n: number): void {
  const notFinite = new ErrorList();
  for (let i = 0; i < n; i++) {
    const row = matrix[i]!;
    for (let j = 0; j < n; j++) {
      const v = row[j]!;
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        notFinite.add(`/adj_matrix/${i}/${j}`, notFiniteDetail(v));
      }
    }
  }
  if (notFinite.total > 0) throw notFinite.error(finiteMessage(MAX_CUT_MATRIX));
}

/** Throws unless matrix[j][i] === matrix[i][j] for all i ≠ j; pointers name the upper entry, rows in order. */
function checkSymmetric(matrix: number[][], n: number): void {
  const asymmetric = new ErrorList();
  for (let i = 1; i < n; i++) {
    const row = matrix[i]!;
    for (let j = 0; j < i; j++) {
      const u = matrix[j]![i]!;
      const v = row[j]!;
      if (u !== v)
        asymmetric.add(`/adj_matrix/${j}/${i}`, `adj_matrix[${j}][${i}] = ${u} but adj_matrix[${i}][${j}] = ${v}`);
    }
  }
  if (asymmetric.total > 0) throw asymmetric.error(SYMMETRIC_MESSAGE);
}

/** The matrix being symmetric, each row's non-zero entries are its node's CSR row, in increasing order. */
function fill(matrix: number[][], n: number, offsets: Int32Array): Graph {
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
