// streamJobEvents and streamEvents from the state, as a deployment streams them: the events that happened before
// now (job-events.ts, user-events.ts) after the one resumed from (Last-Event-ID, else last_event_id), then each as it
// happens, the stream sleeping until the next planned one or until a cancel, a deletion or a reset wakes it. A
// job's stream sends its terminal status as `end`, whose data is what GET /job/{job_id} answers then, and closes.
// A user holds at most maxStreamsPerUser streams (429 too_many_streams past it); a stream ends when its token does.
import { eventFrame, resumeAfter } from '@jes/contract';
import type { Answer } from '../conventions.ts';
import { type EventStream, type Streams, streamAnswer } from '../event-streams.ts';
import { jobEvents } from './job-events.ts';
import type { JobRecord } from './jobs.ts';
import { renderJob } from './render.ts';
import { type Handler, refusal, type StateRequest } from './request.ts';
import { userKey } from './store.ts';
import { logUntil, nextUserChange } from './user-events.ts';

/** Where a stream resumes: after Last-Event-ID, else last_event_id (the contract has checked both), else 0. */
const resumedAfter = (request: StateRequest) =>
  resumeAfter(request.headers['last-event-id'] as string | undefined, request.query.get('last_event_id') ?? undefined);

/**
 * Opens a stream for the request's user, or refuses it past the caps; `follow` runs it, and answers what it
 * needs undone when the stream closes. The stream also closes when the token expires.
 */
function open(request: StateRequest, streams: Streams, follow: (stream: EventStream) => () => void): Answer {
  const { state } = request;
  const user = request.user!;
  const release = state.streamSlot(user);
  if (!release) {
    const most = state.limits.maxStreamsPerUser;
    const detail = `You hold ${user.streams} open event streams; the limit is ${most}. Close one before opening another.`;
    return refusal(request, 'too_many_streams', detail, { retryAfter: 5 });
  }
  const token = /^\s*bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const expiresAt = state.tokenExpiresAt(token) ?? state.clock.now();
  return streamAnswer(streams, (stream) => {
    const expiry = setTimeout(() => stream.end(), Math.max(0, expiresAt - state.clock.now()));
    const stop = follow(stream);
    stream.onClose(() => {
      clearTimeout(expiry);
      stop();
      release();
    });
  });
}

/** Sleeps the stream until `at` (wall ms), or until woken. */
function sleeper(step: () => void, clock: { now(): number }) {
  let timer: NodeJS.Timeout | undefined;
  return {
    until(at: number | undefined) {
      clearTimeout(timer);
      // A millisecond past it: an instant is sent once it has passed, never while it is `now`.
      if (at !== undefined) timer = setTimeout(step, Math.max(0, at - clock.now()) + 1);
    },
    stop: () => clearTimeout(timer),
  };
}

export function streamJobEventsHandler(streams: Streams): Handler {
  return function streamJobEvents(request: StateRequest): Answer {
    const { state } = request;
    const job: JobRecord | undefined = request.user!.jobs.get(request.params.job_id!);
    if (!job) return refusal(request, 'job_not_found', `No job ${request.params.job_id} exists for this user.`);
    let sent = resumedAfter(request);
    return open(request, streams, (stream) => {
      const step = () => {
        if (stream.closed) return;
        if (!state.holds(job)) return stream.end();
        const now = state.clock.now();
        const frames: string[] = [];
        for (const event of jobEvents(job)) {
          if (event.at >= now) {
            stream.write(frames.join(''));
            return sleep.until(event.at);
          }
          if (event.seq <= sent) continue;
          sent = event.seq;
          if (event.type === 'status' && event.terminal) {
            frames.push(eventFrame(event.seq, 'end', { job: { [job.id]: renderJob(job, now) } }));
            break;
          }
          frames.push(eventFrame(event.seq, event.type, event.data));
        }
        // Its end sent, or resumed after it: nothing more will come.
        stream.write(frames.join(''));
        stream.end();
      };
      const sleep = sleeper(step, state.clock);
      const unwake = state.onWake(job.id, step);
      step();
      return () => {
        sleep.stop();
        unwake();
      };
    });
  };
}

export function streamEventsHandler(streams: Streams): Handler {
  return function streamEvents(request: StateRequest): Answer {
    const { state } = request;
    const user = request.user!;
    const log = () => logUntil(user.log, user.jobs.values(), state.clock.now(), state.holds);
    const given = request.headers['last-event-id'] ?? request.query.get('last_event_id');
    // Without an id, from the moment it opens: the changes numbered so far are the past.
    let sent = given === null || given === undefined ? log().seq : resumedAfter(request);
    return open(request, streams, (stream) => {
      const step = () => {
        if (stream.closed) return;
        if (!state.holdsUser(user)) return stream.end();
        const frames = [];
        for (const change of log().changes)
          if (change.seq > sent) {
            frames.push(eventFrame(change.seq, 'status', change.event.data));
            sent = change.seq;
          }
        stream.write(frames.join(''));
        sleep.until(nextUserChange(user.jobs.values(), state.clock.now()));
      };
      const sleep = sleeper(step, state.clock);
      const unwake = state.onWake(userKey(user.name), step);
      step();
      return () => {
        sleep.stop();
        unwake();
      };
    });
  };
}
