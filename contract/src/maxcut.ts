// What the contract says of a max-cut answer, as code (MaxCutOutput: "the cut value must equal the sum of weights of
// edges whose ends are in different parts"): the conformance suite recomputes a deployment's cuts with it, and the
// contract's own tests its examples'. Solving is not here: that is the server's.
import type { components } from './generated/openapi.ts';

type AdjacencyMatrix = components['schemas']['MaxCutInput']['adj_matrix'];

/** The weight of the edges whose ends are in different parts (upper triangle; the diagonal never counts). */
export function cutValue(matrix: AdjacencyMatrix, partition: readonly number[]): number {
  let cut = 0;
  for (let i = 0; i < matrix.length; i++) {
    for (let j = i + 1; j < matrix.length; j++) if (partition[i] !== partition[j]) cut += matrix[i]![j]!;
  }
  return cut;
}
