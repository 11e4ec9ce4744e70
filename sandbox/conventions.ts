// What the sandbox adds to Prism's answers so that they keep the contract's conventions: every error is a
// problem with a documented `code` (a path without an operation is `not_found`, a method the path lacks is
// `method_not_allowed` with `Allow`, a body that is not JSON is `malformed_json`), a request that breaks the
// contract is a `400 invalid_request` whose `errors` point at each mismatch (Prism prefers a 422, which this
// contract keeps for inputs that parse but are wrong for the use case), and `X-Request-Id` is the problem's
// `request_id`.
import { randomBytes } from 'node:crypto';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  request_id: string;
  errors?: { pointer: string; detail: string }[];
  max_bytes?: number;
}

const titles: Record<string, [number, string]> = {
  malformed_json: [400, 'Malformed JSON'],
  invalid_request: [400, 'Invalid request'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  payload_too_large: [413, 'Payload too large'],
  internal_error: [500, 'Internal error'],
};

/** A request id in the shape of the contract's examples: a ULID (time, then randomness, in Crockford base 32). */
export function requestId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = Date.now();
  let id = '';
  for (let i = 0; i < 10; i++, time = Math.floor(time / 32)) id = alphabet[time % 32] + id;
  for (const byte of randomBytes(16)) id += alphabet[byte % 32];
  return id;
}

export function problem(code: keyof typeof titles, detail: string, instance: string, errors?: Problem['errors']): Problem {
  const [status, title] = titles[code]!;
  return { type: `urn:jes:problem:${code}`, title, status, detail, instance, code, request_id: requestId(), ...(errors ? { errors } : {}) };
}

/** A Prism violation's path (`['query', 'limit']`, `['body', 'adj_matrix', '0']`) as the contract's pointer. */
export function pointer(path: readonly (string | number)[]): string {
  const [where, ...rest] = path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1'));
  const tail = rest.length ? `/${rest.join('/')}` : '';
  if (where === 'body') return tail || '/';
  return `/${where === 'headers' ? 'header' : (where ?? '')}${tail}`;
}

/** `Prefer: code=404, example=pending` as Prism's per-request mock settings. */
export function preferences(prefer: string | undefined): { code?: number; exampleKey?: string; dynamic?: boolean } {
  const result: { code?: number; exampleKey?: string; dynamic?: boolean } = {};
  for (const part of (prefer ?? '').split(/[,;]/)) {
    const match = /^\s*([a-z]+)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'code' && /^\d{3}$/.test(value)) result.code = Number(value);
    if (key === 'example') result.exampleKey = value;
    if (key === 'dynamic') result.dynamic = value === 'true';
  }
  return result;
}

/** The methods the contract documents for `path` (upper case), empty when no path template matches. */
export function allowedMethods(operations: readonly { method: string; path: string }[], path: string): string[] {
  const matches = (template: string) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
  return [...new Set(operations.filter((op) => matches(op.path)).map((op) => op.method.toUpperCase()))];
}
