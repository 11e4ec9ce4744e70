// The `annealing` solver: simulated annealing over one-flip moves, on the kernel left by the exact reductions of
// maxcut/reduce.ts. A run is LINEAGES independent lineages one after the other, each with an equal share of the time
// (or of the sweeps) left, the best answer kept; a lineage has two phases.
//
// 1. Anneals from random partitions (STARTS: an eighth, an eighth and a quarter of its time or of its sweeps), each
//    from HOT times the typical |gain| of a random partition (the root mean square of the weighted degrees' spread,
//    sqrt(sum of w^2 / n)) down to COLD times the mean |w|, geometrically, ending in a greedy descent.
// 2. Re-anneals of 100 to 1000 sweeps (REANNEAL_STEPS) from the best partition so far, each heated to a random share
//    (REHEAT) of the first temperature: far enough to leave the best's basin here and there, not so far as to forget
//    it. Each result is crossed with the best (crossover.ts): every cluster where it found better goes into the best,
//    and every one where it found as good, so that the best wanders across plateaus of equal cuts.
//
// Sweeps step through the nodes in order; a node flips when that does not lower the cut, else with probability
// exp(gain / T) (Metropolis), read from a table against a raw 32-bit random number. Each node's field (the weighted
// sum of its neighbours' spins), updated in O(deg) per flip, makes a refused step O(1). The random anneals find the
// easy optima early and a first basin; the re-anneals and the crossover gathered most of what is left on the sparse
// Gset graphs (toroidal and planar: docs/solvers.md). Any real weights work.
//
// The time limit holds at any size: the clock is read every CHUNK steps, in the anneals and in the descents alike,
// and the anneals leave the last descent the time of two passes (twice the quickest random start, timed).
//
// One iteration = one sweep (n steps). With `maxIterations` every anneal is planned in sweeps instead of time, so a
// seed and a budget that ends before the time limit give one answer.
import type { Graph } from '@jes/contract/inputs';
import { crossover, crossoverScratch } from './crossover.ts';
import { computeGains, descend, gainEpsilon } from './gains.ts';
import { type Random, createRandom } from './random.ts';
import { solveReduced } from './reduced.ts';
import type { Found } from './reduced.ts';
import type { SolveOptions, Solver } from './solver.ts';

/** Independent lineages a run makes, one after the other (anneal, below). */
const LINEAGES = 2;
/** The share of a lineage's time (or sweeps) each anneal from a random partition gets; its re-anneals take the rest. */
const STARTS = [1 / 8, 1 / 8, 1 / 4];
const HOT = 0.4;
const COLD = 0.2;
/**
 * A re-anneal's length: about REANNEAL_STEPS steps, from 100 to 1000 sweeps. 1000 sweeps did better than 300 on the
 * 800- to 3000-node Gset graphs; on G81 (20,000 nodes) 100 to 300 did better than 1000 in the same time.
 */
const REANNEAL_STEPS = 2_000_000;
/**
 * A re-anneal starts at the first temperature times this, drawn uniformly. On 13 hard Gset graphs (planar, toroidal
 * and random, 7 seeds, the same sweeps) the mean gap was 0.200 % for 0.5-1.0, 0.217 % for 0.4-0.9, and 0.24-0.25 %
 * for 0.3-0.7 and 0.6-1.2; a fixed 0.35, 0.5 or 0.7 did worse than a draw.
 */
const REHEAT_MIN = 0.5;
const REHEAT_MAX = 1;
/** Steps between two looks at the clock and the stop signal, at most. */
const CHUNK = 1 << 14;
/** exp(-x) for x from 0 to 24 in steps of 1/EXP_STEPS, times 2^32: compared with a raw 32-bit random number. */
const EXP_STEPS = 64;
const EXP_SIZE = 24 * EXP_STEPS;
const EXP = Float64Array.from({ length: EXP_SIZE }, (_, i) => Math.exp(-(i + 0.5) / EXP_STEPS) * 2 ** 32);

/**
 * One walk: its partition and gains (what the descents and the crossover read), the same partition as spins during
 * an anneal, its cut, the node it steps on next and its xorshift32 state.
 */
interface Walk {
  side: Uint8Array;
  gain: Float64Array;
  /**
   * +1 on side 0, -1 on side 1, and each node's field: the sum of weight times spin over its edges. A flip of v gains
   * spin[v] × field[v] and updates its neighbours' fields without reading their sides: 15 to 30 % more sweeps a
   * second on Gset than updating their gains.
   */
  spin: Float64Array;
  field: Float64Array;
  cut: number;
  next: number;
  random: number;
}

/** The walk's partition as spins and fields, from its sides and gains (gain = spin × field). O(n). */
function toSpins(walk: Walk): void {
  const { side, gain, spin, field } = walk;
  for (let v = 0; v < side.length; v++) {
    spin[v] = 1 - 2 * side[v]!;
    field[v] = spin[v]! * gain[v]!;
  }
}

