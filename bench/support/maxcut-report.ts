// The max-cut benchmark's tables: one row per instance and solver, per family the mean gap, the instances at the
// best-known cut and the time to target, and issue 34's targets as met / NOT met.
import { familyOf } from './gset.ts';
import type { Instance } from './gset.ts';
import { mean, median, seconds, table } from './report-table.ts';

export interface Run {
  instance: Instance;
  solver: string;
  seed: number;
  /** How many threads the run got (RunHandle.threads). */
  threads: number;
  cut: number;
  timeToBest: number;
  /** Seconds to a cut within TARGET of the best known (pool-runs.ts); Infinity when the run did not get there. */
  timeToTarget: number;
  optimal: boolean;
  /** The execution's iterations, the sum over its threads (for annealing: sweeps, n steps each). */
  iterations: number;
}

/** The time-to-target cut: within 0.1 % of the best known. */
export const TARGET = 0.999;

export const reachesTarget =
  (instance: Instance) =>
  (cut: number): boolean =>
    cut >= instance.bestKnown * TARGET;

/** How far below the best-known cut, in percent of it (negative: a new record). */
export function gapPercent(run: Run): number {
  return (100 * (run.instance.bestKnown - run.cut)) / run.instance.bestKnown;
}

const atBestKnown = (run: Run): boolean => run.cut >= run.instance.bestKnown;

interface Row {
  instance: Instance;
  solver: string;
  runs: Run[];
  meanGap: number;
}

function rowsOf(runs: Run[]): Row[] {
  const rows = new Map<string, Row>();
  for (const run of runs) {
    const key = `${run.instance.name}\t${run.solver}`;
    const row = rows.get(key) ?? { instance: run.instance, solver: run.solver, runs: [], meanGap: 0 };
    row.runs.push(run);
    rows.set(key, row);
  }
  for (const row of rows.values()) row.meanGap = mean(row.runs.map(gapPercent));
  return [...rows.values()];
}

const count = (runs: Run[], test: (run: Run) => boolean): string => `${runs.filter(test).length}/${runs.length}`;

function instanceTable(rows: Row[]): string {
  return table(
    [
      'instance',
      'solver',
      'n',
      'm',
      'best known',
      'best found',
      'mean found',
      'gap % (best)',
      'mean gap %',
      'hits',
      'median time to best (s)',
      'median time to target (s)',
    ],
    rows.map((r) => {
      const cuts = r.runs.map((x) => x.cut);
      const bestFound = Math.max(...cuts);
      return [
        r.instance.name,
        r.solver,
        r.instance.nodes,
        r.instance.edges,
        r.instance.bestKnown,
        bestFound,
        mean(cuts).toFixed(1),
        ((100 * (r.instance.bestKnown - bestFound)) / r.instance.bestKnown).toFixed(3),
        r.meanGap.toFixed(3),
        count(r.runs, atBestKnown),
        seconds(median(r.runs.map((x) => x.timeToBest))),
        seconds(median(r.runs.map((x) => x.timeToTarget))),
      ];
    }),
  );
}

function familyTable(rows: Row[], solvers: string[]): string {
  const families = [...new Set(rows.map((r) => familyOf(r.instance.name)))];
  const lines: (string | number)[][] = [];
  for (const solver of solvers) {
    for (const family of [...families, 'all']) {
      const inGroup = rows.filter(
        (r) => r.solver === solver && (family === 'all' || familyOf(r.instance.name) === family),
      );
      if (inGroup.length === 0) continue;
      const runs = inGroup.flatMap((r) => r.runs);
      const times = runs.map((r) => r.timeToTarget);
      lines.push([
        family,
        solver,
        inGroup.length,
        mean(inGroup.map((r) => r.meanGap)).toFixed(3),
        `${inGroup.filter((r) => r.runs.some(atBestKnown)).length}/${inGroup.length}`,
        count(runs, atBestKnown),
        count(runs, (r) => Number.isFinite(r.timeToTarget)),
        seconds(median(times)),
        seconds(Math.max(...times)),
      ]);
    }
  }
  return table(
    [
      'family',
      'solver',
      'instances',
      'mean gap %',
      'instances at best known (any seed)',
      'runs at best known',
      'runs at target',
      'median time to target (s)',
      'worst time to target (s)',
    ],
    lines,
  );
}

export function printReport(runs: Run[], timeLimit: number): void {
  const rows = rowsOf(runs);
  const solvers = [...new Set(rows.map((r) => r.solver))];
  console.log(instanceTable(rows));
  console.log();
  console.log(familyTable(rows, solvers));
  console.log(
    `\nTarget: a cut within ${((1 - TARGET) * 100).toFixed(1)} % of the best known, timed from the run's progress (to within 0.1 s) or its answer. "—": not reached (a median: by half the runs or more; the worst: by some run).\n`,
  );
  for (const solver of solvers)
    printTargets(
      rows.filter((r) => r.solver === solver),
      solver,
      timeLimit,
    );
}

const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `G${from + i}`);
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');

/**
 * Issue 34's targets, each judged only at its own time limit (a figure at another limit says neither): the mean
 * gap over G1–G54, ≤ 0.05 % at 2 s and ≤ 0.02 % at 10 s; G55, G60, G70, G81 each ≤ 0.15 % at 30 s; at least 45 of
 * G1–G54 at the best-known cut in at least one of two seeds at 10 s.
 */
function printTargets(rows: Row[], solver: string, timeLimit: number): void {
  const byName = new Map(rows.map((r) => [r.instance.name, r]));
  const all = (names: string[]): Row[] | undefined =>
    names.every((n) => byName.has(n)) ? names.map((n) => byName.get(n)!) : undefined;
  const main = all(range(1, 54));
  if (main) {
    const gap = mean(main.map((r) => r.meanGap));
    const target = ({ 2: 0.05, 10: 0.02 } as Record<number, number>)[timeLimit];
    console.log(
      `${solver}: mean gap over G1–G54 at ${timeLimit} s: ${gap.toFixed(3)} % ${target === undefined ? '(targets: ≤ 0.05 % at 2 s, ≤ 0.02 % at 10 s)' : `(target ≤ ${target} % at ${timeLimit} s): ${verdict(gap <= target)}`}`,
    );
    const seeds = Math.min(2, ...main.map((r) => r.runs.length));
    const hit = main.filter((r) => r.runs.some((run) => run.seed <= 2 && atBestKnown(run))).length;
    const judged = timeLimit === 10 && seeds === 2;
    console.log(
      `${solver}: G1–G54 at the best-known cut in ${seeds === 2 ? 'at least one of seeds 1–2' : 'seed 1'} at ${timeLimit} s: ${hit}/54 ${judged ? `(target ≥ 45 of 54): ${verdict(hit >= 45)}` : '(target: ≥ 45 of 54 in one of two seeds at 10 s)'}`,
    );
  }
  const large = all(['G55', 'G60', 'G70', 'G81']);
  if (large) {
    const worst = Math.max(...large.map((r) => r.meanGap));
    console.log(
      `${solver}: G55, G60, G70, G81 at ${timeLimit} s: worst mean gap ${worst.toFixed(3)} % ${timeLimit === 30 ? `(target ≤ 0.15 % each): ${verdict(worst <= 0.15)}` : '(target: ≤ 0.15 % each at 30 s)'}`,
    );
  }
}
