// Loading a server with autocannon, as every HTTP benchmark does (bench/api.ts, bench/sandbox.ts): req/s, latency,
// the answers that were not 2xx, and the CPU the server's main thread spent per request (Linux /proc), plus the
// medians and ranges the reports print.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { settings } from './settings.ts';

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at]!;
}
export const median = (values: number[]) => quantile(values, 0.5);

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  bad: number;
  /** CPU time of the child's main (JavaScript) thread per request, µs; undefined where /proc is missing. */
  cpuPerRequest: number | undefined;
}

/** What is sent, when it is not a GET without a body. */
export interface LoadRequest {
  method?: 'GET' | 'POST';
  body?: string;
}

/** Seconds of CPU the process's main thread has used (Linux /proc; USER_HZ = 100). */
export function mainThreadCpu(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** `seconds` of autocannon (`settings.connections` connections) on `url`, a loopback address. */
export async function cannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid?: number,
  request: LoadRequest = {},
): Promise<Load> {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`refusing to load ${url}`);
  const cpu0 = mainThreadCpu(pid);
  const result = await autocannon({ url, connections: settings.connections, duration: seconds, headers, ...request });
  const cpu1 = mainThreadCpu(pid);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    bad: result.non2xx + result.errors + result.timeouts,
    cpuPerRequest:
      cpu0 !== undefined && cpu1 !== undefined && result.requests.total > 0
        ? ((cpu1 - cpu0) * 1e6) / result.requests.total
        : undefined,
  };
}

/** A warm-up run, then the measured one. */
export async function measure(
  url: string,
  headers: Record<string, string>,
  pid: number | undefined,
  request: LoadRequest = {},
): Promise<Load> {
  await cannon(url, headers, settings.warmupSeconds, pid, request);
  return cannon(url, headers, settings.durationSeconds, pid, request);
}