/** Back from spins and fields to sides and gains. O(n). */
function fromSpins(walk: Walk): void {
  const { side, gain, spin, field } = walk;
  for (let v = 0; v < side.length; v++) {
    side[v] = spin[v]! > 0 ? 0 : 1;
    gain[v] = spin[v]! * field[v]!;
  }
}

/** `steps` Metropolis steps at temperature `t`, through the nodes in order from `walk.next`, on the walk's spins. */
function metropolis(graph: Graph, walk: Walk, t: number, steps: number): void {
  const { n, offsets, targets, weights } = graph;
  const { spin, field } = walk;
  let cut = walk.cut,
    v = walk.next,
    r = walk.random;
  const scale = EXP_STEPS / t;
  // A plain loop over a run of nodes, wrapping between runs: a sixth to a third faster than wrapping inside it.
  for (let left = steps; left > 0; v = v === n ? 0 : v) {
    const last = Math.min(n, v + left);
    left -= last - v;
    for (; v < last; v++) {
      const sv = spin[v]!;
      const g = sv * field[v]!;
      if (g < 0) {
        const x = -g * scale;
        if (x >= EXP_SIZE) continue;
        r ^= r << 13;
        r ^= r >>> 17;
        r ^= r << 5;
        if (r >>> 0 >= EXP[x | 0]!) continue;
      }
      spin[v] = -sv;
      cut += g;
      const change = 2 * sv; // each neighbour's field loses 2 × weight × the old spin
      const end = offsets[v + 1]!;
      for (let k = offsets[v]!; k < end; k++) {
        const j = targets[k]!;
        field[j] = field[j]! - change * weights[k]!;
      }
    }
  }
  walk.cut = cut;
  walk.next = v === n ? 0 : v;
  walk.random = r;
}

/** What one lineage found: its best partition, when, its sweeps, and that partition's cut. */
interface Lineage extends Found {
  cut: number;
}

/**
 * One lineage: anneals from random partitions, then re-anneals of its best, for `options`' time or sweeps, drawing
 * from `rng`.
 */
function lineage(graph: Graph, options: SolveOptions, rng: Random, report: (cut: number) => void): Lineage {
  const { n, weights } = graph;
  const start = performance.now();
  const deadline = start + options.timeLimitSeconds * 1000;
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

  const walk: Walk = {
    side: new Uint8Array(n),
    gain: new Float64Array(n),
    spin: new Float64Array(n),
    field: new Float64Array(n),
    cut: 0,
    next: 0,
    random: rng.uint32() | 1,
  };
  const best = new Uint8Array(n),
    spare = new Uint8Array(n),
    scratch = crossoverScratch(n);
  let bestCut = -Infinity,
    foundAt = start,
    sweeps = 0,
    stopped = false;
  const timeIsUp = (): boolean => options.signal.aborted || performance.now() >= deadline;

  /**
   * Crosses the walk's partition with the best: the best becomes the better of the two, cluster by cluster, and takes
   * the walk's clusters that cut as much as its own (the plateaus of equal cuts: G81 at 30 s on one thread, 14,038
   * and 14,042 against 14,030 and 14,028 without them).
   */
  const keep = (): void => {
    const before = bestCut;
    let crossed = { grown: 0, turned: 0 };
    // Past the time limit, a crossover's pass over the edges (and the descent after it) would overrun it: none then.
    if (walk.cut > bestCut) {
      if (before > -Infinity) spare.set(best);
      best.set(walk.side);
      bestCut = walk.cut;
      if (before > -Infinity && !stopped) crossed = crossover(graph, best, spare, scratch, eps);
    } else if (!stopped) crossed = crossover(graph, best, walk.side, scratch, eps, true);
    bestCut += crossed.grown;
    if (crossed.turned > 0) {
      // The child may not be a local optimum where the clusters meet: descend from it (the walk restarts anyway).
      walk.side.set(best);
      walk.cut = computeGains(graph, walk.side, walk.gain) + descend(graph, walk.side, walk.gain, eps, timeIsUp, CHUNK);
      if (walk.cut > bestCut) {
        best.set(walk.side);
        bestCut = walk.cut;
      }
    }
    if (bestCut > before + eps) {
      foundAt = performance.now();
      report(bestCut);
    }
  };

  /**
   * Anneals the walk from `t0` down to `cold` until `endsAt` (a time) or for `sweepsHere` sweeps when planned in
   * sweeps, then descends to a local optimum and keeps the result.
   */
  const run = (t0: number, endsAt: number, sweepsHere: number): void => {
    const beganAt = performance.now();
    const steps = Math.min(n, CHUNK);
    let done = 0,
      f = 0;
    toSpins(walk);
    while (f < 1) {
      metropolis(graph, walk, t0 * (cold / t0) ** f, steps);
      done += steps / n;
      const now = performance.now();
      if (options.signal.aborted || now >= annealsEnd) {
        stopped = true;
        break;
      }
      f = Number.isFinite(sweepsHere) ? done / sweepsHere : (now - beganAt) / Math.max(1e-9, endsAt - beganAt);
    }
    fromSpins(walk);
    sweeps += done;
    // End at a local optimum: the anneal ends cold, so few flips are left (none after an abort: it must be quick).
    if (!options.signal.aborted) walk.cut += descend(graph, walk.side, walk.gain, eps, timeIsUp, CHUNK);
    stopped ||= timeIsUp();
    keep();
  };

  let share = 0; // of the time or the sweeps, used by the anneals from random partitions so far
  for (const part of STARTS) {
    if (stopped) break;
    const sweepsBefore = Math.round(share * (sweepBudget ?? 0));
    share += part;
    const sweepsHere = sweepBudget === undefined ? Infinity : Math.round(share * sweepBudget) - sweepsBefore;
    if (sweepsHere === 0) continue; // a budget of fewer sweeps than anneals skips some
    const setUpAt = performance.now();
    for (let i = 0; i < n; i++) walk.side[i] = rng.uint32() & 1;
    walk.cut = computeGains(graph, walk.side, walk.gain);
    reserveMs = Math.min(reserveMs, 2 * (performance.now() - setUpAt));
    annealsEnd = deadline - reserveMs;
    run(hot, start + share * (annealsEnd - start), sweepsHere);
  }
  const reannealSweeps = Math.min(1000, Math.max(100, Math.round(REANNEAL_STEPS / n)));
  while (!stopped && (sweepBudget === undefined || sweeps < sweepBudget)) {
    walk.side.set(best);
    walk.cut = computeGains(graph, walk.side, walk.gain);
    const reheat = REHEAT_MIN + (REHEAT_MAX - REHEAT_MIN) * rng.float();
    run(hot * reheat, Infinity, Math.min(reannealSweeps, (sweepBudget ?? Infinity) - sweeps));
  }
  return { side: best, cut: bestCut, foundAt, iterations: Math.round(sweeps) };
}

