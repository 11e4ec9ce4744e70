// Reading a Server-Sent Events stream in tests: fetch, then frames split at blank lines into their fields. A
// comment (`: keep-alive`) and the `retry:` preamble are kept apart from the events, so tests can see them.
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
  let buffer = '';
  let ended = false;
  const stream: OpenStream = {
    status: res.status,
    headers: res.headers,
    comments: [],
    retry: undefined,
    close,
    async next() {
      for (;;) {
        const cut = buffer.indexOf('\n\n');
        if (cut >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line);
            else {
              const colon = line.indexOf(':');
              fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
            }
          }
          if (fields.retry !== undefined) stream.retry = fields.retry;
          if (fields.event === undefined && fields.data === undefined) continue;
          return { id: fields.id!, event: fields.event!, data: JSON.parse(fields.data!) };
        }
        if (ended) return undefined;
        try {
          const { value, done } = await reader.read();
          if (done) ended = true;
          else buffer += value;
        } catch {
          ended = true;
        }
      }
    },
    async rest() {
      const events: StreamEvent[] = [];
      for (let event = await stream.next(); event; event = await stream.next()) events.push(event);
      return events;
    },
  };
  return stream;
}
