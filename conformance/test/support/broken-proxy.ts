// A deliberately broken deployment: a small HTTP proxy in front of the real reference server that changes
// one behaviour (a Breakage: rewrite the request, answer it itself, or rewrite the answer). The suite must
// fail the check that behaviour breaks. An event stream is passed on as it comes, event by event (a stream that
// never ends cannot be read whole first), through the breakage's `events` when it has one.
import { createServer, type IncomingMessage } from 'node:http';

export interface Exchanged {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** An event stream's body, event by event (each block with its blank line), as it comes; `body` is then empty. */
  events?: AsyncIterable<string>;
}

export interface Breakage {
  /** Change the request before it is forwarded, or answer it here (the server never sees it). */
  request?(request: Exchanged, tools: Tools): Promise<Exchanged | Answer> | Exchanged | Answer;
  /** Change the server's answer (of an event stream, its status and headers). */
  response?(request: Exchanged, answer: Answer, tools: Tools): Promise<Answer> | Answer;
  /** Change an event stream as it passes: the events the server sends in, what the client receives out. */
  events?(request: Exchanged, events: AsyncIterable<string>): AsyncIterable<string>;
}

export interface Tools {
  /** A valid token of a user of the server behind (logged in once). */
  token(user: string, password: string): Promise<string>;
  /** Sends a request to the server behind, as is (an event stream is read until `signal` aborts it or it ends). */
  forward(request: Exchanged, signal?: AbortSignal): Promise<Answer>;
  /** The deployment goes away: the proxy stops listening, answers this request and closes every connection. */
  stop(): void;
}

const hopByHop = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'content-encoding',
]);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A JSON answer's body parsed, changed by `edit`, and serialised again; other answers as they are. */
export function editJson(answer: Answer, edit: (body: any) => void): Answer {
  if (!/json/.test(answer.headers['content-type'] ?? '')) return answer;
  const body = JSON.parse(answer.body.toString('utf8'));
  edit(body);
  return { ...answer, body: Buffer.from(JSON.stringify(body)) };
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** The blocks of an event stream (each event or comment with the blank line after it) as they come. */
async function* blocks(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let pending = '';
  const reader = body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pending += decoder.decode(read.value, { stream: true });
      for (let end = /\r?\n\r?\n/.exec(pending); end; end = /\r?\n\r?\n/.exec(pending)) {
        yield pending.slice(0, end.index + end[0].length);
        pending = pending.slice(end.index + end[0].length);
      }
    }
  } catch {
    // The client left (the stream aborted) or the server closed it midway.
  }
  if (pending) yield pending;
}

export async function startBrokenProxy(
  target: string,
  breakage: Breakage,
): Promise<{ url: string; close(): Promise<void> }> {
  const tokens = new Map<string, Promise<string>>();
  const forward = async (request: Exchanged, signal?: AbortSignal): Promise<Answer> => {
    const res = await fetch(target + request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body.length ? { body: new Uint8Array(request.body) } : {}),
      ...(signal ? { signal } : {}),
    });
    const headers = Object.fromEntries([...res.headers].filter(([k]) => !hopByHop.has(k.toLowerCase())));
    if (/^text\/event-stream/i.test(headers['content-type'] ?? '') && res.body)
      return { status: res.status, headers, body: Buffer.alloc(0), events: blocks(res.body) };
    return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
  };
  let stopping = false;
  const tools: Tools = {
    forward,
    stop: () => {
      stopping = true;
    },
    token(user, password) {
      if (!tokens.has(user)) {
        tokens.set(
          user,
          forward({
            method: 'POST',
            url: '/login',
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(JSON.stringify({ username: user, password })),
          }).then((answer) => JSON.parse(answer.body.toString()).access_token as string),
        );
      }
      return tokens.get(user)!;
    },
  };
  const server = createServer(async (req, res) => {
    try {
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([k]) => !hopByHop.has(k))
          .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      const request: Exchanged = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers,
        body: await readBody(req),
      };
      const changed = breakage.request ? await breakage.request(request, tools) : request;
      // A client that leaves ends the stream behind it too (the server counts a user's open streams).
      const left = new AbortController();
      res.on('close', () => left.abort());
      let answer = 'status' in changed ? changed : await forward(changed, left.signal);
      if (breakage.response && !('status' in changed)) answer = await breakage.response(changed, answer, tools);
      if (answer.events && !('status' in changed)) {
        res.writeHead(answer.status, answer.headers);
        res.flushHeaders();
        const events = breakage.events ? breakage.events(changed, answer.events) : answer.events;
        for await (const block of events) if (!res.writableEnded) res.write(block);
        res.end();
        return;
      }
      if (stopping) {
        server.close();
        res.shouldKeepAlive = false;
        res.on('finish', () => server.closeAllConnections());
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy failure: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
