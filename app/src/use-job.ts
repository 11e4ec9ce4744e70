// One job as its page shows it, live: read once (GET /job/{job_id}, with each execution's progress history), then
// followed on its event stream (GET /job/{job_id}/events): a `progress` event adds a point to the chart at once, a
// change of status (the job's or an execution's) reads the job again, and `end` carries the job as it ended. A service
// without streams is followed by long polls instead, a second at a time (at once on a change of status, else every
// second, to follow its best value), until the job ends.
import type { Job, JobEvent, Problem } from '@jes/client';
import { isTerminal, withEvent } from '@jes/client';
import { useEffect, useState } from 'preact/hooks';
import { withHistories } from './best-over-time.ts';
import { follow } from './event-stream.ts';
import { client } from './session.ts';
import { settled } from './use-call.ts';

/** How the page hears of the job: its event stream, long polls, or neither for now (the stream dropped). */
export type Live = 'stream' | 'polling' | 'reconnecting';

/**
 * The job with an event of its stream (the client's withEvent: statuses forward only, a progress event's value and
 * point), and a solver's duration at least the seconds it found its value at, so the table and the chart agree.
 */
function heard(job: Job, event: JobEvent): Job {
  const next = withEvent(job, event);
  if (event.event !== 'progress') return next;
  const e = next.executions[event.data.solver];
  if (!e || (e.duration_seconds ?? 0) >= event.data.seconds) return next;
  return {
    ...next,
    executions: { ...next.executions, [event.data.solver]: { ...e, duration_seconds: event.data.seconds } },
  };
}

/** A job read or sent later than the one shown replaces it, but never an ended job with one that runs (a late read). */
const newer = (read: Job) => (before: Job | undefined) =>
  before && isTerminal(before.status) && !isTerminal(read.status) ? before : withHistories(before, read);

export function useJob(id: string): { job?: Job; problem?: Problem; live?: Live } {
  const [job, setJob] = useState<Job>();
  const [problem, setProblem] = useState<Problem>();
  const [live, setLive] = useState<Live>();

  useEffect(() => {
    const stop = new AbortController();
    const { signal } = stop;
    const read = (wait?: number) =>
      settled(() => client().getJob(id, { ...(wait !== undefined ? { wait } : {}), signal }));

    // Reads the job again after a change of status: one read at a time, and one more if changes came during it.
    let reading: Promise<void> | undefined;
    let again = false;
    const reread = () => {
      if (reading) return void (again = true);
      reading = (async () => {
        do {
          again = false;
          const answer = await read();
          if (signal.aborted) return;
          if (answer.data) setJob(newer(answer.data));
        } while (again);
      })().finally(() => (reading = undefined));
    };

    // An event of another job (a stand-in's canned stream: the stateless sandbox) makes the stream useless here.
    let foreign = false;
    const onEvent = (event: JobEvent): boolean => {
      if (event.event === 'end') {
        if (event.data.id !== id) return (foreign = true);
        setJob(newer(event.data));
        return true;
      }
      if (event.data.job_id !== id) return (foreign = true);
      setJob((before) => before && heard(before, event));
      // A change of status brings what events do not carry: timestamps, durations, an execution's answer or error.
      if (event.event !== 'progress') reread();
      return false;
    };

    void (async () => {
      const first = await read();
      if (signal.aborted) return;
      if (!first.data) return first.error && setProblem(first.error);
      setJob(newer(first.data));
      if (isTerminal(first.data.status)) return;
      const stopped = await follow((streaming, options) => streaming.jobEvents(id, options), {
        onEvent,
        onOpen: () => setLive('stream'),
        onDrop: () => setLive('reconnecting'),
        signal,
      });
      if (signal.aborted) return;
      if (!foreign && (stopped === 'ended' || stopped === 'aborted')) return setLive(undefined);
      if (!foreign && typeof stopped === 'object') return setProblem(stopped.problem);
      // No stream here: long polls. A second while PENDING too: the wait is for a change from the status when the
      // poll arrives, so a job that started running between two reads was shown PENDING, without its progress, for
      // the 30 s the wait was.
      setLive('polling');
      while (!signal.aborted) {
        const answer = await read(1);
        if (signal.aborted) return;
        if (!answer.data) return answer.error && setProblem(answer.error);
        setJob(newer(answer.data));
        if (isTerminal(answer.data.status)) return setLive(undefined);
      }
    })();
    return () => stop.abort();
  }, [id]);

  return { ...(job ? { job } : {}), ...(problem ? { problem } : {}), ...(live ? { live } : {}) };
}
