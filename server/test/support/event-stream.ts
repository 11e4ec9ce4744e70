// Reading a Server-Sent Events stream in tests: fetch, then eventsource-parser (the parser @jes/client reads streams
// with). A comment (`: keep-alive`) and the `retry:` preamble are kept apart from the events, so tests can see them.
import { createParser } from 'eventsource-parser';
export interface StreamEvent {
  id: string;
  event: string;
  data: any;
}

export interface OpenStream {
  status: number;
  headers: Headers;
  /** The body, when the answer is no stream (a problem). */
  problem?: any;
  /** The next event; undefined once the stream has ended. */
  next(): Promise<StreamEvent | undefined>;
  /** Every event until the stream ends. */
  rest(): Promise<StreamEvent[]>;
  /** Comment lines seen so far (keep-alives) and the retry field. */
  comments: string[];
  retry: string | undefined;
  close(): void;
}

export async function openStream(
  base: string,
  path: string,
  token: string | undefined,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(base + path, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    signal: abort.signal,
  });
  const close = () => abort.abort();
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await res.text();
    const done = async () => undefined;
    return {
      status: res.status,
      headers: res.headers,
      problem: text ? JSON.parse(text) : undefined,
      next: done,
      rest: async () => [],
      comments: [],
      retry: undefined,
      close,
    };
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const queue: StreamEvent[] = [];
  let ended = false;
  const parser = createParser({
    onEvent: (message) => queue.push({ id: message.id!, event: message.event!, data: JSON.parse(message.data) }),
    onRetry: (interval) => (stream.retry = String(interval)),
    onComment: (comment) => stream.comments.push(`:${comment}`),
  });
  const stream: OpenStream = {
    status: res.status,
    headers: res.headers,
    comments: [],
    retry: undefined,
    close,
    async next() {
      while (queue.length === 0 && !ended) {
        try {
          const { value, done } = await reader.read();
          if (done) ended = true;
          else parser.feed(value);
        } catch {
          ended = true;
        }
      }
      return queue.shift();
    },
    async rest() {
      const events: StreamEvent[] = [];
      for (let event = await stream.next(); event; event = await stream.next()) events.push(event);
      return events;
    },
  };
  return stream;
}
