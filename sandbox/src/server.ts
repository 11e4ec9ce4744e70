// The sandbox: Prism's mock engine over openapi.yaml (mock.ts) behind a small node:http server of ours that
// keeps the contract's conventions where Prism has none (conventions.ts) and takes a request in the reference
// server's order: route first (404, 405 with Allow), then authenticate (bearer.ts), then the use case a path
// names (use-cases.ts), then read the body (request-body.ts), then the parameters Prism lets through
// (parameters.ts), and only then Prism. Whatever a request holds, it gets an answer and the sandbox keeps
// running: a failure while writing one included. Every answer of a routed request to a deprecated operation
// carries its Deprecation and Sunset headers, as the reference server's do (@jes/contract's deprecation.ts).
// Once the route is known, the scenarios a request or a flag asks for come first (scenarios.ts: a latency, a 429,
// a 503, a dropped connection).
// Stateful (the default), a request Prism accepts is answered from the state (state/operations.ts) instead of
// Prism's example; stateless, Prism's example is the answer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { bearerToken, unknownToken } from './bearer.ts';
import { answerClientErrors, parseAllowHosts } from '@jes/contract/node';
import { drain } from './body.ts';
import { listening, type Listening } from './listening.ts';
import {
  allowedMethods,
  type Answer,
  asciiOnly,
  type FieldError,
  invalidRequest,
  type Preferences,
  preferences,
  problem,
  problemAnswer,
} from './conventions.ts';
import { deprecationNotice, resumeAfter } from '@jes/contract';
import { createStreams, exampleStream } from './event-streams.ts';
import { createMock, type Operation } from './mock.ts';
import { parameterProblems } from './parameters.ts';
import { takeBody } from './request-body.ts';
import type { RequestOutcome } from './request-log.ts';
import { createScenarios, type ScenarioOptions } from './scenarios.ts';
import { createUseCaseCheck } from './use-cases.ts';
import type { StateLimits } from './state/limits.ts';
import { stateHandlers } from './state/operations.ts';
import { noContent, pathParams } from './state/request.ts';
import { createState, type User } from './state/store.ts';
import { createWebhookSender } from './state/webhook-deliveries.ts';

export { type ProxiedExchange, type Proxy, type ProxyOptions, startProxy } from './proxy.ts';
export type { ScenarioOptions } from './scenarios.ts';

export interface Sandbox extends Listening {
  /** The seed of its state (undefined when stateless): `seed` again repeats its ids, timings and answers. */
  seed: number | undefined;
}

/**
 * The options of the sandbox; those of its scenarios (latency, rate limit, 503s, drops, the seed, which seeds the
 * state's ids, tokens, timings and answers too) are scenarios.ts's.
 */
export interface SandboxOptions extends ScenarioOptions {
  port?: number;
  host?: string;
  /** The contract to mock (default: the openapi.yaml this package carries). */
  contractPath?: string;
  /** Answer only with the contract's examples, storing nothing (Prism's classic mock), instead of keeping state. */
  stateless?: boolean;
  /** How many times faster than a deployment jobs run (default 10). */
  speed?: number | undefined;
  /** The state's caps (state/limits.ts). */
  limits?: Partial<StateLimits>;
  /**
   * The hosts a webhook may call beside public ones (the address guard's allow list, as a deployment's
   * JES_WEBHOOK_ALLOW_HOSTS): by default this machine's loopback names (defaultWebhookAllowHosts).
   */
  webhookAllowHosts?: readonly string[];
  /** How long an event stream may stay quiet before a keep-alive comment (the contract's 15 s; tests say less). */
  keepAliveMs?: number;
  /** Called once per answered request, with what became of it (for its log lines: request-log.ts). */
  onResponse?: (method: string, path: string, status: number, outcome: RequestOutcome) => void;
}

/** The request target as a URL; a path keeps its doubled slashes. Undefined when it cannot be one. */
function requestUrl(target = '/'): URL | undefined {
  try {
    return target.startsWith('/') ? new URL(`http://sandbox${target}`) : new URL(target);
  } catch {
    return undefined;
  }
}

