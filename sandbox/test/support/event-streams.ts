// Reading a Server-Sent Events answer in the sandbox's tests: parsed by eventsource-parser (the parser @jes/client
// reads streams with), read until the stream ends or the caller has what it waits for (then the stream is
// cancelled, as a client that leaves).
import { createParser } from 'eventsource-parser';

export interface ReadEvent {
  id: string | undefined;
  event: string;
  data: any;
}

export interface ReadStream {
  events: ReadEvent[];
  comments: string[];
  retry: number | undefined;
  /** Whether the server closed the stream (rather than the reader leaving). */
  ended: boolean;
}

/** Reads `res`'s stream until it ends, or until `enough` says so of what was read. */
export async function readStream(
  res: Response,
  enough: (read: ReadStream) => boolean = () => false,
): Promise<ReadStream> {
  const read: ReadStream = { events: [], comments: [], retry: undefined, ended: false };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const parser = createParser({
    onEvent: (m) => read.events.push({ id: m.id, event: m.event ?? 'message', data: JSON.parse(m.data) }),
    onRetry: (interval) => (read.retry = interval),
    onComment: (comment) => read.comments.push(comment.trim()),
  });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      read.ended = true;
      return read;
    }
    parser.feed(value);
    if (enough(read)) {
      await reader.cancel();
      return read;
    }
  }
}
