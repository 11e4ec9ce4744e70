// The `annealing` solver: simulated annealing over one-flip moves, on the kernel left by the exact
// reductions of maxcut/reduce.ts.
//
// Sweeps step through the nodes in order; a node flips if that does not lower the cut, or else with
// probability exp(gain / T) (Metropolis). Stepping in order, not at random, halved the mean gap on the
// sparse Gset graphs (and reads memory in order). The gain array is updated in O(deg) per flip, so a
// refused step costs O(1). T falls geometrically from HOT times the typical |gain| of a random partition
// (the root mean square of the weighted degrees' spread, sqrt(sum of w^2 / n)) to COLD times the mean |w|.
// The time limit is split into anneals of growing length (SCHEDULE): the short ones find the easy optima
// early, the last takes half the time for the hard graphs. Each anneal starts from a random partition and
// ends with a greedy descent. Any real weights work.
//
// The time limit holds at any size: the clock is read every CHUNK steps, in the anneals and in the descents alike
// (a descent from a state the clock cut off hot takes pass after pass over the nodes), and the anneals leave
// the last descent the time of two passes (twice the quickest random start, a pass over every edge, timed).
//
// One iteration = one sweep (n steps). With `maxIterations` the anneals get their share of that many
// sweeps instead of the time limit's, so a seed and a budget that ends before the time limit give one answer.
import type { Graph } from '@jes/contract/inputs';
import { computeGains, descend, flipNode, gainEpsilon } from './gains.ts';
import { createRandom } from './random.ts';
import { solveReduced } from './reduced.ts';
import type { Found } from './reduced.ts';
import type { SolveOptions, Solver } from './solver.ts';

/** The share of the time limit (or of the sweeps) each anneal gets, in order. */
const SCHEDULE = [1 / 16, 1 / 16, 1 / 8, 1 / 4, 1 / 2];
/** Tuned on G1-G54 at 2 s, two seeds: from HOT 0.3 to 0.5 and COLD 0.15 to 0.3 the mean gap moved within its noise (0.11-0.13 %). */
const HOT = 0.4;
const COLD = 0.2;
/** Steps between two looks at the clock and the stop signal, at most. */
const CHUNK = 1 << 14;
/** exp(-x) for x from 0 to 20 in steps of 1/EXP_STEPS: a table read instead of Math.exp (a third faster). */
const EXP_STEPS = 256;
const EXP_SIZE = 20 * EXP_STEPS;
const EXP = Float64Array.from({ length: EXP_SIZE }, (_, i) => Math.exp(-(i + 0.5) / EXP_STEPS));

function anneal(graph: Graph, options: SolveOptions, report: (cut: number) => void): Found {
  const { n, weights } = graph;
  const rng = createRandom(options.seed);
  const start = performance.now();
  const budgetMs = options.timeLimitSeconds * 1000;
  const deadline = start + budgetMs;
  /** When the anneals end: the deadline, less the time left for the last descent (two passes, the quickest timed). */
  let annealsEnd = deadline,
    reserveMs = Infinity;
  const sweepBudget = options.maxIterations;
  const eps = gainEpsilon(graph);

  let sumAbs = 0,
    sumSquares = 0;
  for (let k = 0; k < weights.length; k++) {
    sumAbs += Math.abs(weights[k]!);
    sumSquares += weights[k]! ** 2;
  }
  const hot = HOT * Math.sqrt(sumSquares / n),
    cold = COLD * (sumAbs / weights.length);

  const side = new Uint8Array(n),
    gain = new Float64Array(n),
    bestSide = new Uint8Array(n);
  let cur = 0,
    best = -Infinity,
    foundAt = start,
    sweeps = 0,
    stopped = false;
  // A new best is copied out lazily, just before the next flip that lowers the cut.
  let unsaved = false,
    improved = false;
  const flip = (v: number): void => {
    cur += flipNode(graph, side, gain, v);
  };
  const noteBest = (): void => {
    if (cur > best + eps) {
      best = cur;
      unsaved = true;
      improved = true;
    }
  };
  const save = (): void => {
    if (unsaved) {
      bestSide.set(side);
      unsaved = false;
      report(best);
    }
  };

  let v = n - 1; // the node stepped on, in order, sweep after sweep
  let x = 0;
  let done = 0; // the share of the schedule used by earlier anneals
  const timeIsUp = (): boolean => options.signal.aborted || performance.now() >= deadline;
  for (const share of SCHEDULE) {
    if (stopped) break;
    const beganAt = start + done * (annealsEnd - start);
    const sweepsBefore = Math.round(done * (sweepBudget ?? 0));
    done += share;
    const sweepsHere = sweepBudget === undefined ? Infinity : Math.round(done * sweepBudget) - sweepsBefore;
    if (sweepsHere === 0) continue; // a budget of fewer sweeps than anneals skips some
    const setUpAt = performance.now();
    for (let i = 0; i < n; i++) side[i] = rng.uint32() & 1;
    cur = computeGains(graph, side, gain);
    reserveMs = Math.min(reserveMs, 2 * (performance.now() - setUpAt));
    annealsEnd = deadline - reserveMs;
    const endsAt = start + done * (annealsEnd - start);
    noteBest();
    let annealSweeps = 0,
      f = 0;
    while (f < 1) {
      const inverseT = 1 / (hot * (cold / hot) ** f);
      const steps = Math.min(n, CHUNK);
      for (let s = 0; s < steps; s++) {
        v = v + 1 === n ? 0 : v + 1;
        const g = gain[v]!;
        if (g >= 0) {
          flip(v);
          noteBest();
        } else if ((x = -g * inverseT * EXP_STEPS) < EXP_SIZE && rng.float() < EXP[x | 0]!) {
          save();
          flip(v);
        }
      }
      annealSweeps += steps / n;
      if (improved) {
        foundAt = performance.now();
        improved = false;
      }
      const now = performance.now();
      if (options.signal.aborted || now >= annealsEnd) {
        stopped = true;
        break;
      }
      f = sweepBudget === undefined ? (now - beganAt) / (endsAt - beganAt) : annealSweeps / sweepsHere;
    }
    sweeps += annealSweeps;
    // End at a local optimum: the anneal ends cold, so few flips are left (none after an abort: it must be quick).
    if (!options.signal.aborted) cur += descend(graph, side, gain, eps, timeIsUp, CHUNK);
    stopped ||= timeIsUp();
    noteBest();
    if (improved) {
      foundAt = performance.now();
      improved = false;
    }
    save();
  }
  save();
  return { side: bestSide, foundAt, iterations: Math.round(sweeps) };
}

export const annealing: Solver = {
  name: 'annealing',
  description:
    'Simulated annealing over one-flip moves, in anneals of growing length, after exact reductions of nodes of degree 0 to 2 (which alone solve trees, cycles and series-parallel graphs); any size, any real weights.',
  exact: false,
  default: true,
  defaultTimeLimitSeconds: 10,
  threads: Infinity, // independent anneals, one per thread the pool gives (worker/team.ts)
  solve: (graph, options) => solveReduced(graph, options, anneal),
};
