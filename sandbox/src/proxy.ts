// The validation proxy (`jes-sandbox --proxy https://deployment`, as `prism proxy`): every request to one of the
// contract's paths goes on to the one deployment given, and its answer comes back unchanged (status, headers,
// body), with what breaks the contract on either side in the `sl-violations` header and the log. Bodies stream
// both ways; a JSON body is checked when it is at most `maxCheckedBytes` (the head is held until then, never
// more). With `errors`, a request at odds with the contract is refused `400 invalid_request` without going on,
// and a response at odds with it becomes a 502. It is no open relay: another host, or a path the contract
// lacks, is never reached. An event stream (`text/event-stream`, not JSON) is never held: its head is checked and
// its events go on to the client as the deployment sends them.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { request as requestTls } from 'node:https';
import { answerClientErrors } from '@jes/contract/node';
import { listening, type Listening } from './listening.ts';
import { codingOf, drain, mediaTypeOf } from './body.ts';
import {
  allowedMethods,
  asciiOnly,
  type FieldError,
  invalidRequest,
  problem,
  type Problem,
  problemAnswer,
} from './conventions.ts';
import { createContractCheck, type SeenRequest } from './contract-check.ts';
import { endToEnd } from './hop-by-hop.ts';
import { parseJson, type Prefix, readPrefix } from './prefix.ts';
import { fieldError, requestErrors, type Violation, violationsHeader } from './violations.ts';

export interface ProxyOptions {
  /** The deployment every request goes on to (`https://jes.example.com`, a path prefix allowed). */
  upstream: string;
  port?: number;
  host?: string;
  contractPath?: string;
  /** Refuse a request at odds with the contract (400), answer 502 for a response at odds with it. */
  errors?: boolean;
  /** How long the deployment may stay silent, waiting for its answer or within it (above a 60 s long poll). */
  upstreamTimeoutMs?: number;
  /** The largest JSON body checked, either way; a larger one passes unchecked. */
  maxCheckedBytes?: number;
  /** Called once per request, with what became of it (for its log lines: proxy-log.ts). */
  onExchange?: (exchange: ProxiedExchange) => void;
}

/** What became of one request through the proxy. */
export interface ProxiedExchange {
  method: string;
  path: string;
  status: number;
  /** What breaks the contract, in the request or in the response. */
  violations: { in: 'request' | 'response'; pointer: string; detail: string }[];
  /** What was not checked, and why (a body too large, compressed, not JSON). */
  unchecked: string[];
  /** Why the proxy answered itself instead of the deployment, if it did. */
  answeredBy?: string;
}

type Located = Violation & { in: 'request' | 'response' };

const isJson = (contentType: string | undefined) => /^application\/([\w.-]+\+)?json$/.test(mediaTypeOf(contentType));

/** Header names in lower case, with their values joined, as Prism's validators take them. */
const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );

const hasBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/** Why a body is not checked, or undefined when it is (JSON, not compressed, read whole within the bound). */
function unreadBody(headers: IncomingHttpHeaders, prefix: Prefix | undefined, max: number): string | undefined {
  if (!hasBody(headers)) return undefined;
  if (!isJson(headers['content-type'])) return `${mediaTypeOf(headers['content-type']) || 'untyped'}, not JSON`;
  if (codingOf(headers['content-encoding']) !== 'identity') return `Content-Encoding ${headers['content-encoding']}`;
  if (!prefix?.whole) return `over ${max} bytes`;
  return undefined;
}

/** The headers of a problem the proxy answers itself, as the mock's: its media type and X-Request-Id. */
const ownHeaders = (p: Problem, more: Record<string, string> = {}) => ({
  ...problemAnswer(p).headers,
  'X-Request-Id': p.request_id,
  ...more,
});