/**
 * LINEAGES independent lineages one after the other, each with an equal share of what time (or sweeps) is left, the
 * best kept. Two lineages of half the time did better than one: on one thread, G14-G54's hard instances (planar,
 * toroidal and G22-G31, 132 runs) at 2 s 0.136 % against 0.188 %, and at 10 s (64 runs) 0.113 % against 0.179 %;
 * G81 at 30 s the same (14,042 and 14,040). A lineage's re-anneals settle in its basin; a second basin is worth more
 * than what its last re-anneals find.
 */
function anneal(graph: Graph, options: SolveOptions, report: (cut: number) => void): Found {
  const rng = createRandom(options.seed);
  const start = performance.now();
  let best: Lineage | undefined,
    reported = -Infinity,
    iterations = 0;
  const reportBetter = (cut: number): void => {
    if (cut > reported) report((reported = cut));
  };
  const budget = options.maxIterations;
  for (let k = 0; k < LINEAGES; k++) {
    const share = 1 / (LINEAGES - k);
    const leftSeconds = options.timeLimitSeconds - (performance.now() - start) / 1000;
    // With a budget of sweeps, each lineage plans its share of them and may take all the time left: a run that
    // ends before its time limit gives the same answer for the same seed.
    const planned =
      budget === undefined
        ? { timeLimitSeconds: leftSeconds * share }
        : { timeLimitSeconds: leftSeconds, maxIterations: Math.round((budget - iterations) * share) };
    if (k > 0 && (options.signal.aborted || leftSeconds <= 0 || planned.maxIterations === 0)) break;
    const found = lineage(graph, { ...options, ...planned }, rng, reportBetter);
    iterations += found.iterations;
    if (best === undefined || found.cut > best.cut) best = found;
  }
  return { side: best!.side, foundAt: best!.foundAt, iterations };
}

export const annealing: Solver = {
  name: 'annealing',
  description:
    'Simulated annealing over one-flip moves after exact reductions of nodes of degree 0 to 2 (which alone solve trees, cycles and series-parallel graphs; what they leave of at most 24 nodes is enumerated, and proven): anneals from random partitions, then re-anneals of the best partition whose gains are crossed into it cluster by cluster; any size, any real weights.',
  exact: false,
  default: true,
  defaultTimeLimitSeconds: 10,
  threads: Infinity, // independent anneals, one per thread the pool gives (worker/team.ts)
  solve: (graph, options) => solveReduced(graph, options, anneal),
};