/** An answer given without reading the body: it goes out once the body is dropped (see `drain`). */
async function early(req: IncomingMessage, answer: Answer): Promise<Answer> {
  await drain(req);
  return answer;
}

// Headers Prism is not shown: Accept (the reference server answers JSON whatever it says, where Prism answers
// an empty body or refuses), and those that describe the body, which takeBody sets again once it is checked
// (Prism throws on a Content-Type it cannot parse).
const hidden = new Set(['accept', 'content-type', 'content-length', 'content-encoding', 'transfer-encoding']);

const cors = (req: IncomingMessage) => ({
  'Access-Control-Allow-Origin': req.headers.origin ?? '*',
  'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
  'Access-Control-Expose-Headers': '*',
});

/** Writes the answer; if that fails, a 500 problem when nothing was sent yet, else the connection is closed. */
function write(req: IncomingMessage, res: ServerResponse, answer: Answer, path: string): number {
  const headers: Record<string, string> = { ...cors(req), ...answer.headers };
  const requestId = (answer.body as { request_id?: unknown } | undefined)?.request_id;
  if (typeof requestId === 'string') headers['X-Request-Id'] = requestId;
  // A body too large to drop whole is still arriving: the connection cannot serve another request.
  if (!req.complete) headers.Connection = 'close';
  const text =
    answer.body === undefined || typeof answer.body === 'string' || Buffer.isBuffer(answer.body)
      ? (answer.body ?? '')
      : JSON.stringify(answer.body);
  try {
    // String(): some of Prism's example headers are numbers (Retry-After).
    res.writeHead(
      answer.status,
      Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, asciiOnly(String(value))])),
    );
    if (answer.stream) answer.stream(res);
    else res.end(text);
    return answer.status;
  } catch (error) {
    try {
      if (res.headersSent) throw error;
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      const failed = problem(
        'internal_error',
        `The sandbox could not write its answer: ${(error as Error).message}`,
        path,
      );
      res.writeHead(500, { 'Content-Type': 'application/problem+json', 'X-Request-Id': failed.request_id });
      res.end(JSON.stringify(failed));
      return 500;
    } catch {
      res.destroy();
      return 500;
    }
  }
}

/** What became of a request, from its answer: Prism's verdict when it got that far, the problem answered if any. */
function outcomeOf(answer: Answer, status: number): RequestOutcome {
  const body = answer.body as { code?: unknown; detail?: unknown; errors?: FieldError[] } | undefined;
  const isProblem = status >= 400 && typeof body?.code === 'string' && typeof body.detail === 'string';
  return {
    ...(answer.judged ? { violations: answer.judged.violations } : {}),
    ...(answer.judged?.example ? { example: answer.judged.example } : {}),
    ...(isProblem
      ? {
          problem: {
            code: body.code as string,
            detail: body.detail as string,
            ...(body.errors ? { errors: body.errors } : {}),
          },
        }
      : {}),
  };
}

/** `headers` but for `name`, in any case. */
const withoutHeader = (headers: Answer['headers'], name: string) =>
  Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));

/**
 * The hosts a stateful sandbox's webhooks may call beside public ones, unless told otherwise: this machine's
 * loopback, where a developer's receiver runs (docs/sandbox.md, "Webhooks"). Private and link-local addresses
 * (169.254.169.254) stay refused, as on a deployment.
 */
export const defaultWebhookAllowHosts: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/** The stateful sandbox's own path, outside the contract (docs/sandbox.md). */
export const resetPath = '/sandbox/reset';

/** How many of a path's segments are parameters. */
const templated = (path: string) => path.split('/').filter((segment) => segment.startsWith('{')).length;

const notFound = (path: string) =>
  problemAnswer(problem('not_found', `No operation at ${path}; see openapi.yaml.`, path));

