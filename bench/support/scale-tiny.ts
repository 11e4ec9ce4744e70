// bench:scale --tiny: bench:api's tiny jobs (bench/support/tiny-jobs.ts) on PostgreSQL with one API process and one
// worker process, then one API process and two worker processes (JES_WORKERS=2 each), side by side: jobs/s, the
// submit→FINISHED latency, and what the store says afterwards. The cost of a job here is the round trips to the
// database and the API's work, not solving (the solver-bound run is bench/support/scale-solver.ts).
import { type ScaleProcesses, readStore, type StoreAfterRun, startScaleProcesses } from './scale-processes.ts';
import { Api } from './client.ts';
import { settings } from './settings.ts';
import { runTinyJobs, type TinyJobFigures } from './tiny-jobs.ts';

export const tinyThreads = 2;

interface Run extends StoreAfterRun {
  workers: number;
  figures: TinyJobFigures;
  exited: string[];
}

async function runConfiguration(workers: number): Promise<Run> {
  const procs: ScaleProcesses = await startScaleProcesses(workers, tinyThreads);
  try {
    const api = new Api(procs.api.url);
    await api.login();
    const figures = await runTinyJobs(api);
    const exited = procs.exited();
    const store = await readStore(
      procs.url,
      procs.workers.map((w) => w.child),
    );
    return { workers, figures, ...store, exited };
  } finally {
    await procs.close();
  }
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

function report(runs: Run[]): string[] {
  const out: string[] = [];
  const head = runs.map((r) => `1 API + ${r.workers} worker process${r.workers === 1 ? '' : 'es'}`);
  out.push(`| Measure | ${head.join(' | ')} |`, `|---|${runs.map(() => '---:').join('|')}|`);
  const row = (label: string, cell: (r: Run) => string) => out.push(`| ${label} | ${runs.map(cell).join(' | ')} |`);
  const { jobs } = runs[0]!.figures;
  row(`Tiny jobs (8 nodes, exact), ${jobs} jobs, ${settings.inFlight} in flight: jobs/s`, (r) =>
    r.figures.perSecond.toFixed(0),
  );
  row(
    'jobs/s relative to 1 worker process',
    (r) => `${(r.figures.perSecond / runs[0]!.figures.perSecond).toFixed(2)}×`,
  );
  row('submit → FINISHED p50 / p99', (r) => `${ms(r.figures.p50)} / ${ms(r.figures.p99)} ms`);
  row('first submit → last FINISHED', (r) => `${r.figures.seconds.toFixed(2)} s`);
  row('measured jobs not FINISHED', (r) => String(r.figures.failed));
  row('measured jobs seen FINISHED only after ≥ 10 s (a long poll that waited its whole Prefer: wait=10)', (r) =>
    String(r.figures.overWait),
  );
  row('jobs in the store by status (warm-up included)', (r) =>
    Object.entries(r.jobs)
      .map(([status, n]) => `${status} ${n}`)
      .join(', '),
  );
  row('executions run per worker process', (r) => r.perWorker.join(' + '));
  row('executions retried (attempts > 1)', (r) => String(r.retried));
  row('processes that stopped during the run', (r) => (r.exited.length ? r.exited.join(', ') : 'none'));
  const broken = runs.filter(
    (r) => r.figures.failed || r.exited.length || Object.keys(r.jobs).some((status) => status !== 'FINISHED'),
  );
  out.push('', broken.length ? '**Something broke**: see the rows above.' : 'Every job FINISHED; no process stopped.');
  return out;
}

/** The tiny-job run's header lines and table. */
export async function tinyScaleOut(): Promise<string[]> {
  const runs = [await runConfiguration(1), await runConfiguration(2)];
  return [
    `- Tiny jobs: API JES_WORKERS=0, each \`jes-server worker\` JES_WORKERS=${tinyThreads}; ${settings.jobWarmup} warm-up jobs first (not counted)`,
    '',
    ...report(runs),
  ];
}
