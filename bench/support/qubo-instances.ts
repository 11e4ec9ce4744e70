// The QUBO benchmark's instances: a Gset graph as a QUBO by the standard max-cut map (x_i ∈ {0,1}, minimise
// -Σ w_ij (x_i + x_j - 2 x_i x_j), so the minimum energy is minus the maximum cut), and seeded random dense matrices.
import { checkQubo, type Graph, type QuboInput } from '@jes/contract/inputs';
import { createRandom } from '../../server/src/maxcut/solvers/random.ts';

/**
 * The graph's max cut as a QUBO: Q[i][i] = -Σ_j w_ij and W_ij = 2 w_ij per edge, the energy of every assignment minus
 * the cut of its partition. Built as the prepared input (upper-triangle CSR) straight from the graph's rows: the dense
 * matrix of G55's 5,000 variables would hold 25 million entries.
 */
export function quboFromGraph(graph: Graph): QuboInput {
  const { n, offsets: rows, targets, weights } = graph;
  const diagonal = new Float64Array(n);
  const offsets = new Int32Array(n + 1);
  const columns: number[] = [];
  const couplings: number[] = [];
  for (let i = 0; i < n; i++) {
    const higher: [number, number][] = [];
    for (let k = rows[i]!; k < rows[i + 1]!; k++) {
      diagonal[i]! -= weights[k]!;
      if (targets[k]! > i) higher.push([targets[k]!, 2 * weights[k]!]);
    }
    higher.sort((a, b) => a[0] - b[0]);
    for (const [j, w] of higher) {
      columns.push(j);
      couplings.push(w);
    }
    offsets[i + 1] = columns.length;
  }
  return { n, diagonal, offsets, columns: Int32Array.from(columns), couplings: Float64Array.from(couplings) };
}

/** A seeded n × n matrix of integers uniform in [-100, 100], not symmetric, diagonal included: read as a job's is. */
export function randomQubo(n: number, seed: number): QuboInput {
  const rng = createRandom(seed);
  const q = Array.from({ length: n }, () => Array.from({ length: n }, () => rng.int(201) - 100));
  return checkQubo({ num_variables: n, q_matrix: q }).input();
}
