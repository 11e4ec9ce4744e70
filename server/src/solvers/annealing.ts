// The `annealing` solver: simulated annealing over one-flip moves, on the kernel left by the exact
// reductions of maxcut/reduce.ts.
//
// Each step picks a random node and flips it if that does not lower the cut, or else with probability
// exp(gain / T) (Metropolis). The gain array is updated in O(deg) per flip, so a rejected step costs O(1).
// T falls geometrically from HOT (times the typical |gain| of a random partition, sqrt(sum of w^2) per
// node) to COLD (times the mean |w|). The time limit is split into anneals of growing length (SCHEDULE):
// the short ones find the easy optima early, the last takes half the time for the hard graphs. Each anneal
// starts from a random partition and ends with a greedy descent. Any real weights work.
//
// One iteration = one sweep (n steps). With `maxIterations` the anneals get their share of that many
// sweeps and the clock is ignored (the stop signal still applies): a seed and a budget give one answer.
import type { Graph } from '../maxcut/graph.ts';
import { computeGains, gainEpsilon } from './gains.ts';
import { createRandom } from './random.ts';
import { solveReduced } from './reduced.ts';
import type { Found } from './reduced.ts';
import type { SolveOptions, Solver } from './solver.ts';

/** The share of the time limit (or of the sweeps) each anneal gets, in order. */
const SCHEDULE = [1 / 16, 1 / 16, 1 / 8, 1 / 4, 1 / 2];
const HOT = 0.7;
const COLD = 0.2;
/** Steps between two looks at the clock and the stop signal (and two progress reports), at most. */
const CHUNK = 1 << 14;

function anneal(graph: Graph, options: SolveOptions, report: (cut: number) => void): Found {
  const { n, offsets, targets, weights } = graph;
  const rng = createRandom(options.seed);
  const start = performance.now();
  const budgetMs = options.timeLimitSeconds * 1000;
  const sweepBudget = options.maxIterations;
  const signal = options.signal;
  const eps = gainEpsilon(graph);

  let sumAbs = 0, sumSquares = 0;
  for (let k = 0; k < weights.length; k++) { sumAbs += Math.abs(weights[k]!); sumSquares += weights[k]! ** 2; }
  const hot = HOT * Math.sqrt(sumSquares / n), cold = COLD * (sumAbs / weights.length);

  const side = new Uint8Array(n), gain = new Float64Array(n), bestSide = new Uint8Array(n);
  let cur = 0, best = -Infinity, foundAt = start, unsaved = false, sweeps = 0, stopped = false;
  const flip = (v: number): void => {
    const sv = side[v]! ^ 1;
    side[v] = sv;
    cur += gain[v]!;
    gain[v] = -gain[v]!;
    const end = offsets[v + 1]!;
    for (let k = offsets[v]!; k < end; k++) {
      const j = targets[k]!;
      gain[j] = gain[j]! + (side[j] === sv ? 2 : -2) * weights[k]!;
    }
  };
  const noteBest = (): void => {
    if (cur > best + eps) { best = cur; unsaved = true; foundAt = performance.now(); }
  };
  const save = (): void => {
    if (unsaved) { bestSide.set(side); unsaved = false; report(best); }
  };

  let done = 0; // share of the schedule used up by earlier anneals
  for (const share of SCHEDULE) {
    if (stopped) break;
    const from = done, to = done + share;
    done = to;
    for (let v = 0; v < n; v++) side[v] = rng.uint32() & 1;
    cur = computeGains(graph, side, gain);
    noteBest();
    let annealSweeps = 0, f = 0;
    const sweepsHere = sweepBudget === undefined ? Infinity : Math.max(1, Math.round(share * sweepBudget));
    const endsAt = start + to * budgetMs, beganAt = start + from * budgetMs;
    while (f < 1) {
      const inverseT = 1 / (hot * (cold / hot) ** f);
      const steps = Math.min(n, CHUNK);
      for (let s = 0; s < steps; s++) {
        const v = rng.int(n);
        const g = gain[v]!;
        if (g >= 0) {
          flip(v);
          if (cur > best + eps) { best = cur; unsaved = true; }
        } else if (rng.float() < Math.exp(g * inverseT)) {
          save();
          flip(v);
        }
      }
      annealSweeps += steps / n;
      if (unsaved) foundAt = performance.now();
      if (signal.aborted) { stopped = true; break; }
      if (sweepBudget === undefined) {
        const now = performance.now();
        if (now >= start + budgetMs) { stopped = true; break; }
        f = (now - beganAt) / (endsAt - beganAt);
      } else f = annealSweeps / sweepsHere;
    }
    sweeps += annealSweeps;
    // Finish at a local optimum: SA ends cold, so few flips are left.
    for (let again = true; again; ) {
      again = false;
      for (let v = 0; v < n; v++) if (gain[v]! > eps) { flip(v); again = true; }
    }
    noteBest();
    save();
  }
  save();
  return { side: bestSide, foundAt, iterations: Math.round(sweeps) };
}

export const annealing: Solver = {
  name: 'annealing',
  description: 'Simulated annealing over one-flip moves, in anneals of growing length, after exact reductions of nodes of degree 0 to 2; any size, any real weights.',
  exact: false,
  default: true,
  defaultTimeLimitSeconds: 10,
  solve: (graph, options) => solveReduced(graph, options, anneal),
};
