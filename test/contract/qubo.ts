// Reference computations for checking the contract's QUBO examples: the energy xᵀQx of an assignment, the minimum
// by enumerating every assignment, and the matrix a qbsolv .qubo text describes. Written from the contract's own
// words (QuboInput, uploadDataFile), not from any solver of ours.

/** xᵀQx: the sum of `q[i][j]` over every `i`, `j` with `x[i] = x[j] = 1` (every entry counts; Q need not be symmetric). */
export function quboEnergy(q: readonly (readonly number[])[], x: readonly number[]): number {
  let energy = 0;
  for (let i = 0; i < q.length; i++) {
    if (x[i] !== 1) continue;
    for (let j = 0; j < q.length; j++) if (x[j] === 1) energy += q[i]![j]!;
  }
  return energy;
}

/** The minimum energy and the first assignment reaching it, by enumerating all 2ⁿ assignments (n up to ~20). */
export function bruteForceQubo(q: readonly (readonly number[])[]): { energy: number; assignment: number[] } {
  const n = q.length;
  let best = { energy: Infinity, assignment: [] as number[] };
  for (let mask = 0; mask < 2 ** n; mask++) {
    const assignment = Array.from({ length: n }, (_, i) => (mask >> i) & 1);
    const energy = quboEnergy(q, assignment);
    if (energy < best.energy) best = { energy, assignment };
  }
  return best;
}

/**
 * The QUBO of a qbsolv .qubo text: `c` comment lines, one `p qubo 0 maxDiagonals nDiagonals nElements` line
 * (maxDiagonals is the number of variables), then `i j value` lines with 0-based variable numbers.
 */
export function quboFromFile(text: string): { num_variables: number; q_matrix: number[][] } {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('c'));
  const header = lines.shift()?.split(/\s+/) ?? [];
  if (header[0] !== 'p' || header[1] !== 'qubo') throw new Error(`no "p qubo" line: ${header.join(' ')}`);
  const n = Number(header[3]);
  const q = Array.from({ length: n }, () => Array.from({ length: n }, () => 0));
  for (const line of lines) {
    const [i, j, value] = line.trim().split(/\s+/).map(Number);
    q[i!]![j!] = value!;
  }
  if (lines.length !== Number(header[4]) + Number(header[5]))
    throw new Error(`${lines.length} entries, the p line says ${Number(header[4]) + Number(header[5])}`);
  return { num_variables: n, q_matrix: q };
}
