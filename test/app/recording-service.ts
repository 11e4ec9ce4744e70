// A stand-in for a service on another origin, as an attacker would run one: it lets any page call it (CORS for any
// origin, Authorization allowed), hands out a token of its own at POST /login, answers GET /problem with no use
// cases, and records every request it receives, preflights included, with its Authorization header and body.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface RecordingService {
  /** Its origin, as a page names it: http://127.0.0.1:<port>. */
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** The token it hands out: what a dashboard logged in to it should send it, and nothing else. */
export const recordingToken = 'token-of-the-recording-service';

function answer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, prefer, idempotency-key');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE');
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': status < 400 ? 'application/json' : 'application/problem+json' });
    res.end(JSON.stringify(body));
  };
  if (req.method === 'OPTIONS') return void res.writeHead(204).end();
  if (req.method === 'POST' && req.url === '/login')
    return json(200, { access_token: recordingToken, token_type: 'Bearer', expires_in: 3600 });
  if (req.method === 'GET' && req.url?.startsWith('/problem')) return json(200, { problem: {}, ids: [] });
  json(404, { type: 'about:blank', title: 'Not found', status: 404, code: 'not_found', detail: 'Nothing here.' });
}

export async function startRecordingService(): Promise<RecordingService> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(req, res);
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
