// The long poll listens before it reads: a change announced between reading a job and waiting for its next change
// wakes that wait at once. The wait used to subscribe only after the read, and such a change was lost: the poll
// then waited its whole time for a job that had long ended (seen on PostgreSQL, where announcements come in on
// a connection of their own, as 10 s stalls in the scale-out benchmark).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JobEvents } from '../src/jobs/events.ts';
import { jobChannel } from '../src/store/channels.ts';
import { sharedServer } from './support/shared-server.ts';

const jes = sharedServer({ JES_WORKERS: '0' }, { users: [] });
const events = new JobEvents();
beforeAll(() => events.start(jes.server.db));
afterAll(() => events.stop());

/** Whether `wait` resolves within a few seconds (it would otherwise take the minute it was given). */
const woken = (wait: Promise<void>) =>
  Promise.race([wait.then(() => 'woken'), sleep(5000).then(() => 'still waiting')]);

it('wakes a wait at once for a change announced after the watch began and before the wait', async () => {
  const watch = events.watch('JOBWATCHED01');
  try {
    await jes.server.db.query('SELECT pg_notify($1, $2)', [jobChannel, 'JOBWATCHED01']);
    await sleep(50); // the announcement is delivered before the wait begins
    expect(await woken(watch.next(60_000))).toBe('woken');
    // Consumed: the next wait waits for a new change, and another job's change does not wake it.
    const next = watch.next(60_000);
    await jes.server.db.query('SELECT pg_notify($1, $2)', [jobChannel, 'ANOTHERJOB01']);
    await jes.server.db.query('SELECT pg_notify($1, $2)', [jobChannel, 'JOBWATCHED01']);
    expect(await woken(next)).toBe('woken');
  } finally {
    watch.close();
  }
});

it('does not wake for changes of other jobs, and ends the wait when the signal aborts', async () => {
  const watch = events.watch('JOBWATCHED02');
  try {
    await jes.server.db.query('SELECT pg_notify($1, $2)', [jobChannel, 'ANOTHERJOB02']);
    await sleep(50);
    const gone = new AbortController();
    const wait = watch.next(60_000, gone.signal);
    expect(await Promise.race([wait.then(() => 'woken'), sleep(300).then(() => 'waiting')])).toBe('waiting');
    gone.abort();
    expect(await woken(wait)).toBe('woken');
  } finally {
    watch.close();
  }
});
