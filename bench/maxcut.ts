// The max-cut solver benchmark (`npm run bench:maxcut -- [options]`): what a job gets on a worker.
//
//   --instances G1-G10,G43   Gset instances (default G1-G54), read from GSET_DIR or ../shared/data/gset
//   --time 2                 seconds per run (default 2)
//   --seeds 3                runs per instance and solver, seeds 1..N (default 1)
//   --solvers annealing      comma-separated solver names (default: the default heuristic, annealing)
//   --threads 2              the pool's threads, the worker's budget as JES_WORKERS sets it (default: the CPU count)
//   --parallel 1             runs at once (default 1, at most --threads): each takes the threads the pool's rule
//                            gives it (worker/team.ts), alone all of them, beside others what is free then (not
//                            always --threads / --parallel: the header says what each run got)
//   --csv runs.csv --json runs.json   also write every run
//   --exact 28,30,32         instead: time the exact solver on dense random graphs of these sizes (one thread)
//
// Every run goes through the server's SolverPool, so it runs in worker threads exactly as a job does, and the next
// starts when one ends (bench/support/pool-runs.ts). It prints a markdown table per instance; per family the mean
// gap, the instances at the best-known cut in at least one seed, and the median and worst time to a cut within
// 0.1 % of the best known; and issue 34's targets as met or not met (never asserted: a benchmark reports, tests
// check).
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { defaultSolvers } from '../server/src/maxcut/solvers/index.ts';
import { SolverPool } from '../server/src/worker/pool.ts';
import { expandInstances, gsetDir, loadGraph, readBestKnown } from './support/gset.ts';
import { runExact } from './support/exact-timing.ts';
import { gapPercent, printReport, reachesTarget } from './support/maxcut-report.ts';
import type { Run } from './support/maxcut-report.ts';
import { createPoolRunner, poolOptions, positive } from './support/pool-runs.ts';

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
    ...poolOptions,
    csv: { type: 'string' },
    json: { type: 'string' },
    exact: { type: 'string' },
  },
});

const threads = positive('threads', values.threads, true);
const parallel = positive('parallel', values.parallel, true);

if (values.exact !== undefined) {
  // One run at a time, each on one thread (exact never takes more): its timing is the enumeration's alone.
  const pool = new SolverPool({ size: threads });
  try {
    await runExact(
      pool,
      values.exact.split(',').map((s) => positive('exact', s, true)),
    );
  } finally {
    await pool.close();
  }
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
  const runner = createPoolRunner(threads, parallel);
  try {
    console.log(
      `max-cut benchmark: ${names.length} instances × ${solverNames.join(', ')} × ${seeds} seed(s), ${time} s per run, ${threads} threads, ${parallel} run(s) at once, Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}`,
    );

    // Every graph read first: reading one on the main thread would take a core from the runs.
    const graphs = [];
    for (const name of names) graphs.push({ instance: known.get(name)!, graph: await loadGraph(dir, name) });
    const runs: Promise<Run>[] = [];
    let done = 0;
    const total = names.length * solverNames.length * seeds;
    for (const { instance, graph } of graphs) {
      for (const solver of solverNames) {
        for (let seed = 1; seed <= seeds; seed++) {
          const request = { problemId: 'maxcut', solver, input: graph, timeLimitSeconds: time, seed };
          runs.push(
            runner.run(request, reachesTarget(instance)).then(({ output: { data }, threads, timeToTarget }) => {
              done++;
              if (process.stderr.isTTY) process.stderr.write(`\r${done}/${total} runs`);
              return {
                instance,
                solver,
                seed,
                threads,
                cut: data.cut_value as number,
                timeToBest: data.time_to_best_seconds as number,
                timeToTarget,
                optimal: data.optimal as boolean,
                iterations: data.iterations as number,
              };
            }),
          );
        }
      }
    }
    const finished = await Promise.all(runs);
    if (process.stderr.isTTY) process.stderr.write('\n');
    console.log(`${runner.describeThreads()}\n`);
    printReport(finished, time);
    if (values.csv) {
      const header =
        'instance,solver,seed,nodes,edges,best_known,cut,gap_percent,time_to_best_seconds,time_to_target_seconds,threads,iterations';
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
          Number.isFinite(r.timeToTarget) ? r.timeToTarget.toFixed(3) : '',
          r.threads,
          r.iterations,
        ].join(','),
      );
      fs.writeFileSync(values.csv, [header, ...lines].join('\n') + '\n');
    }
    if (values.json)
      fs.writeFileSync(
        values.json,
        JSON.stringify(
          finished.map((r) => ({
            ...r,
            instance: r.instance.name,
            gapPercent: gapPercent(r),
            timeToTarget: Number.isFinite(r.timeToTarget) ? r.timeToTarget : null,
          })),
          null,
          2,
        ),
      );
  } finally {
    await runner.close();
  }
}
