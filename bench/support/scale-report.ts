// The table and the model of bench:scale's solver-bound run (scale-solver.ts): one column per configuration, then,
// under the table, how throughput grows per core and per worker process, the store's share of each job, and at how
// many worker processes PostgreSQL (its CPU, its statement time, its connections) would become the bound.
import { quantile } from './load.ts';
import type { SolverRun, SolverWorkload } from './scale-solver.ts';

/** Connections a process may hold: its pool (server/src/store/postgres.ts, 10) and its LISTEN connection. */
const connectionsPerProcess = 11;

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const defined = <T>(xs: (T | undefined)[]) => xs.filter((x): x is T => x !== undefined);
const fixed = (x: number | undefined, digits = 1) =>
  x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits);
/** A count of processes: one decimal below 10. */
const count = (x: number) => (Number.isFinite(x) && x < 10 ? x.toFixed(1) : int(x));
const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
const ms = (x: number) =>
  !Number.isFinite(x) ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);

/** The figures of one configuration that the table and the model read. */
export function figures(run: SolverRun) {
  const done = run.records.filter((r) => r.status === 'FINISHED');
  const first = Math.min(...run.records.map((r) => r.submitted));
  const last = Math.max(...defined(run.records.map((r) => r.ended)));
  const seconds = (last - first) / 1000;
  const waits = defined(run.records.map((r) => (r.running === undefined ? undefined : r.running - r.submitted)));
  const solve = defined(done.map((r) => r.solveSeconds));
  const gapPercent = done.flatMap((r) =>
    r.bestValue === undefined ? [] : [(100 * (r.instance.bestKnown - r.bestValue)) / r.instance.bestKnown],
  );
  const workerCpu = run.cpu.workers.every((c) => c !== undefined) ? sum(defined(run.cpu.workers)) : undefined;
  const { metrics, database } = run.store;
  const store = {
    /** Statements, from the processes' metrics; undefined without them. */
    statements: metrics && sum(metrics.map((m) => m.statements)),
    /** Seconds the processes waited for their statements' answers, as they saw them. */
    clientMs: metrics && 1000 * sum(metrics.map((m) => m.seconds)),
    apiStatements: metrics?.[0]?.statements,
    transactions: database.transactions,
    /** Ms PostgreSQL's backends spent running statements (active_time). */
    serverMs: database.activeMs,
  };
  return {
    jobs: run.records.length,
    done: done.length,
    seconds,
    perMinute: (60 * done.length) / seconds,
    waitP50: quantile(waits, 0.5),
    waitP95: quantile(waits, 0.95),
    solveP50: quantile(solve, 0.5),
    gapP50: quantile(run.gaps, 0.5),
    gapP95: quantile(run.gaps, 0.95),
    meanGapPercent: gapPercent.length ? sum(gapPercent) / gapPercent.length : NaN,
    workerCpu,
    store,
  };
}

