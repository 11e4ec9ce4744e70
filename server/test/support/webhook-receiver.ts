// A real webhook receiver for the tests and the benchmark: an HTTP server on 127.0.0.1 that records every request
// (path, headers, body) and answers as the test's handler for its path says (204 when none is set). A test waits
// for the requests it expects with `received`, never for a time.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = (request: Received, res: ServerResponse) => void;

export interface Receiver {
  port: number;
  /** `http://localhost:<port>`: a name, as a webhook's URL would be. */
  url: string;
  readonly requests: Received[];
  /** How `path` is answered from now on. */
  answer(path: string, answer: Answer): void;
  /** Resolves once `count` requests match `match` (within `seconds`, else rejects with what came). */
  received(match: (request: Received) => boolean, count?: number, seconds?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const requests: Received[] = [];
  const answers = new Map<string, Answer>();
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      for (const wake of waiters) wake();
      const answer = answers.get(request.path);
      if (answer) answer(request, res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://localhost:${bound}`,
    requests,
    answer: (path, answer) => void answers.set(path, answer),
    received(match, count = 1, seconds = 60) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = requests.filter(match);
          if (found.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${requests.filter(match).length} of ${count} requests came in ${seconds} s`));
        }, seconds * 1000);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
