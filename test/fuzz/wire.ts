// Requests as bytes on a socket. fetch and node:http refuse some of what the fuzz sends (odd methods,
// characters past Latin-1 in a header, a Content-Length that lies, a body cut short), so every request is
// written by hand over node:net, with `Connection: close`, and the response read until the server closes.
import { connect } from 'node:net';

export interface WireRequest {
  method: string;
  /** The request target as sent: path and query, already encoded as the case wants. */
  target: string;
  /** Header lines in order; a value is sent as UTF-8 bytes. Host and Connection are added. */
  headers: [string, string][];
  body?: Buffer;
  /** Content-Length to announce instead of the body's length (a lie); null to send none. */
  contentLength?: number | null;
  /** The protocol of the request line (default HTTP/1.1), and whether to leave Host out. */
  version?: string;
  omitHost?: boolean;
}

export interface WireResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

export type WireResult = { response: WireResponse } | { error: string };

function head(url: URL, request: WireRequest): Buffer {
  const lines = [
    `${request.method} ${request.target} ${request.version ?? 'HTTP/1.1'}`,
    ...(request.omitHost ? [] : [`Host: ${url.host}`]),
    'Connection: close',
  ];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const length = request.contentLength === undefined ? request.body?.length : request.contentLength;
  if (
    length !== null &&
    length !== undefined &&
    !request.headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n))
  ) {
    lines.push(`Content-Length: ${length}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
}

/** Decodes a chunked body; what cannot be decoded is returned as it came. */
function unchunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    // Cut at a chunk's end (an event stream read only to its first event): the chunks so far.
    if (eol < 0) return at === raw.length && parts.length ? Buffer.concat(parts) : raw;
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size)) return raw;
    if (size === 0) return Buffer.concat(parts);
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Parses the first final (non-1xx) response in `raw`. */
export function parseResponse(raw: Buffer, ms: number): WireResponse | undefined {
  let at = 0;
  for (;;) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) return undefined;
    const [statusLine, ...lines] = raw.subarray(at, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
    if (!Number.isInteger(status)) return undefined;
    at = end + 4;
    if (status >= 100 && status < 200) continue;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      // Header bytes are UTF-8 on our side of the wire: decode them back for comparison.
      const value = Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8');
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    let body = raw.subarray(at);
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
    else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
    return { status, headers, body, ms };
  }
}

/**
 * Sends `request` to `base` and resolves with the response, or with why none came (refused, reset, no
 * answer within `timeoutMs`). With `endAfterWrite` the socket's write side closes after the request, as a
 * client that gives up on a body it announced longer than it is; `localAddress` sends it from another
 * loopback address.
 */
export function send(
  base: string,
  request: WireRequest,
  options: { timeoutMs?: number; endAfterWrite?: boolean; localAddress?: string } = {},
): Promise<WireResult> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve) => {
    // From another loopback address (another client to the server's per-address limits): over IPv4 then.
    const host = options.localAddress ? '127.0.0.1' : url.hostname;
    const socket = connect({
      host,
      port: Number(url.port),
      allowHalfOpen: true,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (result: WireResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => {
      const partial = parseResponse(Buffer.concat(chunks), performance.now() - started);
      finish(partial ? { response: partial } : { error: `no response within ${options.timeoutMs ?? 15_000} ms` });
    }, options.timeoutMs ?? 15_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A complete response with a Content-Length need not wait for the close.
      const raw = Buffer.concat(chunks);
      const parsed = parseResponse(raw, performance.now() - started);
      if (
        parsed?.headers['content-length'] !== undefined &&
        parsed.body.length >= Number(parsed.headers['content-length'])
      )
        finish({ response: parsed });
      // An event stream does not end by itself: its first frame (`retry:`) is enough to judge the answer by.
      else if (/^text\/event-stream/i.test(parsed?.headers['content-type'] ?? '') && parsed!.body.includes('\n\n'))
        finish({ response: parsed! });
    });
    socket.on('end', () => {
      const parsed = parseResponse(Buffer.concat(chunks), performance.now() - started);
      const unreadable = `an unreadable response: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`;
      finish(
        parsed
          ? { response: parsed }
          : { error: chunks.length ? unreadable : 'the connection closed without a response' },
      );
    });
    socket.on('error', (error) => {
      const parsed = parseResponse(Buffer.concat(chunks), performance.now() - started);
      finish(
        parsed
          ? { response: parsed }
          : { error: `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}` },
      );
    });
    socket.on('connect', () => {
      socket.write(head(url, request));
      if (request.body?.length) socket.write(request.body);
      if (options.endAfterWrite) socket.end();
    });
  });
}
