// job_events_resume: a job's stream resumed as a client that lost its connection resumes it. Live: the first two
// events read, the stream closed, then opened again with Last-Event-ID: the two parts joined are the job's whole
// stream as it reads once the job has ended (every event once, in the same order, the same data). On the ended job:
// `last_event_id` resumes as the header does, and the header wins when both are sent.
import { isDeepStrictEqual } from 'node:util';
import type { CheckContext } from '../context.ts';
import { CheckAbort, type Reply } from '../http.ts';
import { followedJob } from '../followed-job.ts';
import { checkEvents, endStatus, eventList, type ReadEvent, readJobStream } from '../job-events.ts';
import { statelessSkip } from './check.ts';
import type { Check } from './check.ts';

/** Events the same when their id, kind and data are (an `end`'s data by its status: it is a read of the job). */
const same = (a: ReadEvent, b: ReadEvent) =>
  a.id === b.id &&
  a.event === b.event &&
  (a.event === 'end' ? endStatus(a) === endStatus(b) : isDeepStrictEqual(a.json, b.json));

/** `got` is exactly `expected`: none missing, none twice, none other, in order. */
function expectEvents(ctx: CheckContext, got: ReadEvent[], expected: ReadEvent[], what: string, reply: Reply): void {
  if (got.length === expected.length && got.every((e, i) => same(e, expected[i]!))) return;
  const ids = got.map((e) => e.id);
  const twice = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  const missing = expected.filter((e) => !ids.includes(e.id)).map((e) => e.id);
  const other = got.filter((e) => !expected.some((x) => same(x, e))).map((e) => e.id);
  const why = [
    twice.length && `sent twice: ${twice.join(', ')}`,
    missing.length && `missing: ${missing.join(', ')}`,
    other.length && `not as the whole stream has them: ${other.join(', ')}`,
  ].filter(Boolean);
  ctx.fail(
    `${what}: got events ${eventList(got)}; expected ${eventList(expected)}${why.length ? ` (${why.join('; ')})` : ' (another order)'}`,
    reply.exchange,
  );
}

export const jobEventsResume: Check = {
  name: 'job_events_resume',
  description:
    "A job's event stream closed after its first two events and resumed with Last-Event-ID gives exactly the events after them (the two parts joined are the whole stream read once the job has ended: none missing, none twice); on the ended job, last_event_id resumes the same way and the header wins over it.",
  operations: ['startMaxCutJob', 'startQuboJob', 'streamJobEvents'],
  skip: ({ profile }) => (profile === 'sandbox' ? statelessSkip : undefined),
  async run(ctx) {
    const followed = await followedJob(ctx);
    const { id } = followed;
    const first = await followed.first;
    // The client saw two events (more may have come in the same piece: it lost them).
    const seen = first.events.slice(0, 2);
    const after = seen.at(-1)?.id;
    if (seen.length < 2 || after === undefined)
      throw new CheckAbort(
        `job ${id}'s stream sent ${eventList(first.events)}: not two events with ids`,
        first.reply.exchange,
      );
    const rest = await followed.rest;
    // Once the job has ended (the parts above were read live): its whole stream, once more from the start.
    await followed.whole.catch(() => undefined);
    const whole = await readJobStream(ctx, id);
    checkEvents(ctx, whole.events, whole.reply, `job ${id}'s stream once ended`, id);
    checkEvents(ctx, rest.events, rest.reply, `job ${id}'s stream resumed after ${after}`, id);
    expectEvents(
      ctx,
      [...seen, ...rest.events],
      whole.events,
      `job ${id}'s stream closed after event ${after} and resumed with Last-Event-ID: ${after}`,
      rest.reply,
    );
    const middle = whole.events[Math.max(0, Math.floor(whole.events.length / 2) - 1)];
    if (!middle?.id || whole.events.length < 3)
      throw new CheckAbort(
        `job ${id}'s stream once ended has ${eventList(whole.events)}: too few to resume`,
        whole.reply.exchange,
      );
    const expected = whole.events.slice(whole.events.indexOf(middle) + 1);
    const byQuery = await readJobStream(ctx, id, { query: middle.id });
    expectEvents(ctx, byQuery.events, expected, `job ${id}'s stream with last_event_id=${middle.id}`, byQuery.reply);
    const both = await readJobStream(ctx, id, { header: middle.id, query: whole.events[0]!.id! });
    expectEvents(
      ctx,
      both.events,
      expected,
      `job ${id}'s stream with Last-Event-ID: ${middle.id} and last_event_id=${whole.events[0]!.id} (the header wins)`,
      both.reply,
    );
  },
};
