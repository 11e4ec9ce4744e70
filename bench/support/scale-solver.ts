// bench:scale's solver-bound run: annealing on Gset graphs with a fixed time limit, submitted through one API process
// (JES_WORKERS=0) to 1, 2, 4 … `jes-server worker` processes, each configuration on a fresh PostgreSQL database.
//
// Each configuration uploads the Gset instances as data files (validated by the workers), then submits a burst of
// `jobs` jobs at once (one `annealing` execution each, the instances in turn, seeds 1…N) and reads the listing until
// every one has ended. What it keeps: each job's own timestamps (submitted, running, ended: the database's clock) and
// best cut; the CPU each process used during the burst (/proc); PostgreSQL's backends' CPU and connections; the
// statements and store time of every process (their metrics, if they serve them) and PostgreSQL's statistics of the
// database (store-share.ts); the store afterwards.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from '@jes/contract';
import { Api, json, send } from './client.ts';
import { uploadDataFile } from './data-files.ts';
import type { Instance } from './gset.ts';
import { cpuSince } from './process-cpu.ts';
import { idleGaps, readStore, startScaleProcesses, type StoreAfterRun } from './scale-processes.ts';
import { postgresAdminUrl } from './seed-postgres.ts';
import {
  backendsGone,
  type BackendFigures,
  databaseStats,
  type DatabaseStats,
  metricsSnapshot,
  sampleBackends,
  type StoreUse,
  useSince,
} from './store-share.ts';

type Job = components['schemas']['Job'];

export interface SolverWorkload {
  /** Worker processes of each configuration, in order. */
  processes: number[];
  /** JES_WORKERS of each worker process: its solver threads. */
  threads: number;
  jobs: number;
  timeLimitSeconds: number;
  instances: Instance[];
  gsetDir: string;
}

export interface JobRecord {
  instance: Instance;
  status: string;
  submitted: number;
  running: number | undefined;
  ended: number | undefined;
  bestValue: number | undefined;
  /** The execution's own duration_seconds. */
  solveSeconds: number | undefined;
}

export interface SolverRun extends StoreAfterRun {
  workers: number;
  records: JobRecord[];
  /** Per worker process, ms between an execution's end and the next one's start. */
  gaps: number[];
  /** CPU seconds during the burst: the API process, each worker process, PostgreSQL's backends, this process. */
  cpu: { api: number | undefined; workers: (number | undefined)[]; bench: number };
  backends: BackendFigures;
  /** The store's share: each process's metrics (API first) when all serve them, and PostgreSQL's counters. */
  store: { metrics: StoreUse[] | undefined; database: DatabaseStats };
  exited: string[];
}

const parseTime = (text: string | null | undefined) => (text ? Date.parse(text) : undefined);

function record(instance: Instance, job: Job): JobRecord {
  const execution = Object.values(job.executions)[0];
  return {
    instance,
    status: job.status,
    submitted: Date.parse(job.timestamps.submitted),
    running: parseTime(job.timestamps.running),
    ended: parseTime(job.timestamps.ended),
    bestValue: execution?.best_value,
    solveSeconds: execution?.duration_seconds ?? undefined,
  };
}

/** Every job of the caller, from `GET /job` page by page (100 a page). */
async function listJobs(api: Api): Promise<Map<string, Job>> {
  const jobs = new Map<string, Job>();
  let after = '';
  for (;;) {
    const reply = await send(api.base, 'GET', `/job?limit=100${after && `&starting_after=${after}`}`, {
      headers: api.auth,
    });
    if (reply.status !== 200) throw new Error(`GET /job: ${reply.status} ${reply.body}`);
    const page = json(reply) as { job: Record<string, Job>; ids: string[]; has_more: boolean };
    for (const id of page.ids) jobs.set(id, page.job[id]!);
    if (!page.has_more || page.ids.length === 0) return jobs;
    after = page.ids.at(-1)!;
  }
}

const terminal = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

/**
 * Submits `jobs` jobs at once (8 submits in flight), then reads the listing once a second until every one has ended,
 * as a dashboard would (one statement a second, where a long poll per job would add a read per job per change);
 * their records, in submit order.
 */
