// The max-cut use case's limits, published in its record (GET /problem/maxcut) and enforced by every reader.
//
// maxNodes: five times Gset's largest graph (20,000 nodes). A partition is 2 bytes of JSON per node in every
// answer that carries it (GET /job/{job_id} and its output, once per solver): reading an output took the server's
// main thread 8 ms at 100,000 nodes, 78 ms at a million, 0.74 s at ten million, so that at a million one user
// within the default rate (1,200 reads a minute) could keep it busy. The solvers keep about 40 bytes per node, and
// one pass over the nodes (a sweep, the gains of a new start, the final cut) stays within milliseconds at this
// size, so that a solver can look at its clock often enough to end on time. Edges are bounded by the bytes.
import { InputError } from '../input-error.ts';

/** An inline body must be smaller than this many bytes. */
export const maxInlineBytes = 4 * 1024 * 1024;
/** A data file may have at most this many bytes. */
export const maxDataFileBytes = 100 * 1024 * 1024;
/** A graph may have at most this many nodes, whatever its form. */
export const maxNodes = 100_000;

/** The detail of an error for a graph of `nodes` nodes (as written in the input), more than maxNodes. */
export function tooManyNodesDetail(nodes: string): string {
  return `${nodes} nodes is more than the ${maxNodes} a graph may have`;
}

/** The error for such a graph, pointing at its size (`pointer`): the inline body's and the JSON data file's. */
export function tooManyNodes(nodes: string, pointer: string): InputError {
  return new InputError(`A graph may have at most ${maxNodes} nodes; this one has ${nodes}.`, [
    { pointer, detail: tooManyNodesDetail(nodes) },
  ]);
}
