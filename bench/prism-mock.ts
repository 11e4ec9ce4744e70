// The second comparison app of the API benchmark: the stock Prism mock engine (@stoplight/prism-http, the engine
// of `prism mock`) serving openapi.yaml, with none of the sandbox's conventions. Started by bench/api.ts as a child:
//   node bench/prism-mock.ts
// It listens on a free port of 127.0.0.1 and prints "prism mock listening on http://127.0.0.1:PORT".
// Each request goes through what Prism's own HTTP server (@stoplight/prism-http-server, which the sandbox does not
// install) does per request: body read as JSON or text, the URL split into path and query, prism.request with the
// configuration `prism mock` uses (validate requests and responses, check security, static examples, --errors off),
// the violations in the `sl-violations` header, the body serialised as JSON. Prism's logger is silent, as the jes
// server's is at LOG_LEVEL=warn; the Prefer header (Prism's code/example choice) is not parsed: the benchmark's
// GETs send none, so Prism answers its first 200 example.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import prismCore from '@stoplight/prism-core';
import prismHttp from '@stoplight/prism-http';

const contract = join(import.meta.dirname, '..', 'openapi.yaml');
const operations = await prismHttp.getHttpOperationsFromSpec(contract);
const config = {
  isProxy: false as const,
  validateRequest: true,
  validateResponse: true,
  checkSecurity: true,
  errors: false,
  upstreamProxy: undefined,
  mock: { dynamic: false },
};
const prism = prismHttp.createInstance(config, { logger: prismCore.createLogger('BENCH', { level: 'silent' }) });

/** The body as Prism's server reads it: none without Content-Length or Transfer-Encoding, JSON when it says so. */
async function readBody(req: IncomingMessage): Promise<unknown> {
  const { 'content-length': length, 'transfer-encoding': encoding, 'content-type': type } = req.headers;
  if (length === '0' || (length === undefined && encoding === undefined)) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return /^application\/(.+\+)?json\b/.test(type ?? '') ? JSON.parse(text) : text;
}

function sendProblem(res: ServerResponse, status: number, title: string, detail: string): void {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ type: 'about:blank', title, status, detail }));
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://prism.invalid');
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  const input = {
    method: (req.method ?? 'GET').toLowerCase() as 'get',
    url: { path: url.pathname, query },
    headers: req.headers as Record<string, string>,
    body,
  };
  const result = await prism.request(input, operations, config)();
  if (result._tag === 'Left') {
    const error = result.left as Error & { status?: number; detail?: string };
    sendProblem(res, error.status ?? 500, error.message, error.detail ?? '');
    return;
  }
  const { output, validations } = result.right;
  const violations = [...validations.input, ...validations.output];
  if (violations.length)
    res.setHeader(
      'sl-violations',
      JSON.stringify(violations.map((v) => ({ code: v.code, message: v.message }))).slice(0, 8000),
    );
  for (const [name, value] of Object.entries(output.headers ?? {})) res.setHeader(name, String(value));
  res.statusCode = output.statusCode;
  res.end(output.body === undefined || typeof output.body === 'string' ? output.body : JSON.stringify(output.body));
}

const server = createServer((req, res) => {
  answer(req, res).catch((error: Error) => {
    if (res.headersSent) res.destroy();
    else sendProblem(res, 500, 'Internal Server Error', error.message);
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`prism mock listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
