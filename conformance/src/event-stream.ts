// Server-Sent Events as the suite reads them (GET /job/{job_id}/events, GET /events): parsed as the HTML
// standard's event-stream interpretation says (fields, comments, CR, LF or CRLF line ends, an event dispatched at a
// blank line), so a deployment is held to the format a browser reads, not to one server's way of writing it.

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

/** An incremental parser: feed it text as it arrives, it returns the events each piece completes. */
export function eventParser(): {
  push(text: string): StreamEvent[];
  /** The stream has ended: a CR it ended with ends a line after all. */
  finish(): StreamEvent[];
  state: { retry?: number; comments: number };
} {
  let pending = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  const state: { retry?: number; comments: number } = { comments: 0 };
  const line = (text: string, out: StreamEvent[]) => {
    if (text === '') {
      // A blank line dispatches; an event without data is not dispatched (the standard's rule).
      if (data.length) out.push({ id, event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      id = undefined;
      return;
    }
    if (text.startsWith(':')) {
      state.comments++;
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) state.retry = Number(value);
  };
  return {
    state,
    push(text) {
      const out: StreamEvent[] = [];
      pending += text;
      for (;;) {
        const match = /\r\n|\r|\n/.exec(pending);
        // A CR at the very end may be the first half of a CRLF: wait for the next piece.
        if (!match || (match[0] === '\r' && match.index === pending.length - 1)) break;
        line(pending.slice(0, match.index), out);
        pending = pending.slice(match.index + match[0].length);
      }
      return out;
    },
    finish() {
      const out: StreamEvent[] = [];
      if (pending === '\r') line('', out);
      pending = '';
      return out;
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
