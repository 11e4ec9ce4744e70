// What every response must be, whatever was sent: no 5xx; a status the contract documents for the operation
// (or its conventions: 404 `not_found` for a path without operations, 405 `method_not_allowed` for a method
// the path lacks); every non-2xx an RFC 9457 problem with a code the contract lists for that response and
// the request id of its header; and what the conformance suite's response checks ask of every response.
import type { Contract } from '../../conformance/src/contract/contract.ts';
import { findOperation, isSecured, matchesTemplate, type Operation } from '../../conformance/src/contract/document.ts';
import { contentTypeViolations, headerViolations, schemaViolations } from '../../conformance/src/contract/responses.ts';
import { eventsAsJson, isEventStream, parseEventStream } from '../../conformance/src/event-stream.ts';
import type { Exchange } from '../../conformance/src/types.ts';
import type { WireResponse } from './wire.ts';

/**
 * The problem codes allowed for a status when the request reaches no operation. Routing comes first (the
 * contract's order of checks), so such a request answers 404 or 405 whatever its token and however many
 * requests came before it: never 401 or 429.
 */
function conventions(contract: Contract, path: string): Record<number, string[]> {
  const known = contract.operations.some((op) => matchesTemplate(op.path, path));
  // A request line that is not well-formed (raw bytes past ASCII, escapes that are not UTF-8) cannot be
  // routed at all: refusing it as invalid is fair too.
  const first = wellFormed(path) ? {} : { 400: ['invalid_request'] };
  return known ? { 405: ['method_not_allowed'], ...first } : { 404: ['not_found'], ...first };
}

/**
 * Outside the contract on purpose, with their answer to GET: the contract, its rendered reference (/docs redirects),
 * the metrics (open unless JES_METRICS_TOKEN is set).
 */
const outsideTheContract = new Map([
  ['/openapi.yaml', 200],
  ['/metrics', 200],
  ['/docs', 301],
  ['/docs/', 200],
]);

function wellFormed(path: string): boolean {
  try {
    decodeURIComponent(path);
    return /^[\x21-\x7e]*$/.test(path);
  } catch {
    return false;
  }
}

export interface Verdict {
  operation: Operation | undefined;
  /** Everything wrong with the response (empty when it is right). */
  problems: string[];
}

const mediaType = (headers: Record<string, string>) =>
  (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The problems of a non-2xx body against RFC 9457 and the contract's `code` list for the response. */
function problemViolations(response: WireResponse, json: unknown, codes: string[]): string[] {
  if (mediaType(response.headers) !== 'application/problem+json')
    return [`a ${response.status} is not a problem: Content-Type is "${response.headers['content-type'] ?? '(none)'}"`];
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    return [
      `a ${response.status} problem whose body is not a JSON object: ${JSON.stringify(response.body.toString('utf8').slice(0, 120))}`,
    ];
  }
  const body = json as Record<string, unknown>;
  const problems: string[] = [];
  for (const member of ['type', 'title', 'detail', 'code'] as const) {
    if (typeof body[member] !== 'string') problems.push(`the problem has no string "${member}"`);
  }
  if (body.status !== response.status)
    problems.push(`the problem's status is ${JSON.stringify(body.status)}, the response's ${response.status}`);
  if (typeof body.code === 'string' && !codes.includes(body.code))
    problems.push(
      `code "${body.code}" is not one the contract lists for this ${response.status} (${codes.join(', ') || 'none'})`,
    );
  const requestId = response.headers['x-request-id'];
  if (requestId === undefined) problems.push('no X-Request-Id header');
  else if (body.request_id !== requestId)
    problems.push(`request_id ${JSON.stringify(body.request_id)} is not the X-Request-Id header "${requestId}"`);
  return problems;
}

/**
 * Node's own answer to a request it refuses before the application sees it: a parse error (`HTTP/1.1 400 Bad
 * Request`, `Connection: close`) or an HTTP/1.1 request without Host (an empty 400): no body, no request id.
 */
