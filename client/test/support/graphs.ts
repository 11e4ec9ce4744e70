// Inputs for the client's tests: the sample graphs that ship in examples/graphs (the contract's 6-node
// example and three Gset graphs), the sample QUBO of examples/qubo, and inputs of an exact JSON size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MaxCutInput, QuboInput } from '../../src/index.ts';
import { repoRoot } from './processes.ts';

/** A file of examples/graphs, the sample graphs the guides use: `six-node.json`, `G11.txt`, `G14.txt`, `G22.txt`. */
export function exampleGraph(name: string): string {
  return join(repoRoot, 'examples', 'graphs', name);
}

/** The contract's 6-node example, as examples/graphs/six-node.json holds it: maximum cut 53. */
export const sixNodes: MaxCutInput = JSON.parse(readFileSync(exampleGraph('six-node.json'), 'utf8'));
export const sixNodesEdgeList =
  '6 12\n1 2 3\n1 3 6\n1 4 7\n1 5 3\n2 3 4\n2 4 5\n2 5 8\n2 6 9\n3 4 6\n3 5 5\n3 6 7\n4 5 8\n';

/** A file of examples/qubo: `four-variables.json` or `four-variables.qubo`, the contract's 4-variable QUBO. */
export function exampleQubo(name: string): string {
  return join(repoRoot, 'examples', 'qubo', name);
}

/** The contract's 4-variable QUBO, as examples/qubo/four-variables.json holds it: minimum energy -11 at (1, 0, 0, 1). */
export const fourVariables: QuboInput = JSON.parse(readFileSync(exampleQubo('four-variables.json'), 'utf8'));

/**
 * A valid max-cut input whose JSON is exactly `bytes` long: a path graph of `n` nodes (weights 1) whose
 * diagonal (ignored by the service) takes the digits that make up the difference.
 */
export function inputOfSize(bytes: number): MaxCutInput {
  const n = Math.floor(Math.sqrt(bytes / 2)) - 1;
  const adj_matrix: number[][] = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => (Math.abs(i - j) === 1 ? 1 : 0)),
  );
  let missing = bytes - JSON.stringify({ num_nodes: n, adj_matrix }).length;
  for (let i = 0; missing > 0; i++) {
    const digits = Math.min(missing, 6);
    adj_matrix[i]![i] = 10 ** digits; // "1" then `digits` zeros, in place of "0"
    missing -= digits;
  }
  const input = { num_nodes: n, adj_matrix };
  if (JSON.stringify(input).length !== bytes)
    throw new Error(`inputOfSize(${bytes}) made ${JSON.stringify(input).length} bytes`);
  return input;
}
