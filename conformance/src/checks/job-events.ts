// job_events: a job's stream (GET /job/{job_id}/events) followed live from its start: every event well-formed
// (job-events.ts), the job's PENDING first, statuses and each execution's statuses forward only, progress only
// while its execution runs and only better, then one `end` whose data is what GET /job/{job_id} answers right
// after (status, each execution's status and result: what may not differ between two reads of an ended job),
// and the stream closed after it. The job's links name the stream. The job is followed-job.ts'.
import { isDeepStrictEqual } from 'node:util';
import { shown } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Reply } from '../http.ts';
import { followedJob } from '../followed-job.ts';
import { checkEvents, endStatus, eventList, type ReadEvent } from '../job-events.ts';
import { jobOf, terminalJobStatuses } from '../jobs.ts';
import type { Check } from './check.ts';
import { statelessSkip } from './check.ts';

const jobRank = (s: unknown) =>
  s === 'PENDING' ? 0 : s === 'RUNNING' ? 1 : terminalJobStatuses.has(String(s)) ? 2 : -1;
const executionRank = (s: unknown) =>
  ({ PENDING: 0, PREPARING: 1, RUNNING: 2, SUCCESS: 3, ERROR: 3, CANCELLED: 3 })[String(s)] ?? -1;

/** The job's and each execution's statuses only go forward; the job's first event is its PENDING. */
function checkOrder(ctx: CheckContext, id: string, events: ReadEvent[], reply: Reply): void {
  const list = eventList(events);
  ctx.expect(
    events[0]?.event === 'status' && events[0].json?.status === 'PENDING',
    `job ${id}'s stream begins with ${events[0] ? `${events[0].event} ${shown(events[0].json?.status)}` : 'nothing'}, expected its status PENDING (events: ${list})`,
    reply.exchange,
  );
  const statuses = events.filter((e) => e.event === 'status' || e.event === 'end');
  const ranks = statuses.map((e) => jobRank(e.event === 'end' ? endStatus(e) : e.json?.status));
  ctx.expect(
    ranks.every((r, i) => r >= 0 && (i === 0 || r > ranks[i - 1]! || (r === 2 && statuses[i]!.event === 'end'))),
    `job ${id}'s statuses went ${statuses.map((e) => (e.event === 'end' ? `end ${endStatus(e)}` : e.json?.status)).join(' → ')}: a status never comes twice or goes back (events: ${list})`,
    reply.exchange,
  );
  const bySolver = new Map<string, { statuses: string[]; ended: boolean; values: number[] }>();
  for (const e of events) {
    const solver = e.json?.solver;
    if ((e.event !== 'execution' && e.event !== 'progress') || typeof solver !== 'string') continue;
    const seen = bySolver.get(solver) ?? { statuses: [], ended: false, values: [] };
    bySolver.set(solver, seen);
    if (e.event === 'progress') {
      ctx.expect(
        !seen.ended,
        `job ${id}: a progress event of ${solver} (id ${e.id}) comes after its execution ended (events: ${list})`,
        reply.exchange,
      );
      seen.values.push(e.json.best_value);
      continue;
    }
    const before = seen.statuses.at(-1);
    const rank = executionRank(e.json.status);
    ctx.expect(
      rank >= 0 && (before === undefined || rank > executionRank(before)),
      `job ${id}: ${solver}'s execution went from ${before ?? '(nothing)'} to ${shown(e.json.status)} at event ${e.id}: an execution's status only goes forward (events: ${list})`,
      reply.exchange,
    );
    seen.statuses.push(e.json.status);
    if (rank === 3) seen.ended = true;
  }
  for (const [solver, { values }] of bySolver) {
    // Each progress event is a better value: the values move one way, never repeat (up for a maximum, down for a minimum).
    const steps = values.slice(1).map((v, i) => Math.sign(v - values[i]!));
    ctx.expect(
      steps.every((s) => s !== 0 && s === steps[0]),
      `job ${id}: ${solver}'s progress events give best values ${values.join(', ')}; each is a better value than the one before`,
      reply.exchange,
    );
  }
}

/** The end event is the last, the stream closed after it, and its data is what GET /job/{id} answers right after. */
async function checkEnd(ctx: CheckContext, id: string, events: ReadEvent[], reply: Reply, ended: string) {
  const ends = events.filter((e) => e.event === 'end');
  const end = events.at(-1);
  if (
    !ctx.expect(
      ends.length === 1 && end?.event === 'end',
      `job ${id}'s stream has ${ends.length} end event${ends.length === 1 ? '' : 's'}${ends.length && end?.event !== 'end' ? ' and events after it' : ''}; expected one, last (events: ${eventList(events)})`,
      reply.exchange,
    )
  )
    return;
  ctx.expect(
    ended === 'closed',
    `job ${id}'s stream ${ended === 'timed out' ? 'stayed open' : 'did not close'} after its end event; the stream closes then`,
    reply.exchange,
  );
  const read = ctx.require(await ctx.send({ method: 'GET', path: `/job/${id}` }), 200, `reading job ${id}`);
  const job = jobOf(read)?.job;
  const streamed = Object.values<any>(end!.json?.job ?? {})[0] ?? {};
  const differs: string[] = [];
  if (streamed.status !== job?.status) differs.push(`status ${shown(streamed.status)}, GET ${shown(job?.status)}`);
  const solvers = new Set([...Object.keys(streamed.executions ?? {}), ...Object.keys(job?.executions ?? {})]);
  for (const solver of solvers) {
    const [a, b] = [streamed.executions?.[solver], job?.executions?.[solver]];
    if (a?.status !== b?.status) differs.push(`${solver}'s status ${shown(a?.status)}, GET ${shown(b?.status)}`);
    else if (!isDeepStrictEqual(a?.data, b?.data))
      differs.push(`${solver}'s result ${shown(a?.data)}, GET ${shown(b?.data)}`);
  }
  ctx.expect(
    differs.length === 0,
    `job ${id}'s end event differs from GET /job/${id} right after: ${differs.join('; ')}`,
    reply.exchange,
  );
  const link = job?.links?.events;
  if (link !== undefined)
    ctx.expect(
      link === `/job/${id}/events` || String(link).endsWith(`/job/${id}/events`),
      `job ${id}'s links.events is ${shown(link)}, expected /job/${id}/events`,
      read.exchange,
    );
}

export const jobEvents: Check = {
  name: 'job_events',
  description:
    "A job's event stream, followed from its start: every event has an increasing id and data of its event's schema about the job; PENDING first, statuses and executions' statuses forward only, progress only better and while its execution runs; one end, last, equal to GET /job/{id} right after; then the stream closes.",
  operations: ['startMaxCutJob', 'startQuboJob', 'streamJobEvents', 'getJob'],
  skip: ({ profile }) => (profile === 'sandbox' ? statelessSkip : undefined),
  async run(ctx) {
    const followed = await followedJob(ctx);
    const { id } = followed;
    const { reply, read, events } = await followed.whole;
    checkEvents(ctx, events, reply, `job ${id}'s stream`, id);
    ctx.expect(
      read.retry !== undefined,
      `job ${id}'s stream sends no retry field; it opens with one (retry: 1000)`,
      reply.exchange,
    );
    checkOrder(ctx, id, events, reply);
    await checkEnd(ctx, id, events, reply, read.ended);
    if (!events.some((e) => e.event === 'progress')) ctx.note(`job ${id} sent no progress event (none is required)`);
  },
};
