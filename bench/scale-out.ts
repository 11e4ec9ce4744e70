// The scale-out benchmark (`npm run bench:scale`, or `node bench/scale-out.ts [--quick]`): tiny jobs end to end on
// PostgreSQL with one API process (JES_WORKERS=0) and one worker process (`jes-server worker`), then with one API
// process and two worker processes, printed side by side.
//
// Each configuration gets a fresh database (bench/support/seed-postgres.ts, shared with bench:store) and the workload
// of bench:api's tiny jobs (bench/support/tiny-jobs.ts: 8-node inline max-cut jobs, 32 in flight, each long-polled
// until it ends), after a warm-up that is not counted. Each worker process runs JES_WORKERS=2 solver threads (the
// default on a 2-core machine), so the second process adds a whole worker: its claim loop, its connections, its
// threads. After the run it reads the store: the jobs by status, the executions each worker process ran, and how many
// were retried; and whether every process is still running. Skipped, with the reason printed, when no PostgreSQL
// answers (JES_TEST_POSTGRES_URL, default 127.0.0.1:5432, database test). Its HTTP goes to 127.0.0.1 only; it drops its
// databases and stops every child on exit. Figures are printed, never asserted.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import pg from 'pg';
import { agent, Api } from './support/client.ts';
import { freshDatabase } from './support/seed-postgres.ts';
import { type ChildServer, node, serverCli } from '../test/support/child-server.ts';
import { serverEnv, startProcess, stopAll } from './support/processes.ts';
import { quick, settings } from './support/settings.ts';
import { runTinyJobs, type TinyJobFigures } from './support/tiny-jobs.ts';

const threadsPerWorker = 2;

/** `jes-server worker` on `url`, once it says it runs. */
const startWorkerProcess = (url: string): Promise<ChildServer> =>
  startProcess(
    'jes worker',
    node(serverCli, 'worker'),
    serverEnv({ DATABASE_URL: url, JES_WORKERS: String(threadsPerWorker) }),
    { ready: /^jes worker running/m },
  );

interface Run {
  workers: number;
  figures: TinyJobFigures;
  /** Jobs in the store by status, warm-up included. */
  jobs: Record<string, number>;
  /** Executions each worker process ran (in start order), warm-up included. */
  perWorker: number[];
  retried: number;
  /** Processes that were no longer running at the end. */
  exited: string[];
}

/** What the store says of the run: jobs by status, executions per worker process (by pid), retried executions. */
async function readStore(url: string, workers: ChildProcess[]): Promise<Pick<Run, 'jobs' | 'perWorker' | 'retried'>> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const jobs = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM jobs GROUP BY status',
    );
    const runs = await db.query<{ worker: string | null; n: number; retried: number }>(
      'SELECT worker, count(*)::int AS n, count(*) FILTER (WHERE attempts > 1)::int AS retried FROM executions GROUP BY worker',
    );
    // A worker's id is host:pid:random (server/src/worker/loop.ts).
    const pidOf = (id: string | null) => Number(id?.split(':').at(-2));
    return {
      jobs: Object.fromEntries(jobs.rows.map((r) => [r.status, r.n])),
      perWorker: workers.map((w) => runs.rows.filter((r) => pidOf(r.worker) === w.pid).reduce((s, r) => s + r.n, 0)),
      retried: runs.rows.reduce((s, r) => s + r.retried, 0),
    };
  } finally {
    await db.end();
  }
}

async function runConfiguration(workers: number): Promise<Run> {
  const database = await freshDatabase();
  if ('skip' in database) throw new Error(database.skip);
  const procs: ChildServer[] = [];
  try {
    // The API first: it migrates the fresh database before any worker opens it.
    const server = await startProcess(
      'jes server (JES_WORKERS=0)',
      node(serverCli),
      serverEnv({ DATABASE_URL: database.url, JES_WORKERS: '0' }),
    );
    procs.push(server);
    const workerProcs: ChildServer[] = [];
    for (let i = 0; i < workers; i++) workerProcs.push(await startWorkerProcess(database.url));
    procs.push(...workerProcs);
    const api = new Api(server.url);
    await api.login();
    const figures = await runTinyJobs(api);
    const exited = procs
      .filter((p) => !p.alive())
      .map((p) => `${p === server ? 'API' : 'worker'} (${p.child.exitCode ?? p.child.signalCode})`);
    return {
      workers,
      figures,
      ...(await readStore(
        database.url,
        workerProcs.map((w) => w.child),
      )),
      exited,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await database.drop();
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

async function main(): Promise<void> {
  const started = new Date();
  const probe = await freshDatabase();
  if ('skip' in probe) {
    console.log(`bench:scale skipped: ${probe.skip}`);
    return;
  }
  await probe.drop();
  const cpus = os.cpus();
  const out: string[] = [`## jes scale-out benchmark on PostgreSQL${quick ? ' (--quick)' : ''}`, ''];
  out.push(
    `- Node ${process.version}, ${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${os.platform()} ${os.release()}`,
    `- ${started.toISOString()}`,
    `- PostgreSQL on this machine, a fresh database per column; API JES_WORKERS=0, each \`jes-server worker\` JES_WORKERS=${threadsPerWorker}; ` +
      `LOG_LEVEL=warn, rate limits off, response validation on; the load generator, the API, the workers and PostgreSQL share the machine's cores`,
    `- ${settings.jobWarmup} warm-up jobs first (not counted)`,
    '',
  );
  const runs = [await runConfiguration(1), await runConfiguration(2)];
  out.push(...report(runs), '', `Total run time ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s.`);
  console.log(out.join('\n'));
}

try {
  await main();
} finally {
  agent.destroy();
  await stopAll();
}
