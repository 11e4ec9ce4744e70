// `Prefer: wait=N` on GET /job/{job_id}, as on a deployment: the answer comes when the job's status changes or the
// wait ends. The sandbox knows when its jobs change (their plans), so it sleeps until the next planned change, and a
// cancel, a deletion or a reset wakes it at once (store.ts's wake).
import { terminalJob } from '@jes/contract';
import { jobAt, type JobRecord, nextChange } from './jobs.ts';
import type { State } from './store.ts';

/** Sleeps `ms`, or less if woken or aborted. */
function sleep(state: State, id: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    const stop = state.onWake(id, done);
    signal.addEventListener('abort', done);
  });
}

/** The job once its status differs from now's (at once if it has ended), or after `waitMs`; undefined if it is gone meanwhile. */
export async function waitForChange(
  state: State,
  job: JobRecord,
  waitMs: number,
  signal: AbortSignal,
): Promise<JobRecord | undefined> {
  const { clock } = state;
  const deadline = clock.now() + waitMs;
  const initial = jobAt(job, clock.now()).status;
  for (;;) {
    const now = clock.now();
    if (!state.holds(job)) return undefined;
    const status = jobAt(job, now).status;
    // An ended job never changes: answered at once, as on a deployment.
    if (terminalJob.has(status) || status !== initial || now >= deadline || signal.aborted) return job;
    const next = Math.min(deadline, nextChange(job, now) ?? deadline);
    await sleep(state, job.id, next - now, signal);
  }
}
