// The QUBO benchmark's tables: Gset graphs as QUBOs against minus their best-known cut, random matrices small
// enough for `exact` against the minimum it proves, and larger ones across seeds (no known minimum).
import type { Instance } from './gset.ts';
import { mean, median, seconds, table } from './report-table.ts';

export interface QuboRun {
  solver: string;
  seed: number;
  energy: number;
  timeToBest: number;
  /** Seconds to an energy within 0.1 % of the best known (Gset only); Infinity when not reached. */
  timeToTarget: number;
}

export interface GsetQubo {
  instance: Instance;
  runs: QuboRun[];
}

export interface RandomQubo {
  n: number;
  /** The minimum `exact` proved (or its best, when it did not prove it): only for matrices within its limit. */
  exact?: { energy: number; optimal: boolean };
  runs: QuboRun[];
}

const bySolver = (runs: QuboRun[]): [string, QuboRun[]][] => [
  ...Map.groupBy(runs, (r) => r.solver as string).entries(),
];

/** How far above the best-known energy (-bestKnown), in percent of the best-known cut. */
const gap = (energy: number, instance: Instance): number => (100 * (energy + instance.bestKnown)) / instance.bestKnown;

export function gsetTable(instances: GsetQubo[]): string {
  const lines = instances.flatMap(({ instance, runs }) =>
    bySolver(runs).map(([solver, own]) => {
      const energies = own.map((r) => r.energy);
      const best = Math.min(...energies);
      return [
        instance.name,
        solver,
        instance.nodes,
        -instance.bestKnown,
        best,
        mean(energies).toFixed(1),
        gap(best, instance).toFixed(3),
        mean(energies.map((e) => gap(e, instance))).toFixed(3),
        `${energies.filter((e) => e <= -instance.bestKnown).length}/${own.length}`,
        `${own.filter((r) => Number.isFinite(r.timeToTarget)).length}/${own.length}`,
        seconds(median(own.map((r) => r.timeToTarget))),
      ];
    }),
  );
  return table(
    [
      'instance',
      'solver',
      'variables',
      'best-known energy',
      'best found',
      'mean found',
      'gap % (best)',
      'mean gap %',
      'runs at best known',
      'runs at target',
      'median time to target (s)',
    ],
    lines,
  );
}

export function exactTable(matrices: RandomQubo[]): string {
  const lines = matrices.flatMap(({ n, exact, runs }) =>
    bySolver(runs).map(([solver, own]) => {
      const energies = own.map((r) => r.energy);
      const minimum = exact!.energy;
      return [
        n,
        solver,
        minimum,
        exact!.optimal ? 'yes' : 'NO (its best)',
        `${energies.filter((e) => e === minimum).length}/${own.length}`,
        Math.min(...energies),
        Math.max(...energies),
        Math.max(...energies) - minimum,
        seconds(median(own.map((r) => r.timeToBest))),
      ];
    }),
  );
  return table(
    [
      'n',
      'solver',
      'exact minimum',
      'proven',
      'runs at the minimum',
      'best found',
      'worst found',
      'largest difference',
      'median time to best (s)',
    ],
    lines,
  );
}

export function seedsTable(matrices: RandomQubo[]): string {
  const lines = matrices.flatMap(({ n, runs }) =>
    bySolver(runs).map(([solver, own]) => {
      const energies = own.map((r) => r.energy);
      const best = Math.min(...energies);
      const spread = Math.max(...energies) - best;
      return [
        n,
        solver,
        own.length,
        best,
        median(energies),
        Math.max(...energies),
        spread,
        best === 0 ? '—' : ((100 * spread) / Math.abs(best)).toFixed(3),
        seconds(median(own.map((r) => r.timeToBest))),
      ];
    }),
  );
  return table(
    [
      'n',
      'solver',
      'seeds',
      'best energy',
      'median energy',
      'worst energy',
      'spread (worst − best)',
      'spread % of best',
      'median time to best (s)',
    ],
    lines,
  );
}
