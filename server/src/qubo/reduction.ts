// The standard reduction of a QUBO on n variables to a maximum cut on n + 1 nodes, so that the max-cut solvers
// solve QUBOs. Node 0 is the reference; x_i = 1 iff node i + 1 is on the other side from node 0. With
// W_ij = Q[i][j] + Q[j][i] (i < j) and h_i = Q[i][i], edge (i+1, j+1) weighs W_ij / 2 and edge (0, i+1) weighs
// -(h_i + ½ Σ_{j≠i} W_ij). A pair (i, j) is cut iff x_i ≠ x_j, that is x_i + x_j - 2 x_i x_j, so
//   cut = Σ_i x_i (w_0i + ½ Σ_{j≠i} W_ij) - Σ_{i<j} W_ij x_i x_j = -(Σ_i h_i x_i + Σ_{i<j} W_ij x_i x_j) = -energy.
import type { Graph } from '../../../contract/src/inputs/maxcut/graph.ts';
import type { QuboInput } from '../../../contract/src/inputs/qubo/input.ts';

/** The max-cut graph whose cuts are the negated energies (exactly so when the halvings are exact). */
export function maxCutGraph(input: QuboInput): Graph {
  const { n, diagonal, offsets: rows, columns, couplings } = input;
  // offsets[v + 1] counts node v's neighbours first. W_ij / 2 can only be 0 for the smallest subnormal W_ij.
  const offsets = new Int32Array(n + 2);
  const half = new Float64Array(n); // ½ Σ_{j≠i} W_ij
  for (let i = 0; i < n; i++) {
    for (let k = rows[i]!; k < rows[i + 1]!; k++) {
      const j = columns[k]!;
      const w = couplings[k]! / 2;
      half[i]! += w;
      half[j]! += w;
      if (w === 0) continue;
      offsets[i + 2]!++;
      offsets[j + 2]!++;
    }
  }
  const reference = new Float64Array(n); // the weight of edge (0, i + 1)
  for (let i = 0; i < n; i++) {
    const w = -(diagonal[i]! + half[i]!) + 0; // never -0
    reference[i] = w;
    if (w === 0) continue;
    offsets[1]!++;
    offsets[i + 2]!++;
  }
  for (let v = 0; v <= n; v++) offsets[v + 1]! += offsets[v]!;
  const size = offsets[n + 1]!;
  const targets = new Int32Array(size);
  const weights = new Float64Array(size);

  // Each row in increasing neighbour order: node 0 first; then node i + 1 gets its lower partners, which come
  // from the variables before i (so in increasing order), then its higher ones, when variable i's turn comes.
  const fill = offsets.slice(0, n + 1); // the next free entry of each row
  for (let i = 0; i < n; i++) {
    const w = reference[i]!;
    if (w === 0) continue;
    targets[fill[0]!] = i + 1;
    weights[fill[0]!++] = w;
    targets[fill[i + 1]!] = 0;
    weights[fill[i + 1]!++] = w;
  }
  for (let i = 0; i < n; i++) {
    for (let k = rows[i]!; k < rows[i + 1]!; k++) {
      const j = columns[k]!;
      const w = couplings[k]! / 2;
      if (w === 0) continue;
      targets[fill[i + 1]!] = j + 1;
      weights[fill[i + 1]!++] = w;
      targets[fill[j + 1]!] = i + 1;
      weights[fill[j + 1]!++] = w;
    }
  }
  return { n: n + 1, edges: size / 2, offsets, targets, weights };
}

/** The assignment of a partition of the n + 1 nodes: x_i = 1 iff node i + 1 is not on node 0's side. */
export function assignmentOf(partition: ArrayLike<number>): Uint8Array {
  const x = new Uint8Array(partition.length - 1);
  for (let i = 0; i < x.length; i++) x[i] = partition[i + 1] === partition[0] ? 0 : 1;
  return x;
}
