// The scale-out benchmark (`npm run bench:scale`, or `node bench/scale-out.ts [--quick] [options]`) on PostgreSQL,
// the API and the workers in separate processes, each configuration on a fresh database.
//
// By default, solver-bound jobs (bench/support/scale-solver.ts): annealing on Gset graphs (GSET_DIR, default
// ../shared/data/gset) with a fixed time limit, submitted as a burst through one API process (JES_WORKERS=0) to 1, 2
// and 4 `jes-server worker` processes; completed jobs per minute, the queue wait from the jobs' own timestamps, the
// CPU of every process and of PostgreSQL's backends, the store's share of a job, and the model printed under the
// table (bench/support/scale-report.ts).
//   --processes 1,2,4   worker processes of each configuration
//   --threads 1         JES_WORKERS of each worker process: one solver thread, so that the worker processes are the
//                       unit that scales (1 and 2 fill a 2-core machine's cores one by one; 4 oversubscribe it)
//   --jobs 40 --time 5  jobs per configuration and their time limit in seconds (--quick: 8 jobs of 1 s)
//   --instances G1-G10  the Gset graphs, in turn (--quick: G1-G3)
// With --tiny, bench:api's tiny jobs instead (bench/support/scale-tiny.ts): 1 API + 1 worker process vs 1 API + 2.
//
// Skipped, with the reason printed, when no PostgreSQL answers (JES_TEST_POSTGRES_URL, default 127.0.0.1:5432,
// database test). Its HTTP goes to 127.0.0.1 only; it drops its databases and stops every child on exit. Figures are
// printed, never asserted.
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { agent } from './support/client.ts';
import { expandInstances, gsetDir, readBestKnown } from './support/gset.ts';
import { stopAll } from './support/processes.ts';
import { solverReport } from './support/scale-report.ts';
import { solverScaleOut, type SolverWorkload } from './support/scale-solver.ts';
import { tinyScaleOut } from './support/scale-tiny.ts';
import { freshDatabase, postgresAdminUrl } from './support/seed-postgres.ts';
import { quick } from './support/settings.ts';
import { connectionLimits } from './support/store-share.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    tiny: { type: 'boolean', default: false },
    processes: { type: 'string', default: '1,2,4' },
    threads: { type: 'string', default: '1' },
    jobs: { type: 'string', default: quick ? '8' : '40' },
    time: { type: 'string', default: quick ? '1' : '5' },
    instances: { type: 'string', default: quick ? 'G1-G3' : 'G1-G10' },
  },
});

function positive(name: string, text: string, integer = true): number {
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${text}"`);
  return value;
}

function workload(): SolverWorkload {
  const dir = gsetDir();
  if (!fs.existsSync(dir)) throw new Error(`no Gset folder at ${dir}: set GSET_DIR to the folder of G*.txt`);
  const known = readBestKnown(dir);
  return {
    processes: values.processes.split(',').map((p) => positive('processes', p)),
    threads: positive('threads', values.threads),
    jobs: positive('jobs', values.jobs),
    timeLimitSeconds: positive('time', values.time, false),
    instances: expandInstances(values.instances, known).map((name) => known.get(name)!),
    gsetDir: dir,
  };
}

async function main(): Promise<void> {
  const started = new Date();
  const probe = await freshDatabase();
  if ('skip' in probe) {
    console.log(`bench:scale skipped: ${probe.skip}`);
    return;
  }
  await probe.drop();
  const cpus = os.cpus();
  const out: string[] = [
    `## jes scale-out benchmark on PostgreSQL${values.tiny ? ', tiny jobs' : ', solver-bound jobs'}${quick ? ' (--quick)' : ''}`,
    '',
    `- Node ${process.version}, ${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ${os.release()}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `- ${started.toISOString()}`,
    '- PostgreSQL on this machine, a fresh database per column; LOG_LEVEL=warn, rate limits off, response validation on; ' +
      'the benchmark, the API, the workers and PostgreSQL share the machine’s cores',
  ];
  if (values.tiny) out.push(...(await tinyScaleOut()));
  else {
    const w = workload();
    out.push(
      `- Solver-bound jobs: a burst of ${w.jobs} jobs per column, each one \`annealing\` execution with time_limit_seconds ${w.timeLimitSeconds}, ` +
        `on ${w.instances.map((i) => i.name).join(', ')} in turn (data files, ${w.instances[0]!.nodes} nodes first), seeds 1…${w.jobs}; ` +
        `API JES_WORKERS=0, each \`jes-server worker\` JES_WORKERS=${w.threads}, JES_METRICS_PORT=0`,
      '',
    );
    const runs = await solverScaleOut(w);
    out.push(...solverReport(runs, w, os.availableParallelism(), await connectionLimits(postgresAdminUrl)));
  }
  out.push('', `Total run time ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`);
  console.log(out.join('\n'));
}

try {
  await main();
} finally {
  agent.destroy();
  await stopAll();
}
