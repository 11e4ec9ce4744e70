// The event streams' transport (GET /job/{job_id}/events, GET /events): an answer that stays open, written in
// @jes/contract's wire format (its `retry:` preamble first, then its frames), and a `: keep-alive` comment on a
// stream quiet for keepAliveMs, from one interval for all the streams of a sandbox (none while none is open). What
// a stream says is the state's (state/streams.ts), or, stateless, the contract's example (exampleStream).
import type { ServerResponse } from 'node:http';
import { eventFrame, keepAliveFrame, keepAliveMs as contractKeepAliveMs, streamPreamble } from '@jes/contract';
import type { Answer } from './conventions.ts';
import { requestId } from './conventions.ts';

export interface EventStream {
  /** Sends frames, unless the stream has closed. */
  write(frames: string): void;
  /** Ends the stream (its client sees it close). */
  end(): void;
  readonly closed: boolean;
  /** Called once when the stream closes, whoever closes it. */
  onClose(done: () => void): void;
}

export type Streams = ReturnType<typeof createStreams>;

/** The streams of one sandbox, kept alive every `keepAliveMs` (the contract's 15 s unless a test says less). */
export function createStreams(keepAliveMs: number = contractKeepAliveMs) {
  const open = new Map<ServerResponse, { last: number }>();
  let interval: NodeJS.Timeout | undefined;

  function keepAlive(): void {
    const now = performance.now();
    for (const [res, seen] of open)
      if (now - seen.last >= keepAliveMs) {
        res.write(keepAliveFrame);
        seen.last = now;
      }
  }

  /** Starts a stream on `res`, whose head is written: the preamble goes first. */
  function start(res: ServerResponse): EventStream {
    const seen = { last: performance.now() };
    const closers: (() => void)[] = [];
    let closed = false;
    open.set(res, seen);
    // A third of the period: a quiet stream hears from it between one and four thirds of keepAliveMs after its last.
    interval ??= setInterval(keepAlive, Math.max(1, Math.floor(keepAliveMs / 3))).unref();
    res.once('close', () => {
      closed = true;
      open.delete(res);
      if (!open.size) {
        clearInterval(interval);
        interval = undefined;
      }
      for (const done of closers) done();
    });
    const stream: EventStream = {
      write(frames) {
        if (closed || !frames) return;
        res.write(frames);
        seen.last = performance.now();
      },
      end() {
        if (!closed) res.end();
      },
      get closed() {
        return closed;
      },
      onClose(done) {
        if (closed) done();
        else closers.push(done);
      },
    };
    stream.write(streamPreamble);
    return stream;
  }

  return { start };
}

/** The answer that opens a stream: its head now, then `run` with the stream once the head is written. */
export function streamAnswer(
  streams: Streams,
  run: (stream: EventStream) => void,
  headers: Record<string, string> = {},
): Answer {
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      // Proxies that buffer (nginx) pass an event on at once.
      'X-Accel-Buffering': 'no',
      'X-Request-Id': requestId(),
      ...headers,
    },
    body: undefined,
    stream: (res) => run(streams.start(res)),
  };
}

/** One event of a contract example of a stream (the JobEvent schema). */
interface ExampleEvent {
  id: string;
  event: string;
  data: unknown;
}

const isExample = (body: unknown): body is ExampleEvent[] =>
  Array.isArray(body) && body.every((e) => typeof e === 'object' && e !== null && 'id' in e && 'event' in e);

/**
 * Stateless, an operation's example stream as a stream: its events after the one resumed from, then, if it holds
 * an `end` (a job's stream), the stream closes; otherwise (GET /events, which never ends by itself) it stays open,
 * kept alive, until the client leaves. Undefined for an answer that is not an example of events.
 */
export function exampleStream(streams: Streams, answer: Answer, after: number): Answer | undefined {
  const { body } = answer;
  if (answer.status !== 200 || !isExample(body)) return undefined;
  const frames = body
    .filter((e) => Number(e.id) > after)
    .map((e) => eventFrame(e.id, e.event, e.data))
    .join('');
  const ends = body.some((e) => e.event === 'end');
  const { judged } = answer;
  // The example's headers (X-Request-Id, RateLimit) stay, but for those of a JSON body.
  const kept = Object.entries(answer.headers).filter(([name]) => !/^content-(type|length)$/i.test(name));
  const opened = streamAnswer(
    streams,
    (stream) => {
      stream.write(frames);
      if (ends) stream.end();
    },
    Object.fromEntries(kept),
  );
  return judged ? { ...opened, judged } : opened;
}