/** The request's headers for Prism, but for those it is not shown. */
function prismHeaders(req: IncomingMessage): Record<string, string> {
  const shown = Object.entries(req.headers).filter(([name]) => !hidden.has(name));
  return Object.fromEntries(
    shown.map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { operations, mock } = await createMock(options.contractPath);
  const useCases = createUseCaseCheck(operations);
  const state = options.stateless
    ? undefined
    : createState({ seed: options.seed, speed: options.speed, limits: options.limits });
  // One seed for the state and the scenarios' draws, so that a printed seed repeats both.
  const seed = state?.seed ?? options.seed;
  const scenarios = createScenarios({ ...options, ...(seed === undefined ? {} : { seed }) });
  const streams = createStreams(options.keepAliveMs);
  const allowHosts = parseAllowHosts((options.webhookAllowHosts ?? defaultWebhookAllowHosts).join(','));
  const sender = state && createWebhookSender(state, allowHosts);
  const handlers = state ? stateHandlers(operations, streams, { sender: sender!, allowHosts }) : {};
  // Worked out once, as the server does; a contract whose deprecation members are wrong stops the start.
  const notices = new Map(
    operations.flatMap((op) => {
      const headers = deprecationNotice({ deprecated: op.deprecated, ...op.extensions }, op.iid ?? op.path);
      return headers ? [[op, headers] as const] : [];
    }),
  );

  /** The operation a request reaches, or the 404 or 405 answer of a path or method the contract lacks. */
  function route(method: string, path: string): Operation | Answer {
    const allowed = allowedMethods(operations, path);
    if (!allowed.length) return notFound(path);
    if (!allowed.includes(method)) {
      const detail = `${method} is not supported on ${path}; use ${allowed.join(', ')}.`;
      return problemAnswer(problem('method_not_allowed', detail, path), { Allow: allowed.join(', ') });
    }
    // A concrete path (/problem/qubo) is matched before a templated one (/problem/{problem_id}), as the server does.
    return operations
      .filter((op) => op.method === method.toLowerCase() && allowedMethods([op], path).length)
      .sort((a, b) => templated(a.path) - templated(b.path))[0]!;
  }

  async function answer(
    req: IncomingMessage,
    url: URL,
    operation: Operation,
    prefer: Preferences,
    signal: AbortSignal,
  ): Promise<Answer> {
    const path = url.pathname;
    let headers = prismHeaders(req);
    let user: User | undefined;
    if (operation.security?.length) {
      const bearer = bearerToken(req.headers.authorization, path);
      if (!('token' in bearer)) return early(req, bearer);
      if (state) {
        user = state.authenticate(bearer.token);
        if (!user) return early(req, unknownToken(path));
      }
      // Prism is shown the token in the one form it accepts.
      headers.authorization = `Bearer ${bearer.token}`;
    }
    const unknownUseCase = useCases.inPath(operation, path);
    if (unknownUseCase) return early(req, unknownUseCase);
    let body: unknown;
    let fields: Record<string, string> | undefined;
    let raw: Buffer | undefined;
    let file: Buffer | undefined;
    if (operation.request?.body) {
      const taken = await takeBody(req, operation, path);
      if ('refused' in taken) return taken.refused;
      ({ body, fields, raw, file } = taken);
      headers = { ...headers, ...taken.headers };
    } else {
      // An operation without a request body ignores one, as the reference server does.
      await drain(req);
    }
    const problems = parameterProblems(operation, path, url.searchParams, req.rawHeaders);
    if (problems.length) return invalidRequest(path, problems);
    const answer = await mock({
      operation,
      path,
      query: url.searchParams,
      headers,
      body,
      // Stateful, the state answers: Prism only judges the request (Prefer: code=…, example=… choose nothing).
      prefer: state ? { unreadable: [] } : prefer,
    });
    const judged = fields
      ? useCases.inAnswer(answer, path, fields.problem_id, '/problem_id')
      : useCases.inAnswer(answer, path, url.searchParams.get('problem_id'), '/query/problem_id');
    const handler = operation.iid === undefined ? undefined : handlers[operation.iid];
    if (!state) {
      const after = resumeAfter(
        req.headers['last-event-id'] as string | undefined,
        url.searchParams.get('last_event_id') ?? undefined,
      );
      return exampleStream(streams, judged, after) ?? judged;
    }
    if (!handler || judged.status >= 300) return judged;
    const params = pathParams(operation.path, path);
    const request = { state, operation, path, params, query: url.searchParams, headers: req.headers };
    const own = await handler({ ...request, body, raw, fields, file, user, signal });
    return { ...own, ...(judged.judged ? { judged: { violations: judged.judged.violations } } : {}) };
  }

  /** POST /sandbox/reset, outside the contract: forgets every user, job and data file, and restarts the seed. */
  function reset(req: IncomingMessage, path: string): Promise<Answer> {
    if (req.method !== 'POST') {
      const detail = `${req.method} is not supported on ${path}; use POST.`;
      return early(req, problemAnswer(problem('method_not_allowed', detail, path), { Allow: 'POST' }));
    }
    state!.reset();
    return early(req, noContent());
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req.url);
    const path = url?.pathname ?? String(req.url);
    let result: Answer;
    let notice: Record<string, string> | undefined;
    try {
      if (!url) result = await early(req, notFound(path));
      // Node is told not to refuse a missing Host itself (its answer was an empty 400): refused here, as a problem.
      else if (req.httpVersion !== '1.0' && req.headers.host === undefined)
        result = await early(req, invalidRequest(path, [{ pointer: '/header/host', detail: 'is required' }]));
      else if (req.method === 'OPTIONS' && req.headers.origin && req.headers['access-control-request-method']) {
        const methods = allowedMethods(operations, path).join(', ') || 'GET';
        result = await early(req, {
          status: 204,
          headers: { 'Access-Control-Allow-Methods': methods },
          body: undefined,
        });
      } else if (state && url.pathname === resetPath) result = await reset(req, path);
      else {
        const routed = route(req.method ?? 'GET', url.pathname);
        if ('status' in routed) result = await early(req, routed);
        else {
          notice = notices.get(routed);
          // Prefer is read once: the scenarios take what is theirs (scenarios.ts), Prism the code and example.
          const prefer = preferences([req.headers.prefer].flat().join(', '));
          const client = req.headers.authorization ?? req.socket.remoteAddress ?? '';
          // Aborted only for a client that leaves before its answer (a long poll then stops waiting): aborting on
          // every close made an exception object per request for nobody.
          const gone = new AbortController();
          res.once('close', () => {
            if (!res.writableFinished) gone.abort();
          });
          const staged = await scenarios.stage(req, routed, path, prefer, client, () =>
            answer(req, url, routed, prefer, gone.signal),
          );
          if (staged === 'dropped') return dropConnection(req, path);
          result = staged;
        }
      }
    } catch (error) {
      // A client that went away before the end of its body has nobody left to answer.
      if (req.destroyed && !req.complete) return;
      result = problemAnswer(problem('internal_error', `The sandbox failed: ${(error as Error).message}`, path));
    }
    // Prism marks a deprecated operation's answers `deprecation: true`, the form of the drafts before RFC 9745:
    // the notice replaces it.
    if (notice) result = { ...result, headers: { ...withoutHeader(result.headers, 'deprecation'), ...notice } };
    const status = write(req, res, result, path);
    try {
      options.onResponse?.(req.method ?? 'GET', path, status, outcomeOf(result, status));
    } catch {
      // A log line that fails is no reason to fail the request, which is answered already.
    }
  }

  /** A dropped connection (a scenario): the socket goes without an answer. */
  function dropConnection(req: IncomingMessage, path: string): void {
    req.socket.destroy();
    try {
      options.onResponse?.(req.method ?? 'GET', path, 0, { dropped: true });
    } catch {
      // As for any log line.
    }
  }

  const server = createServer(
    { requireHostHeader: false },
    (req, res) => void handle(req, res).catch(() => res.destroy()),
  );
  answerClientErrors(server, 'the sandbox');
  const listened = await listening(server, options);
  return {
    ...listened,
    close: () => {
      sender?.stop();
      return listened.close();
    },
    seed: state?.seed,
  };
}
