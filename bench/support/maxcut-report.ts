// The max-cut benchmark's tables: one row per instance and solver, the mean gap per family, and the
// issue's targets as met / not met.
import { familyOf } from './gset.ts';
import type { Instance } from './gset.ts';

export interface Run {
  instance: Instance;
  solver: string;
  seed: number;
  cut: number;
  timeToBest: number;
  optimal: boolean;
}

/** How far below the best-known cut, in percent of it (negative: a new record). */
export function gapPercent(run: Run): number {
  return (100 * (run.instance.bestKnown - run.cut)) / run.instance.bestKnown;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const seconds = (s: number): string => (Number.isFinite(s) ? s.toFixed(2) : '—');

interface Row {
  instance: Instance;
  solver: string;
  runs: Run[];
  meanGap: number;
  /** Time to reach the best-known cut per run, Infinity where a run did not reach it. */
  hitTimes: number[];
}

function rowsOf(runs: Run[]): Row[] {
  const rows = new Map<string, Row>();
  for (const run of runs) {
    const key = `${run.instance.name}\t${run.solver}`;
    const row = rows.get(key) ?? { instance: run.instance, solver: run.solver, runs: [], meanGap: 0, hitTimes: [] };
    row.runs.push(run);
    rows.set(key, row);
  }
  for (const row of rows.values()) {
    row.meanGap = mean(row.runs.map(gapPercent));
    row.hitTimes = row.runs.map((r) => (r.cut >= r.instance.bestKnown ? r.timeToBest : Infinity));
  }
  return [...rows.values()];
}

function table(header: string[], lines: (string | number)[][]): string {
  const out = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const line of lines) out.push(`| ${line.join(' | ')} |`);
  return out.join('\n');
}

export function printReport(runs: Run[], timeLimit: number): void {
  const rows = rowsOf(runs);
  const solvers = [...new Set(rows.map((r) => r.solver))];
  console.log(
    table(
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
          `${r.hitTimes.filter(Number.isFinite).length}/${r.runs.length}`,
          seconds(median(r.runs.map((x) => x.timeToBest))),
        ];
      }),
    ),
  );
  console.log();
  const families = [...new Set(rows.map((r) => familyOf(r.instance.name)))];
  const groupLines: (string | number)[][] = [];
  for (const solver of solvers) {
    for (const family of [...families, 'all']) {
      const inGroup = rows.filter(
        (r) => r.solver === solver && (family === 'all' || familyOf(r.instance.name) === family),
      );
      if (inGroup.length === 0) continue;
      const hits = inGroup.flatMap((r) => r.hitTimes);
      groupLines.push([
        family,
        solver,
        inGroup.length,
        mean(inGroup.map((r) => r.meanGap)).toFixed(3),
        `${hits.filter(Number.isFinite).length}/${hits.length}`,
      ]);
    }
  }
  console.log(table(['family', 'solver', 'instances', 'mean gap %', 'runs at best known'], groupLines));
  console.log();
  for (const solver of solvers)
    printTargets(
      rows.filter((r) => r.solver === solver),
      solver,
      timeLimit,
    );
}

const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `G${from + i}`);

function printTargets(rows: Row[], solver: string, timeLimit: number): void {
  const byName = new Map(rows.map((r) => [r.instance.name, r]));
  const all = (names: string[]): Row[] | undefined =>
    names.every((n) => byName.has(n)) ? names.map((n) => byName.get(n)!) : undefined;
  const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  const easy = all([...range(1, 10), ...range(43, 47)]);
  if (easy) {
    const times = easy.flatMap((r) => r.hitTimes);
    const hit = times.filter(Number.isFinite).length;
    const med = median(times);
    console.log(
      `${solver}: best known on G1–G10, G43–G47 in ${hit}/${times.length} runs, median time to it ${seconds(med)} s (target: every one, median ≤ 0.5 s): ${verdict(hit === times.length && med <= 0.5)}`,
    );
  }
  const main = all(range(1, 54));
  if (main) {
    const gap = mean(main.map((r) => r.meanGap));
    const target = timeLimit >= 10 ? 0.03 : timeLimit >= 2 ? 0.1 : undefined;
    console.log(
      `${solver}: mean gap over G1–G54 at ${timeLimit} s: ${gap.toFixed(3)} %${target === undefined ? '' : ` (target ≤ ${target} %): ${verdict(gap <= target)}`}`,
    );
  }
  const large = all(['G55', 'G60', 'G70', 'G81']);
  if (large) {
    const worst = Math.max(...large.map((r) => r.meanGap));
    console.log(
      `${solver}: G55, G60, G70, G81 at ${timeLimit} s: worst mean gap ${worst.toFixed(3)} %${timeLimit >= 30 ? ` (target ≤ 0.2 % each): ${verdict(worst <= 0.2)}` : ''}`,
    );
  }
}
