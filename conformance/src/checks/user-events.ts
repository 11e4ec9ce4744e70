// user_events: the user's stream (GET /events) opened, then a job started (followed-job.ts): the stream tells each of the job's
// status changes, PENDING, RUNNING and its end, in order, each a `status` event (JobStatusEvent) with an
// increasing id, the last one the status GET /job/{job_id} reads. Then the stream resumed with Last-Event-ID
// after the job's PENDING sends the same events after it, none twice. Other jobs of the user (another run on a
// shared deployment) may come between: only the ids' order and this job's events are judged.
import { shown } from '../answer-text.ts';
import { followedJob } from '../followed-job.ts';
import { checkEvents, endedIn, eventList, type ReadEvent, readStream } from '../job-events.ts';
import { jobOf } from '../jobs.ts';
import type { Check } from './check.ts';
import { statelessSkip } from './check.ts';

const ofJob = (events: ReadEvent[], id: string) => events.filter((e) => e.json?.job_id === id);

export const userEvents: Check = {
  name: 'user_events',
  description:
    "The user's event stream (GET /events) tells a job started after it opened: status events PENDING, RUNNING and its end, in order, with increasing ids and JobStatusEvent data, the last the status GET /job/{id} reads; resumed with Last-Event-ID after the PENDING, it sends the same events after it, none twice.",
  operations: ['streamEvents', 'startMaxCutJob', 'startQuboJob', 'getJob'],
  skip: ({ profile }) => (profile === 'sandbox' ? statelessSkip : undefined),
  async run(ctx) {
    const followed = await followedJob(ctx);
    const { id } = followed;
    const { reply, events, read } = await followed.user;
    checkEvents(ctx, events, reply, "the user's stream");
    for (const e of events)
      ctx.expect(
        e.event === 'status',
        `the user's stream sent a ${shown(e.event)} event (id ${e.id}); it sends status events only`,
        reply.exchange,
      );
    const mine = ofJob(events, id);
    const statuses = mine.map((e) => e.json.status);
    const job = jobOf(
      ctx.require(await ctx.send({ method: 'GET', path: `/job/${id}` }), 200, `reading job ${id}`),
    )?.job;
    ctx.expect(
      read.ended === 'stopped' &&
        statuses.length === 3 &&
        statuses[0] === 'PENDING' &&
        statuses[1] === 'RUNNING' &&
        statuses[2] === job?.status,
      `the user's stream told job ${id} went ${statuses.join(' → ') || '(nothing)'}${read.ended === 'stopped' ? '' : ` (in ${read.ended === 'closed' ? 'a stream that closed' : '60 s'})`}; expected PENDING → RUNNING → ${job?.status ?? 'its end'}, as GET /job/${id} reads it`,
      reply.exchange,
    );
    const pending = mine[0];
    if (pending?.json?.status !== 'PENDING' || pending.id === undefined) return;
    const resumed = await readStream(
      ctx,
      '/events',
      "the user's events resumed",
      { header: pending.id },
      { enough: endedIn(id), ms: 60_000 },
    );
    const expected = events.slice(events.indexOf(pending) + 1).map((e) => e.id);
    const got = resumed.events.map((e) => e.id);
    // The live read stopped at the job's end: compare up to it (more of other jobs may follow in either).
    const upTo = (ids: (string | undefined)[]) => ids.slice(0, ids.indexOf(mine.at(-1)!.id) + 1);
    ctx.expect(
      JSON.stringify(upTo(got)) === JSON.stringify(upTo(expected)) && got.includes(mine.at(-1)!.id),
      `the user's stream resumed after event ${pending.id} (job ${id}'s PENDING) sent ${eventList(resumed.events)}; expected the events after it as the stream first sent them: ids ${expected.join(', ')}`,
      resumed.reply.exchange,
    );
  },
};
