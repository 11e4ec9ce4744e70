// Server-Sent Events as the suite reads them (GET /job/{job_id}/events, GET /events): parsed as the HTML
// standard's event-stream interpretation says (fields, comments, CR, LF or CRLF line ends, an event dispatched at a
// blank line) by eventsource-parser, so a deployment is held to the format a browser reads, not to one server's
// way of writing it.
import { createParser } from 'eventsource-parser';

/** One event as the stream sent it: its own `id` field (undefined without one), its `event` and its raw `data`. */
export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/** How reading a stream ended: it closed by itself, the suite had read enough and closed it, or it timed out. */
export type StreamEnd = 'closed' | 'stopped' | 'timed out';

export interface StreamRead {
  events: StreamEvent[];
  /** The `retry` field's last value, when one came. */
  retry?: number;
  /** Comment lines (keep-alives) received. */
  comments: number;
  ended: StreamEnd;
}

/**
 * An incremental parser (eventsource-parser, the parser @jes/client reads streams with): feed it text as it arrives,
 * it returns the events each piece completes.
 */
export function eventParser(): {
  push(text: string): StreamEvent[];
  /** The stream has ended: a CR it ended with ends a line after all. */
  finish(): StreamEvent[];
  state: { retry?: number; comments: number };
} {
  const state: { retry?: number; comments: number } = { comments: 0 };
  let out: StreamEvent[] = [];
  const parser = createParser({
    onEvent: (message) => out.push({ id: message.id, event: message.event ?? 'message', data: message.data }),
    onRetry: (interval) => (state.retry = interval),
    onComment: () => state.comments++,
  });
  const take = () => {
    const events = out;
    out = [];
    return events;
  };
  return {
    state,
    push(text) {
      parser.feed(text);
      return take();
    },
    finish() {
      parser.reset({ consume: true });
      return take();
    },
  };
}

/** The whole of a stream's text, parsed (an event cut off by the end of the text is not one, as the standard says). */
export function parseEventStream(text: string): StreamEvent[] {
  const parser = eventParser();
  return [...parser.push(text), ...parser.finish()];
}

/**
 * The events as the contract's schema of a stream describes them (an array of JobEvent: `id`, `event`, and `data`
 * parsed as the JSON it must be; data that is not JSON stays a string, which the schema then refuses).
 */
export function eventsAsJson(events: readonly StreamEvent[]): unknown[] {
  return events.map((e) => ({ ...(e.id !== undefined ? { id: e.id } : {}), event: e.event, data: jsonOf(e) }));
}

/** An event's data parsed, or the raw text when it is not JSON. */
export function jsonOf(event: StreamEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    return event.data;
  }
}

/** Whether the answer is an event stream, by its Content-Type. */
export const isEventStream = (headers: Record<string, string>) =>
  /^text\/event-stream\b/i.test(headers['content-type'] ?? '');
