// What the stream checks share: opening a job's stream or the user's (GET /job/{job_id}/events, GET /events) as a
// client resuming with Last-Event-ID or last_event_id would, and judging each event by itself: an id of its own,
// decimal and increasing, and data that is the JSON of the schema its `event` names (JobEvent's table), about the
// job it should be about. The response checks validate the stream as a whole too (an array of JobEvent).
import { shown } from './answer-text.ts';
import type { CheckContext } from './context.ts';
import { jsonOf, type StreamEvent, type StreamRead } from './event-stream.ts';
import { CheckAbort, type Reply, type RequestSpec, type StreamSpec } from './http.ts';
import { requireIntroduced } from './introduced.ts';
import { terminalJobStatuses } from './jobs.ts';

/** The schema each `event` of a stream carries as its data (JobEvent's description). */
export const eventSchemas: Record<string, string> = {
  status: 'JobStatusEvent',
  execution: 'ExecutionStatusEvent',
  progress: 'ExecutionProgressEvent',
  end: 'JobEnvelope',
};

/** An event with its data parsed. */
export interface ReadEvent extends StreamEvent {
  json: any;
}

/** Where a stream resumes: the Last-Event-ID header, the last_event_id parameter, or both. */
export interface Resume {
  header?: string;
  query?: string;
}

const accept = { accept: 'text/event-stream, application/problem+json' };

export function streamRequest(path: string, resume: Resume = {}, stream: StreamSpec = {}): RequestSpec {
  return {
    method: 'GET',
    path,
    headers: { ...accept, ...(resume.header !== undefined ? { 'last-event-id': resume.header } : {}) },
    ...(resume.query !== undefined ? { query: { last_event_id: resume.query } } : {}),
    stream,
  };
}

/**
 * Opens a stream and reads it (`stream` says until when); stops the check unless it is a 200 event stream (a
 * deployment without the operation: see introduced.ts).
 */
export async function readStream(
  ctx: CheckContext,
  path: string,
  what: string,
  resume: Resume = {},
  stream: StreamSpec = {},
): Promise<{ reply: Reply; read: StreamRead; events: ReadEvent[] }> {
  const reply = await ctx.send(streamRequest(path, resume, stream));
  requireIntroduced(ctx, reply, `GET ${path.replace(/^\/job\/[^/]+/, '/job/{job_id}')}`);
  ctx.require(reply, 200, what);
  if (!reply.stream)
    throw new CheckAbort(
      `${what}: Content-Type is ${shown(reply.headers['content-type'])}, expected text/event-stream`,
      reply.exchange,
    );
  return { reply, read: reply.stream, events: reply.stream.events.map((e) => ({ ...e, json: jsonOf(e) })) };
}

/** A job's stream from its start (or after `resume`), read until it closes (or `ms`). */
export function readJobStream(ctx: CheckContext, id: string, resume: Resume = {}, ms = 60_000) {
  const how =
    resume.header !== undefined || resume.query !== undefined ? ` resumed after ${JSON.stringify(resume)}` : '';
  return readStream(ctx, `/job/${id}/events`, `the events of job ${id}${how}`, resume, { ms });
}

/**
 * Each event by itself: an `id` of its own, decimal (1 to 15 digits) and greater than the one before; data of
 * the schema its `event` names, about `jobId` (an `end` envelope holds that job alone). An event the contract does
 * not name is noted, not failed (a client ignores it).
 */
export function checkEvents(
  ctx: CheckContext,
  events: readonly ReadEvent[],
  reply: Reply,
  what: string,
  jobId?: string,
): void {
  let previous: bigint | undefined;
  for (const [i, e] of events.entries()) {
    const label = `${what}: event ${i + 1} (${e.event}${e.id !== undefined ? `, id ${e.id}` : ''})`;
    if (
      !ctx.expect(
        e.id !== undefined && /^[0-9]{1,15}$/.test(e.id),
        `${label} has ${e.id === undefined ? 'no id' : `the id ${shown(e.id)}`}; every event has a decimal id`,
        reply.exchange,
      )
    )
      continue;
    const id = BigInt(e.id!);
    ctx.expect(
      previous === undefined || id > previous,
      `${label} comes after the event of id ${previous}: ids must increase`,
      reply.exchange,
    );
    previous = id;
    const schema = eventSchemas[e.event];
    if (!schema) {
      ctx.note(`${what}: an event "${e.event}" the contract does not name (a client ignores it)`);
      continue;
    }
    if (typeof e.json !== 'object' || e.json === null) {
      ctx.fail(`${label}: its data is not a JSON object: ${shown(e.data.slice(0, 200))}`, reply.exchange);
      continue;
    }
    for (const error of ctx.contract.validate(ctx.contract.schema(schema), e.json))
      ctx.fail(`${label}: its data is not a ${schema}: ${error}`, reply.exchange);
    if (jobId === undefined) continue;
    const about = e.event === 'end' ? Object.keys(e.json.job ?? {}) : [e.json.job_id];
    ctx.expect(
      about.length === 1 && about[0] === jobId,
      `${label} is about ${shown(about.length === 1 ? about[0] : about)}, expected job ${jobId}`,
      reply.exchange,
    );
  }
}

/** The job's status in an `end` event (its envelope's one job). */
export const endStatus = (e: ReadEvent): unknown => (Object.values<any>(e.json?.job ?? {})[0] ?? {}).status;

/** Whether the events read so far include the end of the job (the user's stream: a terminal status of it). */
export const endedIn = (jobId: string) => (events: readonly StreamEvent[]) =>
  events.some((e) => {
    const data = jsonOf(e) as any;
    return e.event === 'status' && data?.job_id === jobId && terminalJobStatuses.has(data?.status);
  });

/** The events as messages list them: `1 status PENDING, 2 execution RUNNING, …`. */
export function eventList(events: readonly ReadEvent[]): string {
  const text = events
    .map(
      (e) =>
        `${e.id ?? '?'} ${e.event}${e.event === 'end' ? ` ${endStatus(e)}` : e.json?.status ? ` ${e.json.status}` : ''}`,
    )
    .join(', ');
  return text || 'none';
}
