// What a state handler is given and answers: the request once the sandbox's pipeline and Prism have accepted it.
import type { IncomingHttpHeaders } from 'node:http';
import { type ErrorCode, type FieldError, idempotencyKeyOf } from '@jes/contract';
import { type Answer, problem, problemAnswer, requestId } from '../conventions.ts';
import type { Operation } from '../mock.ts';
import type { State, User } from './store.ts';

export interface StateRequest {
  state: State;
  operation: Operation;
  path: string;
  /** The path's parameters, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body as Prism judged it (JSON parsed), and its decoded bytes. */
  body: unknown;
  raw: Buffer | undefined;
  /** A form's text parts and its file. */
  fields: Record<string, string> | undefined;
  file: Buffer | undefined;
  /** The token's user; undefined only for login. */
  user: User | undefined;
  /** The bearer token it came with (a stream ends when it expires); undefined only for login. */
  token: string | undefined;
  /** Aborted when the client goes away (a long poll stops waiting). */
  signal: AbortSignal;
}

export type Handler = (request: StateRequest) => Answer | Promise<Answer>;

/** An answer that is not a problem, with its X-Request-Id (a problem's is its `request_id`). */
export const answer = (status: number, headers: Record<string, string>, body: unknown): Answer => ({
  status,
  headers: { 'X-Request-Id': requestId(), ...headers },
  body,
});

/** A 204, with its X-Request-Id. */
export const noContent = (): Answer => answer(204, {}, undefined);

/** A JSON answer. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  answer(status, { 'Content-Type': 'application/json', ...headers }, body);

/** A problem answer with the request's path. */
export const refusal = (
  request: StateRequest,
  code: ErrorCode,
  detail: string,
  members: { errors?: FieldError[]; retryAfter?: number; extra?: Record<string, number> } = {},
): Answer => {
  const body = { ...problem(code, detail, request.path, members.errors), ...members.extra };
  return problemAnswer(body, members.retryAfter === undefined ? {} : { 'Retry-After': String(members.retryAfter) });
};

/** The path's parameters of `template` in `path`, decoded. */
export function pathParams(template: string, path: string): Record<string, string> {
  const segments = path.split('/');
  const params: Record<string, string> = {};
  template.split('/').forEach((part, i) => {
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name) params[name] = decodeURIComponent(segments[i] ?? '');
  });
  return params;
}

/** A first attempt's answer again, for a retry under its Idempotency-Key: marked, with this request's own id. */
export const replay = (first: Answer): Answer => ({
  ...first,
  headers: { ...first.headers, 'X-Request-Id': requestId(), 'Idempotent-Replayed': 'true' },
});

/**
 * The request's Idempotency-Key (undefined without one), and the answer it already has: the first attempt's again
 * when `print` matches it, 422 idempotency_key_reused when another request used the key within the day.
 */
export function idempotency(
  state: State,
  user: User,
  request: StateRequest,
  print: string,
): { key: string | undefined; answered?: Answer } {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? idempotencyKeyOf(header) : undefined;
  const kept = key === undefined ? undefined : state.remembered(user, key);
  if (!kept) return { key };
  if (kept.fingerprint === print) return { key, answered: replay(kept.answer) };
  const detail = `Idempotency-Key "${key}" was used for a different request within the last 24 hours; send this one with a new key.`;
  return { key, answered: refusal(request, 'idempotency_key_reused', detail) };
}