/** A listening proxy: its URL, and how to stop it. */
export type Proxy = Listening;

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`the upstream must be an http or https URL, not ${options.upstream}`);
  const base = upstream.pathname.replace(/\/+$/, '');
  const max = options.maxCheckedBytes ?? 4 * 1024 * 1024;
  const timeout = options.upstreamTimeoutMs ?? 90_000;
  const check = await createContractCheck(options.contractPath);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    // Only a path, never a URL of another host (`GET http://elsewhere/`), and only one of the contract's.
    const target = req.url?.startsWith('/') ? new URL(`http://proxy${req.url}`) : undefined;
    const path = target?.pathname ?? String(req.url);
    const exchange: ProxiedExchange = { method, path, status: 0, violations: [], unchecked: [] };
    const done = (status: number) => {
      exchange.status = status;
      try {
        options.onExchange?.(exchange);
      } catch {
        // A log line that fails is no reason to fail the request.
      }
    };
    const answer = async (status: number, headers: Record<string, string>, body: unknown, why: string) => {
      exchange.answeredBy = why;
      // A body whose head was read is paused there: the rest is read and dropped before the answer goes out.
      req.resume();
      await drain(req);
      res.writeHead(status, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, asciiOnly(v)])));
      res.end(JSON.stringify(body));
      done(status);
    };
    if (!target || !allowedMethods(check.operations, path).length) {
      const p = problem(
        'not_found',
        `No operation at ${path}; see openapi.yaml. The proxy forwards only the contract's paths.`,
        path,
      );
      return answer(404, ownHeaders(p), p, 'a path the contract lacks is not forwarded');
    }
    const operation = check.operationAt(method, path);
    if (!operation) exchange.unchecked.push(`not checked: the contract has no ${method} ${path}`);
    // Prism's account of each side (the sl-violations header); the log's field errors of the request, explained.
    const violations: Located[] = [];
    let requestFieldErrors: FieldError[] = [];
    const report = () => [
      ...requestFieldErrors.map((e) => ({ in: 'request' as const, ...e })),
      ...violations.filter((v) => v.in === 'response').map((v) => ({ in: v.in, ...fieldError(v) })),
    ];
    let requestHead: Prefix | undefined;
    if (
      hasBody(req.headers) &&
      isJson(req.headers['content-type']) &&
      codingOf(req.headers['content-encoding']) === 'identity'
    )
      requestHead = await readPrefix(req, max);
    if (operation) {
      const seen: SeenRequest = {
        method,
        path,
        query: target.searchParams,
        headers: flat(req.headers),
        rawHeaders: req.rawHeaders,
      };
      const found: Violation[] = [];
      const why = unreadBody(req.headers, requestHead, max);
      if (why) exchange.unchecked.push(`request body not checked: ${why}`);
      else if (requestHead && hasBody(req.headers)) {
        const parsed = parseJson(requestHead.chunks);
        if ('value' in parsed) seen.body = parsed.value;
        else found.push({ path: ['body'], message: `Request body is not JSON: ${parsed.error}` });
      }
      found.push(...check.request(operation, seen));
      violations.push(...found.map((v) => ({ ...v, in: 'request' as const })));
      requestFieldErrors = requestErrors(operation.iid, found, seen.body);
      if (options.errors && found.length) {
        const p = invalidRequest(path, requestFieldErrors).body as Problem;
        exchange.violations = report();
        return answer(400, ownHeaders(p, { 'sl-violations': violationsHeader(violations) }), p, '--errors');
      }
    }

    // On to the deployment: the request's own headers but for those of this hop, and Host.
    const headers = endToEnd(req.rawHeaders, req.headers.connection, ['host']);
    headers.push('Host', upstream.host, 'Via', `${req.httpVersion} jes-sandbox`);
    const send = upstream.protocol === 'https:' ? requestTls : request;
    const outgoing = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method,
      path: `${base}${path}${target.search}`,
      headers,
      timeout,
    });
    // Nobody left to answer: the deployment's request goes too.
    res.once('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    const failed = (why: string) => {
      if (res.headersSent) return void res.destroy();
      const p = problem('bad_gateway', `The deployment at ${upstream.origin} did not answer: ${why}.`, path);
      exchange.violations = report();
      void answer(502, ownHeaders(p), p, `the deployment did not answer (${why})`);
    };
    outgoing.once('timeout', () => outgoing.destroy(new Error(`no answer within ${timeout / 1000} s`)));
    outgoing.once('error', (error: NodeJS.ErrnoException) => failed(error.code ?? error.message));
    for (const chunk of requestHead?.chunks ?? []) outgoing.write(chunk);
    if (!requestHead || !requestHead.whole) req.pipe(outgoing);
    else outgoing.end();

    outgoing.once('response', (incoming) => void respond(incoming).catch(() => res.destroy()));

    async function respond(incoming: IncomingMessage) {
      const status = incoming.statusCode ?? 502;
      const readable = hasBody(incoming.headers) && isJson(incoming.headers['content-type']);
      const head =
        readable && codingOf(incoming.headers['content-encoding']) === 'identity'
          ? await readPrefix(incoming, max)
          : undefined;
      if (operation) {
        const why = unreadBody(incoming.headers, head, max);
        const seen = { status, headers: flat(incoming.headers), body: undefined as unknown };
        const found: Located[] = [];
        if (why) exchange.unchecked.push(`response body not checked: ${why}`);
        else if (head && hasBody(incoming.headers)) {
          const parsed = parseJson(head.chunks);
          if ('value' in parsed) seen.body = parsed.value;
          else found.push({ in: 'response', path: ['body'], message: `Response body is not JSON: ${parsed.error}` });
        }
        found.push(...check.response(operation, seen).map((v) => ({ ...v, in: 'response' as const })));
        violations.push(...found);
        if (options.errors && found.length) {
          incoming.destroy();
          const broken = found.map((v) => v.message).join('; ');
          const p = problem(
            'bad_gateway',
            `The deployment answered ${status}, at odds with the contract: ${broken.slice(0, 500)}.`,
            path,
          );
          exchange.violations = report();
          const header = { 'sl-violations': violationsHeader(violations) };
          return answer(502, ownHeaders(p, header), p, '--errors');
        }
      }
      exchange.violations = report();
      // A deployment's own sl-violations gives way to the proxy's.
      const back = endToEnd(incoming.rawHeaders, incoming.headers.connection, ['sl-violations']);
      if (violations.length) back.push('sl-violations', violationsHeader(violations));
      res.writeHead(status, incoming.statusMessage, back);
      for (const chunk of head?.chunks ?? []) res.write(chunk);
      if (head?.whole) res.end();
      else incoming.pipe(res);
      incoming.once('error', () => res.destroy());
      res.once('finish', () => done(status));
    }
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  answerClientErrors(server, 'the validation proxy');
  return listening(server, options);
}
