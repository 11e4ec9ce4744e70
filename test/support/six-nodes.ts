// The contract's 6-node max-cut example (maximum cut 53), as every test that needs one reads it: the file the guides
// use (examples/graphs/six-node.json, held to the contract's MaxCutInput example by test/examples/graphs.test.ts),
// and the same graph as an edge list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const sixNodes: { num_nodes: number; adj_matrix: number[][] } = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../examples/graphs/six-node.json'), 'utf8'),
);

export const sixNodesEdgeList =
  '6 12\n1 2 3\n1 3 6\n1 4 7\n1 5 3\n2 3 4\n2 4 5\n2 5 8\n2 6 9\n3 4 6\n3 5 5\n3 6 7\n4 5 8\n';

/** A maximum cut of it, and its value. */
export const sixNodesPartition = [0, 1, 1, 1, 0, 0];
export const sixNodesCut = 53;
