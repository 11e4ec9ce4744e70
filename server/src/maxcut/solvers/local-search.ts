// The `local-search` solver: randomised one-flip local search with restarts, until the time limit.
//
// A descent flips nodes with a positive gain (gain[v] = change in the cut if v flips, kept in a Float64Array
// and updated in O(deg v) per flip) from a work queue, first-improvement, until no flip improves the cut.
// The first descent starts from a random partition; each later one perturbs the current incumbent (one to
// four random flips) and descends again, keeping the result if it is not worse (so it also walks plateaus). After STALL_LIMIT descents
// without improving the incumbent, it restarts from a new random partition. Any real weights work.
//
// One iteration = one descent to a local optimum. With `maxIterations` a seed and an iteration budget that
// ends before the time limit always give the same answer. A graph with
// no edges returns cut 0, which is then trivially optimal.
import { cutValue, type Graph } from '@jes/contract/inputs';
import { computeGains, flipNode, gainEpsilon } from './gains.ts';
import { createRandom } from './random.ts';
import type { SolveOptions, SolveResult, Solver } from './solver.ts';

/** Perturbation descents without improving the incumbent before a random restart (tuned on a 2000-node graph). */
const STALL_LIMIT = 10_000;
/** Work (adjacency entries scanned, nodes copied) between two checks of the stop signal and the clock: a few ms. */
const CHECK_WORK = 1 << 18;

function solve(graph: Graph, options: SolveOptions): SolveResult {
  const start = performance.now();
  const { n, offsets, targets } = graph;
  if (graph.edges === 0) {
    return {
      cutValue: 0,
      partition: new Uint8Array(n),
      optimal: true,
      upperBound: 0,
      iterations: 0,
      timeToBestSeconds: 0,
    };
  }
  const rng = createRandom(options.seed);
  const deadline = start + options.timeLimitSeconds * 1000;
  const maxDescents = options.maxIterations ?? Infinity;
  const signal = options.signal;

  const eps = gainEpsilon(graph);

  const side = new Uint8Array(n),
    gain = new Float64Array(n);
  const incSide = new Uint8Array(n),
    incGain = new Float64Array(n); // the incumbent of the current run
  const bestSide = new Uint8Array(n);
  const queue = new Int32Array(n),
    queued = new Uint8Array(n);
  let qHead = 0,
    qLen = 0;
  let cur = 0,
    incumbent = -Infinity,
    best = -Infinity,
    foundAt = start;
  let work = 0,
    nextCheck = CHECK_WORK,
    stopped = false;

  const push = (v: number): void => {
    if (queued[v]) return;
    queued[v] = 1;
    let at = qHead + qLen;
    if (at >= n) at -= n;
    queue[at] = v;
    qLen++;
  };
  const flip = (v: number): void => {
    cur += flipNode(graph, side, gain, v);
    const end = offsets[v + 1]!;
    for (let k = offsets[v]!; k < end; k++) if (gain[targets[k]!]! > eps) push(targets[k]!);
    work += 2 * (end - offsets[v]!) + 1;
  };
  const shouldStop = (): boolean => {
    nextCheck = work + CHECK_WORK;
    stopped = signal.aborted || performance.now() >= deadline;
    return stopped;
  };
  /** Flips improving nodes until none is left (or a stop is due). */
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
  const randomStart = (): void => {
    for (let v = 0; v < n; v++) side[v] = rng.uint32() & 1;
    cur = computeGains(graph, side, gain);
    work += offsets[n]! + n;
    qHead = 0;
    qLen = 0;
    queued.fill(0);
    for (let v = 0; v < n; v++) if (gain[v]! > eps) push(v);
    incumbent = -Infinity;
  };
  const perturb = (): void => {
    side.set(incSide);
    gain.set(incGain);
    cur = incumbent;
    work += n;
    const flips = 1 + rng.int(4);
    for (let i = 0; i < flips; i++) flip(rng.int(n));
  };
  const recordBest = (): void => {
    if (cur > best + eps || best === -Infinity) {
      best = cur;
      bestSide.set(side);
      const now = performance.now();
      foundAt = now;
      options.onProgress?.({
        bestValue: best,
        foundAtSeconds: (now - start) / 1000,
        elapsedSeconds: (now - start) / 1000,
      });
    }
  };

  let descents = 0,
    stall = 0;
  while (descents < maxDescents) {
    if (incumbent === -Infinity || stall >= STALL_LIMIT) {
      randomStart();
      stall = 0;
    } else perturb();
    descend();
    descents++;
    if (stopped) {
      recordBest();
      break;
    }
    if (cur > incumbent + eps) stall = 0;
    else stall++;
    if (cur >= incumbent - eps) {
      incumbent = cur;
      incSide.set(side);
      incGain.set(gain);
      work += n;
    }
    recordBest();
    if (work >= nextCheck && shouldStop()) break;
  }

  return {
    cutValue: cutValue(graph, bestSide),
    partition: bestSide,
    optimal: false,
    iterations: descents,
    timeToBestSeconds: (foundAt - start) / 1000,
  };
}

export const localSearch: Solver = {
  name: 'local-search',
  description: 'Randomised one-flip local search with restarts until the time limit; any size.',
  exact: false,
  default: false,
  defaultTimeLimitSeconds: 10,
  threads: Infinity, // independent searches, one per thread the pool gives (worker/team.ts)
  solve,
};
