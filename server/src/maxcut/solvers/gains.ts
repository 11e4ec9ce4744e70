// The gain array the one-flip searches share: gain[v] is how much the cut grows if node v changes side.

import type { Graph } from '../../../../contract/src/inputs/maxcut/graph.ts';

/** Fills `gain` for the partition `side` and returns the cut's value. O(n + m). */
export function computeGains(graph: Graph, side: Uint8Array, gain: Float64Array): number {
  const { n, offsets, targets, weights } = graph;
  let cut = 0;
  for (let v = 0; v < n; v++) {
    let g = 0;
    for (let k = offsets[v]!; k < offsets[v + 1]!; k++) {
      const w = weights[k]!;
      if (side[targets[k]!] === side[v]) g += w;
      else {
        g -= w;
        cut += w;
      } // each cut edge is seen from both ends
    }
    gain[v] = g;
  }
  return cut / 2;
}

/** The largest |weight|, times 1e-9: a flip must gain more than this, which keeps rounding noise out. */
export function gainEpsilon(graph: Graph): number {
  let maxAbs = 0;
  for (let k = 0; k < graph.weights.length; k++) maxAbs = Math.max(maxAbs, Math.abs(graph.weights[k]!));
  return maxAbs * 1e-9;
}

/** Moves node v to the other side and updates the gains of v and its neighbours; returns the cut's change. */
export function flipNode(graph: Graph, side: Uint8Array, gain: Float64Array, v: number): number {
  const { offsets, targets, weights } = graph;
  const sv = side[v]! ^ 1;
  side[v] = sv;
  const change = gain[v]!;
  gain[v] = -change;
  const end = offsets[v + 1]!;
  for (let k = offsets[v]!; k < end; k++) {
    const j = targets[k]!;
    gain[j] = gain[j]! + (side[j] === sv ? 2 : -2) * weights[k]!;
  }
  return change;
}

/**
 * Greedy descent: flips every node whose gain is above `eps`, pass after pass, until none is left (a local optimum)
 * or `stop()` says so. `stop` is asked every `every` nodes and between passes: from a state far from any optimum
 * the passes are many, each O(n + m), and a descent must still end on time. Returns the cut's change.
 */
export function descend(
  graph: Graph,
  side: Uint8Array,
  gain: Float64Array,
  eps: number,
  stop: () => boolean,
  every: number,
): number {
  let change = 0;
  for (let again = true; again;) {
    again = false;
    for (let i = 0; i < graph.n; i++) {
      if (gain[i]! > eps) {
        change += flipNode(graph, side, gain, i);
        again = true;
      }
      if (i % every === every - 1 && stop()) return change;
    }
    if (again && stop()) return change;
  }
  return change;
}
