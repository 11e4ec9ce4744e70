// What the sandbox adds to Prism's answers so that they keep the contract's conventions: every error is a
// problem with a documented `code` (a path without an operation is `not_found`, a method the path lacks is
// `method_not_allowed` with `Allow`, a body that is not JSON is `malformed_json`), a request that breaks the
// contract is a `400 invalid_request` whose `errors` point at each mismatch (Prism prefers a 422, which this
// contract keeps for inputs that parse but are wrong for the use case), and `X-Request-Id` is the problem's
// `request_id`. The codes and titles are the contract's error catalogue (@jes/contract), as the reference server's.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type FieldError, type ErrorBody, type ErrorCode, errorBody, uriReference } from '@jes/contract';
import { type Latency, parseLatency } from './durations.ts';

export type { FieldError } from '@jes/contract';

/** A problem as the sandbox answers it: always with the request's path and id. */
export interface Problem extends ErrorBody {
  instance: string;
  request_id: string;
}

/** What the sandbox answers: a status, its headers and a body (serialised as JSON unless it is a string). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Prism's verdict on the request, when it reached Prism (for the request log): its mismatches, the example answered. */
  judged?: { violations: FieldError[]; example?: string };
  /** An answer that stays open (an event stream): called once its head is written, it writes the rest. */
  stream?: (res: ServerResponse) => void;
}

/** A header value as node will write it (it throws past Latin-1): anything but printable ASCII becomes \uXXXX. */
export const asciiOnly = (value: string): string =>
  value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A request id as the reference server makes them: a random UUID. */
export const requestId = (): string => randomUUID();

export function problem(code: ErrorCode, detail: string, path: string, errors?: FieldError[]): Problem {
  const { type, title, status } = errorBody(code, detail);
  return {
    type,
    title,
    status,
    detail,
    instance: uriReference(path),
    code,
    request_id: requestId(),
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

/** The scenarios a request may ask for with `Prefer: scenario=…` (docs/sandbox.md, "Scenarios"). */
export const scenarioNames = ['rate-limited', 'service-unavailable', 'dropped-connection', 'solver-error'] as const;
export type ScenarioName = (typeof scenarioNames)[number];

/** What a request's `Prefer` header asks of the sandbox, read once per request. */
export interface Preferences {
  /** `code=404`: the documented answer of that status (Prism's per-request setting). */
  code?: number;
  /** `example=pending`: the documented example of that name (Prism's per-request setting). */
  exampleKey?: string;
  /** `latency=300ms` or `latency=100-400ms`: how long the answer waits. */
  latency?: Latency;
  /** `scenario=rate-limited`, …: a situation a client must handle (`solver-error` is for a stateful sandbox). */
  scenario?: ScenarioName;
  /** The preferences the sandbox knows but cannot honour as written (`latency=soon`, `scenario=flood`), each said. */
  unreadable: string[];
}

/**
 * `Prefer: code=404, example=pending, latency=300ms, scenario=rate-limited`. Prism's `dynamic=true` is not taken:
 * its generated bodies need not match the contract, and the sandbox answers with the contract's examples only.
 * Other preferences (`wait=N`, `respond-async`) are ignored, as RFC 7240 has it.
 */
export function preferences(prefer: string | undefined): Preferences {
  const result: Preferences = { unreadable: [] };
  for (const part of (prefer ?? '').split(/[,;]/)) {
    const match = /^\s*([a-z]+)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'code' && /^\d{3}$/.test(value)) result.code = Number(value);
    if (key === 'example') result.exampleKey = value;
    if (key === 'latency') {
      const latency = parseLatency(value);
      if (latency) result.latency = latency;
      else result.unreadable.push(`latency=${value} is not a duration such as 300ms or a range such as 100-400ms`);
    }
    if (key === 'scenario') {
      if ((scenarioNames as readonly string[]).includes(value)) result.scenario = value as ScenarioName;
      else result.unreadable.push(`scenario=${value} is not one of ${scenarioNames.join(', ')}`);
    }
  }
  return result;
}

/** The methods the contract documents for `path` (upper case), empty when no path template matches. */
export function allowedMethods(operations: readonly { method: string; path: string }[], path: string): string[] {
  const matches = (template: string) =>
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
  return [...new Set(operations.filter((op) => matches(op.path)).map((op) => op.method.toUpperCase()))];
}
