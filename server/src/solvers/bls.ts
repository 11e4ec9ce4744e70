// The `bls` solver: Breakout Local Search (Benlic & Hao, 2013) on the kernel left by the exact reductions
// of maxcut/reduce.ts.
//
// A descent flips improving nodes until none is left (a local optimum). Then a perturbation of L moves
// leads away from it, and the next descent finds the next local optimum, and so on. L adapts: it grows by
// one each time the search falls back into the local optimum it left, and returns to L0 otherwise. The
// perturbation is directed (each move flips the best node that is not tabu, and makes it tabu for a random
// tenure) with a probability that starts at 1 and decays towards P0 as descents fail to improve the best
// cut; otherwise it flips L random nodes. After T descents without improving the best cut, a strong random
// perturbation of LMAX moves. Gains live in a Float64Array updated in O(deg) per flip and in a tournament
// tree (the best non-tabu node in O(1)), so any real weights work.
//
// One iteration = one descent. With `maxIterations` the time limit is ignored (the stop signal still
// applies), so a seed and an iteration budget always give the same answer.
import type { Graph } from '../maxcut/graph.ts';
import { cutValue } from '../maxcut/graph.ts';
import { reduceGraph } from '../maxcut/reduce.ts';
import { MaxTree } from './max-tree.ts';
import { createRandom } from './random.ts';
import type { SolveOptions, SolveResult, Solver } from './solver.ts';

/** Descents without improving the best cut before a strong perturbation (the paper's T). */
const T = 1000;
/** The lowest probability of a directed perturbation (the paper's P0). */
const P0 = 0.8;
/** Work (adjacency entries scanned) between two checks of the stop signal and the clock: a few ms. */
const CHECK_WORK = 1 << 17;

interface Found {
  side: Uint8Array;
  cut: number;
  foundAt: number;
  iterations: number;
}

