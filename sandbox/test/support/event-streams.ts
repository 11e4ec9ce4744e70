// Reading a Server-Sent Events answer in the sandbox's tests: its frames parsed as the format says (fields `id`,
// `event`, `data`, `retry`; a line starting with `:` a comment; a blank line ends a frame), read until the stream
// ends or the caller has what it waits for (then the stream is cancelled, as a client that leaves).

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
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      read.ended = true;
      return read;
    }
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) read.comments.push(line.slice(1).trim());
        else {
          const at = line.indexOf(':');
          fields[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, '');
        }
      }
      if (fields.retry !== undefined) read.retry = Number(fields.retry);
      if (fields.data !== undefined)
        read.events.push({ id: fields.id, event: fields.event ?? 'message', data: JSON.parse(fields.data) });
    }
    if (enough(read)) {
      await reader.cancel();
      return read;
    }
  }
}
