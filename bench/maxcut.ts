// The max-cut solver benchmark (`npm run bench:maxcut -- [options]`).
//
//   --instances G1-G10,G43   Gset instances (default G1-G54), read from GSET_DIR or ../shared/data/gset
//   --time 2                 seconds per run (default 2)
//   --seeds 3                runs per instance and solver, seeds 1..N (default 1)
//   --solvers annealing      comma-separated solver names (default: the default heuristic, annealing)
//   --parallel 2             runs at once, one worker thread each (default: the CPU count)
//   --csv runs.csv --json runs.json   also write every run
//   --exact 28,30,32         instead: time the exact solver on dense random graphs of these sizes
//
// Every run goes through the server's SolverPool, so it runs in a worker thread exactly as a job does.
// It prints a markdown table per instance, the mean gap per family, and the targets as met or
// not met (never asserted: a benchmark reports, tests check).
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { defaultSolvers } from '../server/src/maxcut/solvers/index.ts';
import { SolverPool } from '../server/src/worker/pool.ts';
import { expandInstances, gsetDir, loadGraph, readBestKnown } from './support/gset.ts';
import { runExact } from './support/exact-timing.ts';
import { gapPercent, printReport } from './support/maxcut-report.ts';
import type { Run } from './support/maxcut-report.ts';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: 'G1-G54' },
    time: { type: 'string', default: '2' },
    seeds: { type: 'string', default: '1' },
    solvers: {
      type: 'string',
      default: defaultSolvers({ n: Infinity })
        .map((s) => s.name)
        .join(','),
    },
    parallel: { type: 'string', default: String(os.availableParallelism()) },
    csv: { type: 'string' },
    json: { type: 'string' },
    exact: { type: 'string' },
  },
});

function positive(name: string, text: string, integer: boolean): number {
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${text}"`);
  return value;
}

const pool = new SolverPool({ size: positive('parallel', values.parallel, true) });
try {
  if (values.exact !== undefined) {
    await runExact(
      pool,
      values.exact.split(',').map((s) => positive('exact', s, true)),
    );
  } else {
    const dir = gsetDir();
    if (!fs.existsSync(dir))
      throw new Error(`no Gset folder at ${dir}: set GSET_DIR to the folder of G*.txt and best-known.tsv`);
    const known = readBestKnown(dir);
    const names = expandInstances(values.instances, known);
    const time = positive('time', values.time, false);
    const seeds = positive('seeds', values.seeds, true);
    const solverNames = values.solvers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    console.log(
      `max-cut benchmark: ${names.length} instances × ${solverNames.join(', ')} × ${seeds} seed(s), ${time} s per run, ${pool.size} at once, Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}\n`,
    );

    const runs: Promise<Run>[] = [];
    let done = 0;
    const total = names.length * solverNames.length * seeds;
    for (const name of names) {
      const graph = await loadGraph(dir, name);
      for (const solver of solverNames) {
        for (let seed = 1; seed <= seeds; seed++) {
          runs.push(
            pool
              .run({ problemId: 'maxcut', solver, input: graph, timeLimitSeconds: time, seed })
              .result.then(({ data }) => {
                done++;
                if (process.stderr.isTTY) process.stderr.write(`\r${done}/${total} runs`);
                return {
                  instance: known.get(name)!,
                  solver,
                  seed,
                  cut: data.cut_value as number,
                  timeToBest: data.time_to_best_seconds as number,
                  optimal: data.optimal as boolean,
                };
              }),
          );
        }
      }
    }
    const finished = await Promise.all(runs);
    if (process.stderr.isTTY) process.stderr.write('\n');
    printReport(finished, time);
    if (values.csv) {
      const header = 'instance,solver,seed,nodes,edges,best_known,cut,gap_percent,time_to_best_seconds';
      const lines = finished.map((r) =>
        [
          r.instance.name,
          r.solver,
          r.seed,
          r.instance.nodes,
          r.instance.edges,
          r.instance.bestKnown,
          r.cut,
          gapPercent(r).toFixed(4),
          r.timeToBest.toFixed(3),
        ].join(','),
      );
      fs.writeFileSync(values.csv, [header, ...lines].join('\n') + '\n');
    }
    if (values.json)
      fs.writeFileSync(
        values.json,
        JSON.stringify(
          finished.map((r) => ({ ...r, instance: r.instance.name, gapPercent: gapPercent(r) })),
          null,
          2,
        ),
      );
  }
} finally {
  await pool.close();
}
