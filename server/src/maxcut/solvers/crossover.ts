// Partition crossover for max-cut: the best of two partitions, cluster by cluster.
//
// Where two partitions differ (after turning one over, if that makes them differ on fewer nodes), the nodes that
// differ fall into clusters: the connected components of the graph restricted to them. No edge joins two clusters,
// so turning one cluster over in a partition changes its cut by that cluster's boundary alone, whatever is done to
// the others. Taking each cluster from whichever partition cuts more across its boundary gives a partition at least
// as good as both, in one pass over the clusters' edges. A child of two local optima need not be one: a node where
// they agree may border a cluster taken from each.
//
// A cluster both partitions cut alike (a tie) may be taken too: the child then moves across a plateau of equal
// cuts, which on Gset's ±1 graphs is most of what a re-anneal finds (annealing.ts).
import type { Graph } from '@jes/contract/inputs';

/** Work arrays for `crossover`, sized for a graph of n nodes, reused from call to call. */
export interface CrossoverScratch {
  cluster: Int32Array;
  queue: Int32Array;
}

export function crossoverScratch(n: number): CrossoverScratch {
  return { cluster: new Int32Array(n), queue: new Int32Array(n) };
}

/** What a crossover did to `into`: how much its cut grew, and how many nodes it turned over. */
export interface Crossed {
  grown: number;
  turned: number;
}

/**
 * Turns over, in `into`, every cluster where `from` differs that raises its cut by more than `eps`, and with `ties`
 * every one that changes it by no more than `eps` either way. `from` is left as it was.
 */
export function crossover(
  graph: Graph,
  into: Uint8Array,
  from: Uint8Array,
  scratch: CrossoverScratch,
  eps: number,
  ties = false,
): Crossed {
  const { n, offsets, targets, weights } = graph;
  const { cluster, queue } = scratch;
  let differ = 0;
  for (let v = 0; v < n; v++) differ += into[v]! ^ from[v]!;
  const flip = differ > n / 2 ? 1 : 0; // read `from` turned over
  const differs = (v: number): boolean => (into[v]! ^ from[v]! ^ flip) === 1;
  cluster.fill(0);
  let grown = 0,
    turned = 0,
    id = 0;
  for (let seed = 0; seed < n; seed++) {
    if (cluster[seed] !== 0 || !differs(seed)) continue;
    id++;
    let head = 0,
      tail = 0;
    queue[tail++] = seed;
    cluster[seed] = id;
    let boundary = 0; // how much the cut of `into` grows if this cluster turns over
    while (head < tail) {
      const u = queue[head++]!;
      for (let k = offsets[u]!; k < offsets[u + 1]!; k++) {
        const j = targets[k]!;
        if (cluster[j] === id) continue;
        if (differs(j)) {
          cluster[j] = id;
          queue[tail++] = j;
        } else boundary += into[u] === into[j] ? weights[k]! : -weights[k]!;
      }
    }
    if (boundary > eps || (ties && boundary >= -eps)) {
      for (let q = 0; q < tail; q++) into[queue[q]!]! ^= 1;
      grown += boundary;
      turned += tail;
    }
  }
  return { grown, turned };
}
