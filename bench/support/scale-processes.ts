// The processes of a scale-out run (bench:scale): one API process (JES_WORKERS=0) and `workers` `jes-server worker`
// processes on a fresh PostgreSQL database, each worker serving its metrics on a port of its own
// (JES_METRICS_PORT=0; the URL it prints, if it prints one), and what the store says of the run afterwards.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { type ChildServer, node, serverCli } from '../../test/support/child-server.ts';
import { freshDatabase } from './seed-postgres.ts';
import { serverEnv, startProcess } from './processes.ts';

export interface ScaleProcesses {
  url: string;
  /** The database's name, for PostgreSQL's statistics. */
  name: string;
  api: ChildServer;
  workers: ChildServer[];
  /** Each process's /metrics (the API's, then each worker's), undefined where a process serves none. */
  metricsUrls: (string | undefined)[];
  /** The processes that are no longer running: `API (1)`, `worker 2 (SIGSEGV)`. */
  exited(): string[];
  /** Stops every process (the database stays, for PostgreSQL's statistics). */
  stop(): Promise<void>;
  /** Stops every process and drops the database. */
  close(): Promise<void>;
}

/** The URL a process printed on a line of its own naming /metrics, waiting up to `ms` for it. */
async function printedMetricsUrl(proc: ChildServer, ms = 1500): Promise<string | undefined> {
  const pattern = /(http:\/\/\S+\/metrics)\b/;
  const deadline = Date.now() + ms;
  for (;;) {
    const found = pattern.exec(proc.output());
    if (found) return found[1];
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startScaleProcesses(workers: number, threads: number): Promise<ScaleProcesses> {
  const database = await freshDatabase();
  if ('skip' in database) throw new Error(database.skip);
  const started: ChildServer[] = [];
  const stop = async () => {
    await Promise.all(started.map((p) => p.stop()));
  };
  const close = async () => {
    await stop();
    await database.drop();
  };
  try {
    // The API first: it migrates the fresh database before any worker opens it.
    const api = await startProcess(
      'jes server (JES_WORKERS=0)',
      node(serverCli),
      serverEnv({ DATABASE_URL: database.url, JES_WORKERS: '0', JES_METRICS: 'on' }),
    );
    started.push(api);
    const workerProcs: ChildServer[] = [];
    for (let i = 0; i < workers; i++) {
      const worker = await startProcess(
        `jes worker ${i + 1}`,
        node(serverCli, 'worker'),
        serverEnv({
          DATABASE_URL: database.url,
          JES_WORKERS: String(threads),
          JES_METRICS: 'on',
          JES_METRICS_PORT: '0',
        }),
        { ready: /^jes worker running/m },
      );
      started.push(worker);
      workerProcs.push(worker);
    }
    const metricsUrls = [
      // An API process without JES_METRICS_PORT serves /metrics on its own port.
      (await printedMetricsUrl(api, 0)) ?? `${api.url}/metrics`,
      ...(await Promise.all(workerProcs.map((w) => printedMetricsUrl(w)))),
    ];
    return {
      url: database.url,
      name: new URL(database.url).pathname.slice(1),
      api,
      workers: workerProcs,
      metricsUrls,
      exited: () =>
        started
          .filter((p) => !p.alive())
          .map((p) => `${p === api ? 'API' : `worker ${workerProcs.indexOf(p) + 1}`} (${p.exited()})`),
      stop,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface StoreAfterRun {
  /** Jobs in the store by status. */
  jobs: Record<string, number>;
  /** Executions each worker process ran (in start order). */
  perWorker: number[];
  /** Executions claimed more than once. */
  retried: number;
}

/** What the store says of the run: jobs by status, executions per worker process (by pid), retried executions. */
export async function readStore(url: string, workers: ChildProcess[]): Promise<StoreAfterRun> {
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

/**
 * Per worker process, the time between one execution's end and the next one's start (ms), the executions ordered by
 * their start: with one solver thread per process, how long a thread stood idle with work queued.
 */
export async function idleGaps(url: string): Promise<number[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ gap_ms: number }>(
      `SELECT extract(epoch FROM running_at - lag(ended_at) OVER (PARTITION BY worker ORDER BY running_at)) * 1000 AS gap_ms
         FROM executions WHERE running_at IS NOT NULL AND ended_at IS NOT NULL`,
    );
    return rows.flatMap((r) => (r.gap_ms === null ? [] : [Number(r.gap_ms)]));
  } finally {
    await db.end();
  }
}
