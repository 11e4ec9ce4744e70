// The tiny-job workload of the benchmarks (bench:api, bench:scale): jobs on 8-node random graphs, a bounded
// number in flight, each submitted and long-polled until it ends; jobs/s from the first submit to the last end.
import type { Api } from './client.ts';
import { matrixBody } from './inputs.ts';
import { settings, terminal } from './settings.ts';

export interface TinyJobFigures {
  jobs: number;
  /** First submit → last job ended. */
  seconds: number;
  perSecond: number;
  /** Submit → FINISHED of the finished jobs, ms. */
  p50: number;
  p99: number;
  /** Jobs that ended otherwise than FINISHED, or whose requests failed. */
  failed: number;
  /**
   * Finished jobs that took longer than a long poll's wait (Prefer: wait=10) to be seen FINISHED: a long poll that
   * missed its wake-up shows up here.
   */
  overWait: number;
}

/** The Prefer: wait=N of the benchmark's long polls (client.ts). */
const waitMs = 10_000;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function runJobs(
  api: Api,
  count: number,
  seedBase: number,
  inFlight: number,
): Promise<{ latencies: number[]; first: number; last: number; failed: number }> {
  const bodies = Array.from({ length: count }, (_, i) => matrixBody(8, seedBase + i, 9));
  const latencies: number[] = [];
  let first = Infinity;
  let last = -Infinity;
  let failed = 0;
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const body = bodies[next++]!;
      const t0 = performance.now();
      first = Math.min(first, t0);
      try {
        const id = await api.start(body);
        const job = await api.waitFor(id, (s) => terminal.has(s), 120);
        const t1 = performance.now();
        last = Math.max(last, t1);
        if (job.status === 'FINISHED') latencies.push(t1 - t0);
        else failed++;
      } catch (error) {
        failed++;
        if (failed <= 3) console.error(`tiny job failed: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { latencies, first, last, failed };
}

/** `warmup` jobs first (not counted, failures included), then `jobs` measured ones; the API user is logged in. */
export async function runTinyJobs(
  api: Api,
  { jobs = settings.jobs, warmup = settings.jobWarmup, inFlight = settings.inFlight } = {},
): Promise<TinyJobFigures> {
  await runJobs(api, warmup, 1_000_000, inFlight);
  const { latencies, first, last, failed } = await runJobs(api, jobs, 1, inFlight);
  const seconds = (last - first) / 1000;
  return {
    jobs,
    seconds,
    perSecond: jobs / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    failed,
    overWait: latencies.filter((ms) => ms >= waitMs).length,
  };
}