function answeredByNode(response: WireResponse): boolean {
  return (
    response.status >= 400 &&
    response.body.length === 0 &&
    !response.headers['x-request-id'] &&
    !response.headers['content-type']
  );
}

/**
 * Judges one response to `method target`. A path with dot segments (`/job/X/../../healthz`) may be taken as
 * sent or resolved as a URL resolves it; either reading passes.
 */
export function judge(contract: Contract, method: string, target: string, response: WireResponse): Verdict {
  // An absolute-form target (`GET http://host/job`) names the path of its URL (RFC 9112, 3.2.2).
  const path = /^https?:\/\//i.test(target) ? (URL.parse(target)?.pathname ?? target) : target.split('?')[0]!;
  const resolved = /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)
    ? (URL.parse(`http://target${path}`)?.pathname ?? path)
    : path;
  const verdict = judgePath(contract, method, path, response);
  if (resolved === path || !verdict.problems.length) return verdict;
  const other = judgePath(contract, method, resolved, response);
  return other.problems.length ? verdict : other;
}

function judgePath(contract: Contract, method: string, path: string, response: WireResponse): Verdict {
  const operation = findOperation(contract.doc, method, path);
  const problems: string[] = [];
  if (answeredByNode(response)) {
    const what = `a bare ${response.status}: no body, no X-Request-Id`;
    return {
      operation,
      problems: [
        `Node's HTTP server answered the request itself (${what}); the application never saw it (a malformed request, or HTTP/1.1 without Host)`,
      ],
    };
  }
  if (response.status >= 500) problems.push(`a server error: ${response.status}`);
  const documented = operation ? Object.keys(operation.operation.responses ?? {}).map(Number) : [];
  const byConvention = operation ? {} : conventions(contract, path);
  const secured = operation ? isSecured(contract.doc, operation) : false;
  // Authentication answers before anything else for a secured operation.
  const allowed = operation ? documented : Object.keys(byConvention).map(Number);
  // Outside the contract on purpose: the reference server serves the contract itself and its rendered reference.
  const outside = !operation && ['GET', 'HEAD'].includes(method) ? outsideTheContract.get(path) : undefined;
  if (outside !== undefined) allowed.push(outside);
  if (!allowed.includes(response.status) && !(response.status === 401 && secured)) {
    const where = operation?.label ?? (byConvention[405] ? 'a method the path lacks' : 'a path without operations');
    problems.push(`status ${response.status} is not documented for ${where} (${allowed.join(', ')})`);
  }
  const head = method === 'HEAD';
  // An event stream (read to its first frames: it does not end by itself) as the contract's schema of one describes it.
  const json = head
    ? undefined
    : isEventStream(response.headers)
      ? eventsAsJson(parseEventStream(response.body.toString('utf8')))
      : parseJson(response.body);
  if (response.status >= 300 && !head && response.status !== outside) {
    const codes = operation
      ? contract.problemCodes(operation.operation.operationId, response.status)
      : (byConvention[response.status] ?? []);
    problems.push(...problemViolations(response, json, codes));
  }
  if (!head && response.status !== outside) {
    // The conformance suite's own response checks (headers, media types, schemas), on an Exchange of ours.
    const exchange: Exchange = {
      check: 'fuzz',
      operationId: operation?.operation.operationId,
      request: { method, url: `http://target${path.startsWith('/') ? path : `/${path}`}`, headers: {} },
      response: {
        status: response.status,
        headers: response.headers,
        text: response.body.toString('utf8'),
        ...(json !== undefined ? { json } : {}),
        ms: response.ms,
      },
    };
    for (const found of [
      ...contentTypeViolations(contract, exchange),
      ...headerViolations(contract, exchange),
      ...schemaViolations(contract, exchange),
    ]) {
      if (!problems.some((p) => p.includes(found))) problems.push(found);
    }
  }
  return { operation, problems };
}
