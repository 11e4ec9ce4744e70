// Waiting for a job to end: on the job's event stream where the service has one (GET /job/{job_id}/events), else
// long polls (`Prefer: wait=N`) while the service honours them, polling with backoff when it does not (no
// `Preference-Applied`, or an early answer with nothing changed), and the `Retry-After` of a 429 before asking again.
// A service without the stream (404, 405), or a stream that keeps dropping, falls back to the long polls.
import type { ReconnectOptions } from './event-stream.ts';
import type { JobEvent } from './job-events.ts';
import { withEvent } from './job-events.ts';
import type { Job, Result } from './types.ts';

const terminal: ReadonlySet<string> = new Set(['FINISHED', 'ERROR', 'CANCELLED']);

/** True for FINISHED, ERROR and CANCELLED; a status this client does not know is not terminal. */
export function isTerminal(status: string): boolean {
  return terminal.has(status);
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called with the job after every answer or event, terminal or not. */
  onProgress?: (job: Job) => void;
  /** Follow the job's event stream where the service has one (default true); false long-polls only. */
  stream?: boolean;
  /** How long each long poll may wait on the service, 1 to 60 seconds (default 30). */
  waitSeconds?: number;
  /** Polling interval when the service does not long-poll: from `minIntervalMs` (250) doubling to `maxIntervalMs` (5000). */
  minIntervalMs?: number;
  maxIntervalMs?: number;
}

export type GetJob = (id: string, options: { wait?: number; signal?: AbortSignal }) => Promise<Result<Job>>;
export type FollowJob = (
  id: string,
  options: { signal?: AbortSignal; reconnect: ReconnectOptions },
) => AsyncIterable<Result<JobEvent>>;

/** Drops in a row after which a wait gives up on the stream for long polls. */
const streamTries = 3;

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

/**
 * The ended job from the job's stream: its `end` event. Undefined when the stream cannot say (the service has none,
 * refuses it, or it drops again and again): the long polls then answer, a problem of the job's included.
 */
async function onStream(
  getJob: GetJob,
  follow: FollowJob,
  id: string,
  { signal, onProgress }: WaitOptions,
): Promise<Result<Job> | undefined> {
  // The job first: the events then move it on (the stream replays them from its first, which changes nothing).
  const first = await getJob(id, signal ? { signal } : {});
  if (first.error) return first.response.status === 429 ? undefined : first;
  let job = first.data;
  onProgress?.(job);
  if (isTerminal(job.status)) return first;
  try {
    for await (const event of follow(id, { ...(signal ? { signal } : {}), reconnect: { tries: streamTries } })) {
      if (event.error) return undefined;
      const next = withEvent(job, event.data);
      if (next !== job || event.data.event === 'end') onProgress?.(next);
      job = next;
      if (event.data.event === 'end') return { data: job, response: event.response };
    }
  } catch (error) {
    if (signal?.aborted) throw error;
  }
  return undefined;
}

/** Resolves to the ended job, or to the first problem other than a 429. Rejects only when `signal` aborts. */
export async function waitForJob(
  getJob: GetJob,
  id: string,
  options: WaitOptions = {},
  follow?: FollowJob,
): Promise<Result<Job>> {
  const { signal, onProgress, minIntervalMs = 250, maxIntervalMs = 5000 } = options;
  if (follow && options.stream !== false) {
    const ended = await onStream(getJob, follow, id, options);
    if (ended) return ended;
  }
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
