// A node:http server that plays a hostile Server-Sent Events service for the client's stream tests: each test says
// how each connection goes (drop mid-event, garbage lines, silence, a `retry:`, a 401), and the server records what
// every request carried (Last-Event-ID, Authorization) and when a client closed its connection.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface Seen {
  path: string;
  lastEventId: string | undefined;
  authorization: string | undefined;
  /** Resolves once the client has closed the connection. */
  closed: Promise<void>;
}

/** Writes one connection's answer; `n` counts the connections to that path, from 0. */
export type Script = (request: IncomingMessage, response: ServerResponse, n: number) => void | Promise<void>;

export interface SseServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** An event as a stream frames it. */
export const frame = (id: number | string, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Starts the answer of an event stream with `retry:` (short, so that reconnections do not slow the tests). */
export function open(response: ServerResponse, retryMs = 10): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  response.write(`retry: ${retryMs}\n\n`);
}

export function problem(response: ServerResponse, status: number, code: string, detail: string): void {
  response.writeHead(status, { 'content-type': 'application/problem+json' });
  response.end(JSON.stringify({ type: `urn:jes:problem:${code}`, title: code, status, detail, code }));
}

/** Serves `routes` (path → script); any other path answers 404 `not_found`. */
export async function sseServer(routes: Record<string, Script>): Promise<SseServer> {
  const seen: Seen[] = [];
  const counts = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = new URL(request.url!, 'http://x').pathname;
    seen.push({
      path,
      lastEventId: request.headers['last-event-id'] as string | undefined,
      authorization: request.headers.authorization,
      closed: new Promise((resolve) => response.on('close', () => resolve())),
    });
    const script = routes[path];
    if (!script) return problem(response, 404, 'not_found', `No route ${path}.`);
    const n = counts.get(path) ?? 0;
    counts.set(path, n + 1);
    void script(request, response, n);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