export function solverReport(
  runs: SolverRun[],
  w: SolverWorkload,
  cores: number,
  limits: ConnectionLimits | undefined,
): string[] {
  const f = runs.map(figures);
  const out: string[] = [];
  const head = runs.map((r) => `1 API + ${r.workers} worker process${r.workers === 1 ? '' : 'es'}`);
  out.push(`| Measure | ${head.join(' | ')} |`, `|---|${runs.map(() => '---:').join('|')}|`);
  const row = (label: string, cell: (r: SolverRun, x: ReturnType<typeof figures>) => string) =>
    out.push(`| ${label} | ${runs.map((r, i) => cell(r, f[i]!)).join(' | ')} |`);
  row('solver threads in all (worker processes × JES_WORKERS)', (r) => String(r.workers * w.threads));
  row('jobs FINISHED / submitted', (_, x) => `${x.done} / ${x.jobs}`);
  row('first submit → last end (the jobs’ timestamps)', (_, x) => `${fixed(x.seconds)} s`);
  row('**completed jobs per minute**', (_, x) => `**${fixed(x.perMinute)}**`);
  row('relative to 1 worker process', (_, x) => `${fixed(x.perMinute / f[0]!.perMinute, 2)}×`);
  row(
    'queue wait (submitted → running) p50 / p95',
    (_, x) => `${fixed(x.waitP50 / 1000)} / ${fixed(x.waitP95 / 1000)} s`,
  );
  row('solve (execution duration_seconds) p50', (_, x) => `${fixed(x.solveP50, 2)} s`);
  row('a thread idle between two executions, p50 / p95', (_, x) =>
    w.threads === 1 ? `${ms(x.gapP50)} / ${ms(x.gapP95)} ms` : 'n/a (JES_WORKERS > 1)',
  );
  row('mean gap to the best-known cut', (_, x) => `${fixed(x.meanGapPercent, 2)} %`);
  row('CPU, API process', (r) => `${fixed(r.cpu.api, 2)} s`);
  row('CPU, each worker process (all threads)', (r) => r.cpu.workers.map((c) => `${fixed(c)} s`).join(' + '));
  row("CPU, PostgreSQL's backends on the database", (r) => `${fixed(r.backends.cpuSeconds, 2)} s`);
  row('CPU, the benchmark process', (r) => `${fixed(r.cpu.bench, 2)} s`);
  row('worker CPU per job', (_, x) => `${fixed(x.workerCpu === undefined ? undefined : x.workerCpu / x.done, 2)} s`);
  row('cores busy solving (worker CPU ÷ wall time)', (_, x) =>
    fixed(x.workerCpu === undefined ? undefined : x.workerCpu / x.seconds, 2),
  );
  row('jobs per minute per worker process', (r, x) => fixed(x.perMinute / r.workers));
  row(
    'API CPU per job; PostgreSQL CPU per job',
    (r, x) =>
      `${ms(((r.cpu.api ?? NaN) * 1000) / x.done)} ms; ${ms(((r.backends.cpuSeconds ?? NaN) * 1000) / x.done)} ms`,
  );
  const perJob = (x: number | undefined, done: number) =>
    x === undefined ? 'n/a (no jes_db_* metrics)' : fixed(x / done);
  row('store: statements per job, all processes (jes_db_queries_total)', (_, x) => perJob(x.store.statements, x.done));
  row("store: the API process's statements per job", (_, x) => perJob(x.store.apiStatements, x.done));
  row('store: transactions per job (pg_stat_database)', (_, x) => fixed(x.store.transactions / x.done));
  row('store: ms per job as the processes waited for it (jes_db_query_duration_seconds)', (_, x) =>
    x.store.clientMs === undefined ? 'n/a (no jes_db_* metrics)' : ms(x.store.clientMs / x.done),
  );
  row("store: ms per job PostgreSQL's backends spent running statements (pg_stat_database active_time)", (_, x) =>
    ms(x.store.serverMs / x.done),
  );
  row('PostgreSQL connections to the database, most at once', (r) => String(r.backends.peakConnections));
  row('executions run per worker process', (r) => r.perWorker.join(' + '));
  row('executions retried (attempts > 1)', (r) => String(r.retried));
  row('jobs in the store by status', (r) =>
    Object.entries(r.jobs)
      .map(([status, n]) => `${status} ${n}`)
      .join(', '),
  );
  row('processes that stopped during the run', (r) => (r.exited.length ? r.exited.join(', ') : 'none'));
  const broken = runs.filter((r, i) => f[i]!.done !== f[i]!.jobs || r.exited.length || r.retried);
  out.push(
    '',
    broken.length ? '**Something broke**: see the rows above.' : 'Every job FINISHED once; no process stopped.',
    `The queue wait of a burst is mostly its backlog: about ${w.jobs} jobs ÷ threads × the solve, halved, at the median; ` +
      'the dispatch’s own share is the time a thread stood idle between two executions.',
    'The store: every process’s metrics read before and after the burst (the scrapes’ own statements included) where ' +
      'they serve jes_db_queries_total; PostgreSQL’s pg_stat_database for the database read 11 s after the set-up and after ' +
      'the processes stopped (their stopping included): a backend reports its counters at most once a second, and up to 10 s ' +
      'late, so the first reading may miss the last seconds of the set-up’s background work (heartbeats, polls), which the burst’s figures then count. A transaction ' +
      'is a statement alone or a BEGIN … COMMIT block; active_time is the backends’ wall time running statements, where the ' +
      'processes’ figure also counts the wait for their own event loop.',
    '',
    ...model(runs, f, w, cores, limits),
  );
  return out;
}

