// The QUBO solver benchmark (`npm run bench:qubo -- [options]`): QUBO jobs, solved by the max-cut solvers on the
// equivalent graph (server/src/qubo/), run through the server's SolverPool as a worker runs them.
//
//   --instances G1,G14,G22,G32,G43   Gset graphs as QUBOs (minimum energy = -max cut; "" for none), from GSET_DIR
//   --exact 20,24,28,32      random matrices of these sizes, solved by `exact` too ("" for none)
//   --sizes 200,1000         larger random matrices, no exact value ("" for none)
//   --time 2                 seconds per run (default 2)
//   --seeds 3                runs per instance and solver, seeds 1..N (default 3)
//   --solvers annealing      comma-separated heuristic solvers (default annealing)
//   --threads 2 --parallel 1 the pool's threads and runs at once, as bench:maxcut takes them
//   --exact-time 600         exact's time limit in seconds (default 600; n = 32 takes several seconds)
//
// Random matrices hold integers uniform in [-100, 100], not symmetric, diagonal included, one matrix per size
// (seeded by its size). It prints markdown tables: energy against -(best-known cut) for Gset, against exact's
// minimum for small matrices, and the best and spread over seeds for large ones. It reports; it asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { QuboInput } from '@jes/contract/inputs';
import { expandInstances, gsetDir, type Instance, loadGraph, readBestKnown } from './support/gset.ts';
import { TARGET } from './support/maxcut-report.ts';
import { createPoolRunner, poolOptions, positive } from './support/pool-runs.ts';
import { quboFromGraph, randomQubo } from './support/qubo-instances.ts';
import {
  exactTable,
  type GsetQubo,
  gsetTable,
  type QuboRun,
  type RandomQubo,
  seedsTable,
} from './support/qubo-report.ts';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: 'G1,G14,G22,G32,G43' },
    exact: { type: 'string', default: '20,24,28,32' },
    sizes: { type: 'string', default: '200,1000' },
    time: { type: 'string', default: '2' },
    seeds: { type: 'string', default: '3' },
    solvers: { type: 'string', default: 'annealing' },
    ...poolOptions,
    'exact-time': { type: 'string', default: '600' },
  },
});

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const sizes = (name: string, text: string): number[] => list(text).map((s) => positive(name, s, true));

const time = positive('time', values.time, false);
const seeds = positive('seeds', values.seeds, true);
const exactTime = positive('exact-time', values['exact-time'], false);
const threads = positive('threads', values.threads, true);
const parallel = positive('parallel', values.parallel, true);
const solvers = list(values.solvers);
const exactSizes = sizes('exact', values.exact);
const largeSizes = sizes('sizes', values.sizes);

const gset: { instance: Instance; input: QuboInput }[] = [];
if (list(values.instances).length > 0) {
  const dir = gsetDir();
  if (!fs.existsSync(dir))
    throw new Error(`no Gset folder at ${dir}: set GSET_DIR to the folder of G*.txt and best-known.tsv`);
  const known = readBestKnown(dir);
  // Every input built first: building one on the main thread would take a core from the runs.
  for (const name of expandInstances(values.instances, known))
    gset.push({ instance: known.get(name)!, input: quboFromGraph(await loadGraph(dir, name)) });
}
const small = exactSizes.map((n) => ({ n, input: randomQubo(n, n) }));
const large = largeSizes.map((n) => ({ n, input: randomQubo(n, n) }));

const runner = createPoolRunner(threads, parallel);
try {
  console.log(
    `QUBO benchmark: ${gset.length} Gset instances, random n = ${[...exactSizes, ...largeSizes].join(', ') || 'none'} × ${solvers.join(', ')} × ${seeds} seed(s), ${time} s per run (exact: up to ${exactTime} s), ${threads} threads, ${parallel} run(s) at once, Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}`,
  );
  let done = 0;
  const total = (gset.length + small.length + large.length) * solvers.length * seeds + small.length;
  const counted = <T>(promise: Promise<T>): Promise<T> =>
    promise.then((value) => {
      done++;
      if (process.stderr.isTTY) process.stderr.write(`\r${done}/${total} runs`);
      return value;
    });

  /** Every solver × seed on the input; `reached` marks the target for the time to it. */
  const runsOf = (input: QuboInput, reached?: (energy: number) => boolean): Promise<QuboRun[]> =>
    Promise.all(
      solvers.flatMap((solver) =>
        Array.from({ length: seeds }, (_, i) =>
          counted(runner.run({ problemId: 'qubo', solver, input, timeLimitSeconds: time, seed: i + 1 }, reached)).then(
            ({ output, timeToTarget }) => ({
              solver,
              seed: i + 1,
              energy: output.objective,
              timeToBest: output.data.time_to_best_seconds as number,
              timeToTarget,
            }),
          ),
        ),
      ),
    );

  const gsetRuns: Promise<GsetQubo[]> = Promise.all(
    gset.map(async ({ instance, input }) => ({
      instance,
      runs: await runsOf(input, (energy) => energy <= -instance.bestKnown * TARGET),
    })),
  );
  const smallRuns: Promise<RandomQubo[]> = Promise.all(
    small.map(async ({ n, input }) => {
      const request = { problemId: 'qubo', solver: 'exact', input, timeLimitSeconds: exactTime, seed: 1 };
      const [{ output }, runs] = await Promise.all([counted(runner.run(request)), runsOf(input)]);
      return { n, exact: { energy: output.objective, optimal: output.data.optimal === true }, runs };
    }),
  );
  const largeRuns: Promise<RandomQubo[]> = Promise.all(
    large.map(async ({ n, input }) => ({ n, runs: await runsOf(input) })),
  );
  const [gsetDone, smallDone, largeDone] = await Promise.all([gsetRuns, smallRuns, largeRuns]);
  if (process.stderr.isTTY) process.stderr.write('\n');
  console.log(`${runner.describeThreads()}\n`);
  if (gsetDone.length > 0) {
    console.log(`Gset graphs as QUBOs (best-known energy = -best-known cut; target: within 0.1 % of it)\n`);
    console.log(`${gsetTable(gsetDone)}\n`);
  }
  if (smallDone.length > 0) {
    console.log(`Random matrices against exact's minimum (difference: worst found − minimum)\n`);
    console.log(`${exactTable(smallDone)}\n`);
  }
  if (largeDone.length > 0) {
    console.log(`Random matrices across seeds (no known minimum)\n`);
    console.log(`${seedsTable(largeDone)}\n`);
  }
} finally {
  await runner.close();
}
