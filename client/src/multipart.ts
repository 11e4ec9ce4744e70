// A multipart/form-data body whose file part is streamed (RFC 7578), for uploads given as a stream: the
// platform's FormData only takes Blobs. Fields come first, then the file.

export type ByteStream = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A quoted-string parameter value as the HTML form encoder writes it. */
const quote = (value: string) => value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** The chunks of a web stream or an async iterable (Safari's web streams are not async iterable). */
export async function* chunks(stream: ByteStream): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in stream) {
    yield* stream as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (stream as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** The body and its content type: `fields` as text parts, then `file` named `filename`. */
export function streamingMultipart(
  fields: Record<string, string>,
  fileField: string,
  filename: string,
  file: ByteStream,
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----jes-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const encoder = new TextEncoder();
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(fileField)}"; filename="${quote(filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  async function* parts(): AsyncGenerator<Uint8Array> {
    yield encoder.encode(head);
    yield* chunks(file);
    yield encoder.encode(`\r\n--${boundary}--\r\n`);
  }
  const iterator = parts();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
