// Inputs for the client's tests: the contract's 6-node example, inputs of an exact JSON size, and Gset.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MaxCutInput } from '../../src/index.ts';
import { repoRoot } from './processes.ts';

/** The contract's 6-node example: maximum cut 53. */
export const sixNodes: MaxCutInput = {
  num_nodes: 6,
  adj_matrix: [[0, 3, 6, 7, 3, 0], [3, 0, 4, 5, 8, 9], [6, 4, 0, 6, 5, 7], [7, 5, 6, 0, 8, 0], [3, 8, 5, 8, 0, 0], [0, 9, 7, 0, 0, 0]],
};
export const sixNodesEdgeList = '6 12\n1 2 3\n1 3 6\n1 4 7\n1 5 3\n2 3 4\n2 4 5\n2 5 8\n2 6 9\n3 4 6\n3 5 5\n3 6 7\n4 5 8\n';

/**
 * A valid max-cut input whose JSON is exactly `bytes` long: a path graph of `n` nodes (weights 1) whose
 * diagonal (ignored by the service) takes the digits that make up the difference.
 */
export function inputOfSize(bytes: number): MaxCutInput {
  const n = Math.floor(Math.sqrt(bytes / 2)) - 1;
  const adj_matrix: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (Math.abs(i - j) === 1 ? 1 : 0)));
  let missing = bytes - JSON.stringify({ num_nodes: n, adj_matrix }).length;
  for (let i = 0; missing > 0; i++) {
    const digits = Math.min(missing, 6);
    adj_matrix[i]![i] = 10 ** digits; // "1" then `digits` zeros, in place of "0"
    missing -= digits;
  }
  const input = { num_nodes: n, adj_matrix };
  if (JSON.stringify(input).length !== bytes) throw new Error(`inputOfSize(${bytes}) made ${JSON.stringify(input).length} bytes`);
  return input;
}

/** The Gset folder (GSET_DIR, else shared/data/gset beside the repository), or why there is none. */
export function gsetFile(name: string): { path: string } | { skip: string } {
  const dir = resolve(repoRoot, process.env.GSET_DIR ?? join(repoRoot, '../shared/data/gset'));
  const path = join(dir, name);
  return existsSync(path) ? { path } : { skip: `${path} is absent (set GSET_DIR to the Gset folder)` };
}
