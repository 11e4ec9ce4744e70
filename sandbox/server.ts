// The sandbox: Prism's mock engine (@stoplight/prism-http, the engine of `prism mock`) over openapi.yaml,
// behind a small node:http server of ours. Prism validates each request against the contract, checks that a
// bearer token is present, and answers with the contract's examples (`Prefer: code=…, example=…` choose
// among them). The server around it keeps the contract's conventions where Prism has none (see
// conventions.ts), enforces the documented body limits, and never hangs on a body that is not JSON (Prism's
// own HTTP server does).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import prismCore from '@stoplight/prism-core';
import prismHttp from '@stoplight/prism-http';
import { allowedMethods, pointer, preferences, type Problem, problem } from './conventions.ts';

export const contractPath = join(import.meta.dirname, '..', 'openapi.yaml');

/** Body limits of the contract: login below 64 KiB, an inline job below 4 MiB; anything else is capped at 16 MiB here. */
function maxBytes(method: string, path: string): number {
  if (method === 'POST' && path === '/login') return 65_536;
  if (method === 'POST' && /^\/problem\/[^/]+$/.test(path)) return 4_194_304;
  return 16 * 1024 * 1024;
}

export interface Sandbox {
  url: string;
  close(): Promise<void>;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Called once per answered request (for a log line). */
  onResponse?: (method: string, path: string, status: number) => void;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

type Body = { text: string; bytes: number } | { tooLarge: true };

function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes < limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(bytes >= limit ? { tooLarge: true } : { text: Buffer.concat(chunks).toString('utf8'), bytes }));
    req.on('error', reject);
  });
}

const problemAnswer = (p: Problem, headers: Record<string, string> = {}): Answer => ({
  status: p.status,
  headers: { 'Content-Type': 'application/problem+json', ...headers },
  body: p,
});

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const operations = await prismHttp.getHttpOperationsFromSpec(contractPath);
  const logger = prismCore.createLogger('SANDBOX', { level: 'silent' });
  // What `prism mock` sets: validate requests and responses, check security, serve examples (not random data).
  const base = { isProxy: false as const, validateRequest: true, validateResponse: true, checkSecurity: true, errors: false, upstreamProxy: undefined, mock: { dynamic: false } };
  const prism = prismHttp.createInstance(base, { logger });

  async function mock(req: IncomingMessage, url: URL, body: unknown, prefer: ReturnType<typeof preferences>): Promise<Answer> {
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(key);
      query[key] = values.length === 1 ? values[0]! : values;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const input = { method: req.method!.toLowerCase() as 'get', url: { path: url.pathname, query }, headers, body };
    // Prism answers the lowest success status; an operation that documents 201 (an upload) creates by default.
    const operation = operations.find((op) => op.method === input.method && allowedMethods([op], url.pathname).length);
    const created = prefer.code === undefined && operation?.responses.some((r) => r.code === '201') ? { code: 201 } : {};
    const result = await prism.request(input, operations, { ...base, mock: { dynamic: false, ...created, ...prefer } })();
    if (result._tag === 'Left') {
      const error = result.left as Error & { status?: number; detail?: string };
      return problemAnswer(problem('invalid_request', `The sandbox cannot answer this request: ${error.message}. ${error.detail ?? ''}`.trim(), url.pathname));
    }
    const { output, validations } = result.right;
    const violations = validations.input.filter((v) => v.severity === 0 && v.code !== 401);
    const answer: Answer = { status: output.statusCode, headers: { ...output.headers }, body: output.body };
    if (violations.length) answer.headers['sl-violations'] = JSON.stringify(violations.map((v) => ({ location: ['request', ...(v.path ?? [])], code: v.code, message: v.message }))).slice(0, 8000);
    if (violations.length && (output.statusCode === 400 || output.statusCode === 422)) {
      // A missing member is reported at its parent; point at the member itself, as the contract's examples do.
      const missing = (v: { code?: unknown; message: string }) => (v.code === 'required' ? /property '([^']+)'/.exec(v.message)?.[1] : undefined);
      const errors = violations.map((v) => ({ pointer: pointer([...(v.path ?? []), ...[missing(v)].filter((m) => m !== undefined)]), detail: v.message }));
      return problemAnswer(problem('invalid_request', 'The request does not match the API contract.', url.pathname, errors), { 'sl-violations': answer.headers['sl-violations']! });
    }
    if (output.statusCode === 401 && prefer.code === undefined && req.headers.authorization !== undefined) {
      return mock(req, url, body, { code: 401, exampleKey: 'invalid_token' });
    }
    return answer;
  }

  async function answer(req: IncomingMessage, url: URL): Promise<Answer> {
    const method = req.method ?? 'GET';
    const allowed = allowedMethods(operations, url.pathname);
    if (!allowed.length) {
      req.resume();
      return problemAnswer(problem('not_found', `No operation at ${url.pathname}; see openapi.yaml.`, url.pathname));
    }
    if (!allowed.includes(method)) {
      req.resume();
      return problemAnswer(problem('method_not_allowed', `${method} is not supported on ${url.pathname}; use ${allowed.join(', ')}.`, url.pathname), { Allow: allowed.join(', ') });
    }
    const prefer = preferences(req.headers.prefer as string | undefined);
    const read = await readBody(req, maxBytes(method, url.pathname));
    if ('tooLarge' in read) {
      const limit = maxBytes(method, url.pathname);
      return problemAnswer({ ...problem('payload_too_large', `The body must be smaller than ${limit} bytes.`, url.pathname), max_bytes: limit });
    }
    let body: unknown = read.bytes ? read.text : undefined;
    // Prism's multipart parser throws on some file names (one with "=" in it): hand it a neutral one.
    if (read.bytes && /^multipart\//i.test(req.headers['content-type'] ?? '')) body = read.text.replace(/(;\s*filename\*?=)("(?:[^"\\]|\\.)*"|[^;\r\n]*)/gi, '$1"upload"');
    if (read.bytes && /^application\/(.+\+)?json\b/i.test(req.headers['content-type'] ?? '')) {
      try {
        body = JSON.parse(read.text);
      } catch (error) {
        return problemAnswer(problem('malformed_json', `The body is not valid JSON (${(error as Error).message}).`, url.pathname));
      }
    }
    return mock(req, url, body, prefer);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '*');
    res.setHeader('Access-Control-Expose-Headers', '*');
    const url = new URL(req.url ?? '/', 'http://sandbox');
    if (req.method === 'OPTIONS' && req.headers.origin && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', allowedMethods(operations, url.pathname).join(', ') || 'GET');
      res.writeHead(204).end();
      return;
    }
    let result: Answer;
    try {
      result = await answer(req, url);
    } catch (error) {
      result = problemAnswer(problem('internal_error', `The sandbox failed: ${(error as Error).message}`, url.pathname));
    }
    const requestId = (result.body as { request_id?: unknown } | undefined)?.request_id;
    if (typeof requestId === 'string') result.headers['X-Request-Id'] = requestId;
    const text = result.body === undefined ? '' : typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
    res.writeHead(result.status, result.headers).end(text);
    options.onResponse?.(req.method ?? 'GET', url.pathname, result.status);
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
