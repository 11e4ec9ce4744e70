// Waiting for a job to end: long polls (`Prefer: wait=N`) while the service honours them, polling with
// backoff when it does not (no `Preference-Applied`, or an early answer with nothing changed), and the
// `Retry-After` of a 429 before asking again.
import type { Job, Result } from './types.ts';

const terminal: ReadonlySet<string> = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

/** True for FINISHED, ERROR and CANCELLED; a status this client does not know is not terminal. */
export function isTerminal(status: string): boolean {
  return terminal.has(status);
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called with the job after every answer, terminal or not. */
  onProgress?: (job: Job) => void;
  /** How long each long poll may wait on the service, 1 to 60 seconds (default 30). */
  waitSeconds?: number;
  /** Polling interval when the service does not long-poll: from `minIntervalMs` (250) doubling to `maxIntervalMs` (5000). */
  minIntervalMs?: number;
  maxIntervalMs?: number;
}

export type GetJob = (id: string, options: { wait: number; signal?: AbortSignal }) => Promise<Result<Job>>;

/** Milliseconds a `Retry-After` header asks for (delta-seconds or an HTTP date), if it is readable. */
export function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('Retry-After');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves to the ended job, or to the first problem other than a 429. Rejects only when `signal` aborts. */
export async function waitForJob(getJob: GetJob, id: string, options: WaitOptions = {}): Promise<Result<Job>> {
  const { signal, onProgress, minIntervalMs = 250, maxIntervalMs = 5000 } = options;
  const wait = Math.min(60, Math.max(1, Math.round(options.waitSeconds ?? 30)));
  let interval = minIntervalMs;
  let previous: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const asked = Date.now();
    const result = await getJob(id, { wait, ...(signal ? { signal } : {}) });
    if (result.error) {
      if (result.response.status !== 429) return result;
      await sleep(retryAfterMs(result.response) ?? interval, signal);
      interval = Math.min(interval * 2, maxIntervalMs);
      continue;
    }
    const job = result.data;
    onProgress?.(job);
    if (isTerminal(job.status)) return result;
    const changed = job.status !== previous;
    previous = job.status;
    const waitedFully = result.response.headers.has('Preference-Applied') && Date.now() - asked >= wait * 900;
    if (changed || waitedFully) {
      interval = minIntervalMs;
      continue;
    }
    await sleep(interval, signal);
    interval = Math.min(interval * 2, maxIntervalMs);
  }
}
