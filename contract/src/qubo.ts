// What the contract says of a QUBO answer, as code (QuboOutput: the energy is xᵀQx of its assignment): the
// conformance suite recomputes a deployment's energies with it. Solving is not here: that is the server's.
import type { components } from './generated/openapi.ts';

type QMatrix = components['schemas']['QuboInput']['q_matrix'];

/** xᵀQx: the sum of Q[i][j] over every i, j whose variables are both 1 (every entry counts; Q need not be symmetric). */
export function energy(matrix: QMatrix, assignment: readonly number[]): number {
  let total = 0;
  for (let i = 0; i < matrix.length; i++) {
    if (assignment[i] !== 1) continue;
    for (let j = 0; j < matrix.length; j++) if (assignment[j] === 1) total += matrix[i]![j]!;
  }
  return total;
}
