// What the sandbox adds to Prism's answers so that they keep the contract's conventions: every error is a
// problem with a documented `code` (a path without an operation is `not_found`, a method the path lacks is
// `method_not_allowed` with `Allow`, a body that is not JSON is `malformed_json`), a request that breaks the
// contract is a `400 invalid_request` whose `errors` point at each mismatch (Prism prefers a 422, which this
// contract keeps for inputs that parse but are wrong for the use case), and `X-Request-Id` is the problem's
// `request_id`. The codes and titles are the contract's (`Problem`) and the reference server's.
import { randomUUID } from 'node:crypto';

export interface FieldError {
  pointer: string;
  detail: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
  max_bytes?: number;
}

const titles = {
  malformed_json: [400, 'Malformed JSON'],
  invalid_request: [400, 'Invalid request'],
  missing_token: [401, 'Missing token'],
  invalid_token: [401, 'Invalid token'],
  not_found: [404, 'Not found'],
  problem_not_found: [404, 'Use case not found'],
  method_not_allowed: [405, 'Method not allowed'],
  request_timeout: [408, 'Request timeout'],
  payload_too_large: [413, 'Payload too large'],
  unsupported_media_type: [415, 'Unsupported media type'],
  headers_too_large: [431, 'Request headers too large'],
  internal_error: [500, 'Internal error'],
} as const satisfies Record<string, readonly [number, string]>;

/** What the sandbox answers: a status, its headers and a body (serialised as JSON unless it is a string). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Prism's verdict on the request, when it reached Prism (for the request log): its mismatches, the example answered. */
  judged?: { violations: FieldError[]; example?: string };
}

/** A header value as node will write it (it throws past Latin-1): anything but printable ASCII becomes \uXXXX. */
export const asciiOnly = (value: string): string =>
  value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A request id as the reference server makes them: a random UUID. */
export const requestId = (): string => randomUUID();

const percentEncoded = (c: string) =>
  [...Buffer.from(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const notInUri = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g;

/** A request path as the URI reference `instance` must be: a stray '%' and what a URI cannot hold (`|`, `[`) escaped. */
const uriReference = (path: string): string => path.replace(notInUri, percentEncoded);

export function problem(code: keyof typeof titles, detail: string, path: string, errors?: FieldError[]): Problem {
  const [status, title] = titles[code];
  const instance = uriReference(path);
  const request_id = requestId();
  return {
    type: `urn:jes:problem:${code}`,
    title,
    status,
    detail,
    instance,
    code,
    request_id,
    ...(errors ? { errors } : {}),
  };
}

export const problemAnswer = (p: Problem, headers: Record<string, string> = {}): Answer => ({
  status: p.status,
  headers: { 'Content-Type': 'application/problem+json', ...headers },
  body: p,
});

/** A request that breaks the contract, with a pointer to each mismatch. */
export const invalidRequest = (instance: string, errors: FieldError[]): Answer =>
  problemAnswer(problem('invalid_request', 'The request does not match the API contract.', instance, errors));

/** A member name or index as one token of a JSON pointer (RFC 6901). */
export const pointerToken = (key: string | number): string => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

/** A Prism violation's path (`['query', 'limit']`, `['body', 'adj_matrix', '0']`) as the contract's pointer. */
export function pointer(path: readonly (string | number)[]): string {
  const [where, ...rest] = path.map(pointerToken);
  const tail = rest.length ? `/${rest.join('/')}` : '';
  if (where === 'body') return tail || '/';
  return `/${where === 'headers' ? 'header' : (where ?? '')}${tail}`;
}

/**
 * `Prefer: code=404, example=pending` as Prism's per-request mock settings. Prism's `dynamic=true` is not passed
 * on: its generated bodies need not match the contract, and the sandbox answers with the contract's examples only.
 */
export function preferences(prefer: string | undefined): { code?: number; exampleKey?: string } {
  const result: { code?: number; exampleKey?: string } = {};
  for (const part of (prefer ?? '').split(/[,;]/)) {
    const match = /^\s*([a-z]+)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'code' && /^\d{3}$/.test(value)) result.code = Number(value);
    if (key === 'example') result.exampleKey = value;
  }
  return result;
}

/** The methods the contract documents for `path` (upper case), empty when no path template matches. */
export function allowedMethods(operations: readonly { method: string; path: string }[], path: string): string[] {
  const matches = (template: string) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
  return [...new Set(operations.filter((op) => matches(op.path)).map((op) => op.method.toUpperCase()))];
}