async function burst(api: Api, files: { instance: Instance; id: string }[], w: SolverWorkload): Promise<JobRecord[]> {
  const ids: string[] = new Array(w.jobs);
  let next = 0;
  const submit = async () => {
    for (let i = next++; i < w.jobs; i = next++) {
      const body = {
        data_file_identifier: files[i % files.length]!.id,
        solvers: [{ name: 'annealing', params: { seed: i + 1 } }],
        time_limit_seconds: w.timeLimitSeconds,
      };
      ids[i] = await api.start(JSON.stringify(body));
    }
  };
  await Promise.all(Array.from({ length: 8 }, submit));
  // The whole backlog on one thread, twice over, and a margin: a job that has not ended by then is reported stuck.
  const deadline = Date.now() + ((2 * w.jobs * w.timeLimitSeconds) / w.threads + 120) * 1000;
  for (;;) {
    const jobs = await listJobs(api);
    const ended = ids.every((id) => terminal.has(jobs.get(id)?.status ?? ''));
    if (ended || Date.now() > deadline)
      return ids.map((id, i) => {
        const instance = files[i % files.length]!.instance;
        const job = jobs.get(id);
        return job
          ? record(instance, job)
          : {
              instance,
              status: 'MISSING',
              submitted: NaN,
              running: undefined,
              ended: undefined,
              bestValue: undefined,
              solveSeconds: undefined,
            };
      });
    await sleep(1000);
  }
}

async function runConfiguration(workers: number, w: SolverWorkload): Promise<SolverRun> {
  const procs = await startScaleProcesses(workers, w.threads);
  try {
    const api = new Api(procs.api.url);
    await api.login();
    const files: { instance: Instance; id: string }[] = [];
    for (const instance of w.instances) {
      const bytes = readFileSync(join(w.gsetDir, `${instance.name}.txt`));
      files.push({ instance, id: (await uploadDataFile(api, bytes, `${instance.name}.txt`)).id });
    }
    // PostgreSQL's counters: an idle backend reports them only after 10 s.
    await sleep(11_000);
    const databaseBefore = await databaseStats(postgresAdminUrl, procs.name);
    const metricsBefore = await metricsSnapshot(procs.metricsUrls);
    const apiCpu = cpuSince(procs.api.child.pid);
    const workerCpu = procs.workers.map((p) => cpuSince(p.child.pid));
    const benchCpu = process.cpuUsage();
    const sampler = await sampleBackends(postgresAdminUrl, procs.name);

    const records = await burst(api, files, w);

    const metricsAfter = metricsBefore && (await metricsSnapshot(procs.metricsUrls));
    const cpu = {
      api: apiCpu.read(),
      workers: workerCpu.map((c) => c.read()),
      bench: (() => {
        const used = process.cpuUsage(benchCpu);
        return (used.user + used.system) / 1e6;
      })(),
    };
    const backends = await sampler.stop();
    const exited = procs.exited();
    const store = await readStore(
      procs.url,
      procs.workers.map((p) => p.child),
    );
    const gaps = await idleGaps(procs.url);
    await procs.stop();
    await backendsGone(postgresAdminUrl, procs.name);
    const databaseAfter = await databaseStats(postgresAdminUrl, procs.name);
    const share: SolverRun['store'] = {
      metrics: metricsBefore && metricsAfter && useSince(metricsBefore, metricsAfter),
      database: {
        transactions: databaseAfter.transactions - databaseBefore.transactions,
        activeMs: databaseAfter.activeMs - databaseBefore.activeMs,
      },
    };
    return { workers, records, gaps, cpu, backends, store: share, exited, ...store };
  } finally {
    await procs.close();
  }
}

/** Every configuration in turn. */
export async function solverScaleOut(w: SolverWorkload): Promise<SolverRun[]> {
  const runs: SolverRun[] = [];
  for (const workers of w.processes) runs.push(await runConfiguration(workers, w));
  return runs;
}