function model(
  runs: SolverRun[],
  f: ReturnType<typeof figures>[],
  w: SolverWorkload,
  cores: number,
  limits: ConnectionLimits | undefined,
): string[] {
  const base = f[0]!;
  const threadSeconds = base.solveP50 + (w.threads === 1 && Number.isFinite(base.gapP50) ? base.gapP50 / 1000 : 0);
  const perThread = 60 / threadSeconds;
  const perProcess = w.threads * perThread;
  const cpuPerJob = base.workerCpu === undefined ? NaN : base.workerCpu / base.done;
  // The store's figures from the column with the most worker processes: the most background per job.
  const k = runs.length - 1;
  const top = f[k]!;
  const pgCpuMs = (1000 * (runs[k]!.backends.cpuSeconds ?? NaN)) / top.done;
  const storeMs = top.store.serverMs / top.done;
  const statements =
    top.store.statements === undefined
      ? `${fixed(top.store.transactions / top.done)} transactions`
      : `${fixed(top.store.statements / top.done)} statements (${fixed(top.store.transactions / top.done)} transactions)`;
  const threads = `${w.threads} thread${w.threads === 1 ? '' : 's'}`;
  return [
    '**The model** (the solver from the 1-process column, the store from the last column):',
    '',
    `- A job holds a solver thread for ${fixed(base.solveP50, 2)} s (its solve; the time limit is ${w.timeLimitSeconds} s)` +
      (w.threads === 1 ? ` + ${ms(base.gapP50)} ms idle before the next = ${fixed(threadSeconds, 3)} s` : '') +
      `: a thread completes 60 / ${fixed(threadSeconds, 3)} = ${fixed(perThread)} jobs/min, a worker process of ${threads} **${fixed(perProcess)} jobs/min**.`,
    `- Per core: a thread needs a core of its own to do its whole search, so a core adds ${fixed(perThread)} jobs/min; with K cores for the workers, ` +
      `jobs/min ≈ ${fixed(perThread)} × min(threads, K) (this machine: ${cores} cores, shared with the API, PostgreSQL and the benchmark). ` +
      `Past K a time-limited job still ends at its limit, with less CPU: jobs/min keeps growing, the search does not (worker CPU per job and the gap to the best-known cut above). ` +
      `Measured here: ${fixed(cpuPerJob, 2)} s of worker CPU per job of ${fixed(threadSeconds, 2)} s, ${fixed(cpuPerJob / threadSeconds, 2)} of a core per thread (1.0 on a quiet machine).`,
    `- The store's share of a job, ${runs[k]!.workers} worker processes: ${statements} and ${ms(storeMs)} ms of PostgreSQL's statement time per job, ` +
      `PostgreSQL's CPU ${ms(pgCpuMs)} ms per job. A part is per job (the submit, the claim, the end), a part per second of solving ` +
      '(progress every 0.5 s, the heartbeat every 0.5 s and the claim poll every 1 s of each worker process): a longer time limit means more per job, fewer per second.',
    `- PostgreSQL's CPU: one core of it serves 60,000 / ${ms(pgCpuMs)} = ${int(60_000 / pgCpuMs)} jobs/min; a worker process brings ${fixed(perProcess)}: ` +
      `${int(60_000 / pgCpuMs)} / ${fixed(perProcess)} = **${count(60_000 / pgCpuMs / perProcess)} worker processes per PostgreSQL core**.`,
    `- Its statement time, as if it were all CPU (more than its CPU: it includes waits for the disk, for locks and for a core): 60,000 / ${ms(storeMs)} = ${int(60_000 / storeMs)} jobs/min per core, ` +
      `${int(60_000 / storeMs)} / ${fixed(perProcess)} = **at least ${count(60_000 / storeMs / perProcess)} worker processes per PostgreSQL core**.`,
    ...connectionLine(runs, perProcess, limits),
  ];
}

/** PostgreSQL's max_connections and superuser_reserved_connections (store-share.ts connectionLimits). */
export interface ConnectionLimits {
  max: number;
  reserved: number;
}

function connectionLine(runs: SolverRun[], perProcess: number, limits: ConnectionLimits | undefined): string[] {
  if (!limits) return [];
  const usable = limits.max - limits.reserved - connectionsPerProcess; // one API process
  const processes = Math.floor(usable / connectionsPerProcess);
  const peak = Math.max(...runs.map((r) => r.backends.peakConnections / (r.workers + 1)));
  return [
    `- Connections: each process may hold ${connectionsPerProcess} (its pool of 10 and its LISTEN connection; at most ${fixed(peak)} per process were seen at once); ` +
      `max_connections ${limits.max} − ${limits.reserved} reserved − ${connectionsPerProcess} for the API = ${usable}: ` +
      `**${processes} worker processes** (${int(processes * perProcess)} jobs/min) before a pool waits, unless PgBouncer or a smaller pool stands between.`,
  ];
}