/** Runs the search on `graph` (no edges-free special case: the caller handles that). */
function breakout(graph: Graph, options: SolveOptions, start: number, report: (cut: number, at: number) => void): Found {
  const { n, offsets, targets, weights } = graph;
  const rng = createRandom(options.seed);
  const deadline = options.maxIterations === undefined ? start + options.timeLimitSeconds * 1000 : Infinity;
  const maxDescents = options.maxIterations ?? Infinity;
  const signal = options.signal;

  let maxAbs = 0;
  for (let k = 0; k < weights.length; k++) maxAbs = Math.max(maxAbs, Math.abs(weights[k]!));
  const eps = maxAbs * 1e-9; // a flip must gain more than this: guards against rounding noise in the gains
  const tie = eps / 4; // random tie-breaks among equal gains, too small to reorder different ones

  const l0 = Math.max(1, Math.round(0.01 * n)), lMax = Math.max(l0, Math.round(0.1 * n));
  const tenureMin = Math.min(3, n), tenureSpan = Math.max(1, Math.floor(n / 10) - tenureMin + 1);
  const side = new Uint8Array(n), gain = new Float64Array(n), jitter = new Float64Array(n);
  const bestSide = new Uint8Array(n);
  const tree = new MaxTree(n);
  const tabuUntil = new Float64Array(n);
  const slots = tenureMin + tenureSpan + 1;
  const slotHead = new Int32Array(slots).fill(-1), slotNext = new Int32Array(n);
  const queue = new Int32Array(n), queued = new Uint8Array(n);
  let qHead = 0, qLen = 0, moves = 0;
  let cur = 0, best = -Infinity, foundAt = start;
  let work = 0, nextCheck = CHECK_WORK, stopped = false;

  const push = (v: number): void => {
    if (queued[v]) return;
    queued[v] = 1;
    let at = qHead + qLen;
    if (at >= n) at -= n;
    queue[at] = v;
    qLen++;
  };
  const flip = (v: number): void => {
    const sv = side[v]! ^ 1;
    side[v] = sv;
    cur += gain[v]!;
    const gv = -gain[v]!;
    gain[v] = gv;
    jitter[v] = rng.float() * tie;
    if (tabuUntil[v]! <= moves) tree.set(v, gv + jitter[v]!);
    if (gv > eps) push(v);
    const end = offsets[v + 1]!;
    for (let k = offsets[v]!; k < end; k++) {
      const j = targets[k]!;
      const g = gain[j]! + (side[j] === sv ? 2 : -2) * weights[k]!;
      gain[j] = g;
      if (tabuUntil[j]! <= moves) tree.set(j, g + jitter[j]!);
      if (g > eps) push(j);
    }
    work += end - offsets[v]! + 1;
  };
  const shouldStop = (): boolean => {
    nextCheck = work + CHECK_WORK;
    stopped = signal.aborted || performance.now() >= deadline;
    return stopped;
  };
  const descend = (): void => {
    while (qLen > 0) {
      const v = queue[qHead]!;
      if (++qHead === n) qHead = 0;
      qLen--;
      queued[v] = 0;
      if (gain[v]! > eps) flip(v);
      else work++;
      if (work >= nextCheck && shouldStop()) return;
    }
  };
  /** One directed move: expire the tabu tenures that end now, flip the best non-tabu node, make it tabu. */
  const directedMove = (): void => {
    moves++;
    const slot = moves % slots;
    for (let v = slotHead[slot]!; v >= 0; v = slotNext[v]!) tree.set(v, gain[v]! + jitter[v]!);
    slotHead[slot] = -1;
    let v = tree.top();
    if (v < 0) v = rng.int(n);
    const until = moves + tenureMin + rng.int(tenureSpan);
    tabuUntil[v] = until;
    slotNext[v] = slotHead[until % slots]!;
    slotHead[until % slots] = v;
    tree.set(v, -Infinity);
    flip(v);
  };

  for (let v = 0; v < n; v++) side[v] = rng.uint32() & 1;
  for (let v = 0; v < n; v++) {
    let g = 0;
    for (let k = offsets[v]!; k < offsets[v + 1]!; k++) {
      const w = weights[k]!;
      if (side[targets[k]!] === side[v]) g += w;
      else { g -= w; cur += w; } // each cut edge is seen from both ends
    }
    gain[v] = g;
    jitter[v] = rng.float() * tie;
    tree.keys[v] = g + jitter[v]!;
    if (g > eps) push(v);
  }
  cur /= 2;
  tree.rebuild();
  work += offsets[n]! + n;

  let descents = 0, sinceBest = 0, strength = l0, previous = NaN;
  while (descents < maxDescents) {
    descend();
    descents++;
    if (cur > best + eps || best === -Infinity) {
      best = cur;
      bestSide.set(side);
      foundAt = performance.now();
      sinceBest = 0;
      report(best, foundAt);
    } else sinceBest++;
    if (stopped || (work >= nextCheck && shouldStop())) break;
    strength = Math.abs(cur - previous) <= eps ? Math.min(strength + 1, lMax) : l0;
    previous = cur;
    if (sinceBest > T) {
      for (let i = 0; i < lMax; i++) flip(rng.int(n));
      sinceBest = 0;
    } else if (rng.float() < Math.max(Math.exp(-sinceBest / T), P0)) {
      for (let i = 0; i < strength; i++) directedMove();
    } else {
      for (let i = 0; i < strength; i++) flip(rng.int(n));
    }
  }
  return { side: bestSide, cut: best, foundAt, iterations: descents };
}

function solve(graph: Graph, options: SolveOptions): SolveResult {
  const start = performance.now();
  const reduction = reduceGraph(graph);
  const { kernel, offset } = reduction;
  const report = (cut: number, at: number): void => {
    const seconds = (at - start) / 1000;
    options.onProgress?.({ bestValue: cut + offset, foundAtSeconds: seconds, elapsedSeconds: seconds });
  };
  if (kernel.edges === 0) {
    // The reductions solved it: the kernel has no edge, so its every partition is optimal.
    const partition = reduction.expand(new Uint8Array(kernel.n));
    const value = cutValue(graph, partition);
    report(value - offset, performance.now());
    return { cutValue: value, partition, optimal: true, upperBound: value, iterations: 0, timeToBestSeconds: (performance.now() - start) / 1000 };
  }
  const found = breakout(kernel, options, start, report);
  const partition = reduction.expand(found.side);
  return {
    cutValue: cutValue(graph, partition),
    partition,
    optimal: false,
    iterations: found.iterations,
    timeToBestSeconds: (found.foundAt - start) / 1000,
  };
}

export const bls: Solver = {
  name: 'bls',
  description: 'Breakout Local Search (Benlic & Hao 2013): descents with adaptive tabu-directed and random perturbations, after exact reductions of nodes of degree 0 to 2; any size, any real weights.',
  exact: false,
  default: true,
  defaultTimeLimitSeconds: 10,
  solve,
};
