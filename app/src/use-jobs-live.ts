// Keeps the jobs list live: it follows the user's event stream (GET /events) and reads the page again after each
// change of status of any of the user's jobs (a burst of them, jobs started or ending together, read once), and every
// 30 s while a job on the page runs (its best value, which the stream does not carry). The stream tells only of the
// changes after it opens, so the page is read again once it is open: a change between the first read and the opening
// is not missed. A service without streams is followed by long polls of up to three of the page's jobs that have not
// ended (a browser keeps six connections to a host), as before.
import type { Job } from '@jes/client';
import { isTerminal } from '@jes/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { follow } from './event-stream.ts';
import { client } from './session.ts';
import { settled } from './use-call.ts';

const watched = 3;
/** A burst of changes is read as one: the page is read this long after the first of them. */
const burstMs = 250;
const bestValueEveryMs = 30_000;

/** Whether the page follows the stream, long polls, or neither yet. */
export type ListLive = 'stream' | 'polling' | undefined;

/**
 * Waits until `job` is seen in another status than `shown`, or (not PENDING) the 30 s of a long poll are over. A
 * PENDING job is asked a second at a time: the wait is for a change from the status when the poll arrives, so a job
 * that started running between the list's read and the poll was shown PENDING for the 30 s the wait was.
 */
async function changed(job: Job, signal: AbortSignal): Promise<void> {
  const pending = job.status === 'PENDING';
  for (let polls = 0; !signal.aborted; polls++) {
    const seen = await settled(() => client().getJob(job.id, { wait: pending ? 1 : 30, signal }));
    // A failed poll stops watching this job (the page's own read shows what is wrong).
    if (!seen.data) return new Promise(() => {});
    if (seen.data.status !== job.status || !pending || polls >= 30) return;
  }
}

/** Follows the jobs of `items` (the page as read) and calls `reload` when the page should be read again. */
export function useJobsLive(items: Job[] | undefined, reload: () => void): ListLive {
  const [live, setLive] = useState<ListLive>();
  const reloadRef = useRef(reload);
  reloadRef.current = reload;

  // The stream, open for as long as the page is: a change of any job reads the page again.
  useEffect(() => {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => (timer ??= setTimeout(() => ((timer = undefined), reloadRef.current()), burstMs));
    void follow((streaming, options) => streaming.events(options), {
      onEvent: () => void soon(),
      onOpen: () => (setLive('stream'), reloadRef.current()),
      signal: stop.signal,
      // A stream that cannot be had, or not kept (a refusal once open): long polls. 'aborted' is the page leaving, or
      // the session's end (a refused token sends the tab to log in).
    }).then((stopped) => stop.signal.aborted || stopped === 'aborted' || setLive('polling'));
    return () => (stop.abort(), clearTimeout(timer));
  }, []);

  const open = items?.filter((j) => !isTerminal(j.status)) ?? [];

  // On the stream: the best values of the jobs that run, every 30 s.
  useEffect(() => {
    if (live !== 'stream' || open.length === 0) return;
    const timer = setTimeout(() => reloadRef.current(), bestValueEveryMs);
    return () => clearTimeout(timer);
  }, [live, items]);

  // Without a stream: long polls of the jobs that have not ended; the first change reads the page again.
  useEffect(() => {
    if (live !== 'polling' || open.length === 0) return;
    const stop = new AbortController();
    void Promise.race(open.slice(0, watched).map((job) => changed(job, stop.signal))).then(
      () => stop.signal.aborted || reloadRef.current(),
    );
    return () => stop.abort();
  }, [live, items]);

  return live;
}
