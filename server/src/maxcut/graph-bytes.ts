// A graph as bytes, to store the input a job's executions read (parsed once, when it was accepted or validated).
// Only the upper triangle is kept (each edge once: half the bytes): an 8-byte header (n, edges), the upper rows'
// offsets and targets as 32-bit integers, then the weights, 8-byte aligned. Decoding rebuilds both rows of every
// edge in one pass, in the order every parser produces (rows sorted by neighbour), so the graph is the same.
//
// The decoded graph lives in a SharedArrayBuffer: a job's input goes to a solver thread per execution, and a
// structured clone shares such memory instead of copying it (copying a graph of 7 million edges, 170 MB, took
// over 2 s on a busy 2-core machine, all of it counted against the solver's time limit).
import type { Graph } from '../../../contract/src/inputs/maxcut/graph.ts';

const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

const intBytesOf = (n: number, edges: number) => 8 + 4 * (n + 1) + 4 * edges;

/** The length encodeGraph gives, without encoding. */
export function encodedGraphBytes({ n, edges }: Pick<Graph, 'n' | 'edges'>): number {
  return align8(intBytesOf(n, edges)) + 8 * edges;
}

export function encodeGraph(graph: Graph): Uint8Array {
  const { n, edges, offsets, targets, weights } = graph;
  const intBytes = intBytesOf(n, edges);
  const out = new Uint8Array(encodedGraphBytes(graph));
  const ints = new Int32Array(out.buffer, 0, intBytes / 4);
  const upperTargets = ints.subarray(3 + n);
  const upperWeights = new Float64Array(out.buffer, align8(intBytes), edges);
  ints[0] = n;
  ints[1] = edges;
  let k = 0;
  for (let i = 0; i < n; i++) {
    ints[2 + i] = k;
    for (let p = offsets[i]!; p < offsets[i + 1]!; p++) {
      if (targets[p]! <= i) continue;
      upperTargets[k] = targets[p]!;
      upperWeights[k++] = weights[p]!;
    }
  }
  ints[2 + n] = k;
  return out;
}

export function decodeGraph(bytes: Uint8Array): Graph {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getInt32(0, true);
  const edges = view.getInt32(4, true);
  const intBytes = intBytesOf(n, edges);
  if (n < 0 || edges < 0 || align8(intBytes) + 8 * edges !== bytes.byteLength)
    throw new Error(`a stored graph of ${bytes.byteLength} bytes does not hold ${n} nodes and ${edges} edges`);
  // One aligned copy to read the arrays through typed views.
  const buffer = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  const upperOffsets = new Int32Array(buffer, 8, n + 1);
  const upperTargets = new Int32Array(buffer, 8 + 4 * (n + 1), edges);
  const upperWeights = new Float64Array(buffer, align8(intBytes), edges);

  const shared = new SharedArrayBuffer(align8(4 * (n + 1) + 8 * edges) + 16 * edges);
  const offsets = new Int32Array(shared, 0, n + 1);
  for (let i = 0; i < n; i++) {
    offsets[i + 1]! += upperOffsets[i + 1]! - upperOffsets[i]!;
    for (let k = upperOffsets[i]!; k < upperOffsets[i + 1]!; k++) offsets[upperTargets[k]! + 1]!++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const targets = new Int32Array(shared, 4 * (n + 1), 2 * edges);
  const weights = new Float64Array(shared, align8(4 * (n + 1) + 8 * edges), 2 * edges);
  const fill = offsets.slice(0, n);
  // Row i's lower neighbours were placed by the rows before it, in increasing order; its upper ones follow.
  for (let i = 0; i < n; i++) {
    for (let k = upperOffsets[i]!; k < upperOffsets[i + 1]!; k++) {
      const j = upperTargets[k]!;
      const w = upperWeights[k]!;
      targets[fill[i]!] = j;
      weights[fill[i]!++] = w;
      targets[fill[j]!] = i;
      weights[fill[j]!++] = w;
    }
  }
  return { n, edges, offsets, targets, weights };
}
