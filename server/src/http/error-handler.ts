// The one error handler: our problems, express-openapi-validator's errors and body-parser's errors all
// become RFC 9457 problems from the catalogue, with request_id (and trace_id when tracing is on), instance and the
// headers that go with them.
// A database failure worth another try (a dropped connection, a lock conflict) is answered 503 with
// Retry-After. Nothing else reaches the client: an unexpected error is logged and answered as internal_error.
import { uriReference } from '@jes/contract';
import { startJobBodyErrors, startsJob } from '@jes/contract/node';
import type { NextFunction, Request, Response } from 'express';
import { useCases } from '../use-cases.ts';
import { isTransient } from '../store/transient.ts';
import { noSuchUseCase } from './known-use-case.ts';
import { unsupportedMediaType } from './media-types.ts';
import { ApiError, errorBody, type FieldError, type ErrorCode } from '../core/api-error.ts';
import { isDiskFull } from '../store/disk-space.ts';
import { noRoom } from './disk-room.ts';

/** Seconds a client is asked to wait after a transient database failure: pg reconnects at the next query. */
const transientRetrySeconds = 1;

interface ValidatorError {
  status: number;
  message: string;
  path?: string;
  errors?: { path: string; message: string }[];
  headers?: Record<string, string>;
}

/** An http-errors error that blames the request (body-parser's), other than those mapped by their `type`. */
const isClientError = (e: unknown): e is Error & { status: number } =>
  e instanceof Error &&
  (e as { expose?: unknown }).expose === true &&
  [400, 415].includes((e as { status?: unknown }).status as number) &&
  !('errors' in e);

const isValidatorError = (e: unknown): e is ValidatorError =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as ValidatorError).status === 'number' &&
  Array.isArray((e as ValidatorError).errors);

const partsOf = (path: string) => path.replace(/^\./, '').split(/[./]/).filter(Boolean);

/** express-openapi-validator's `/body/adj_matrix/0` or `.query.limit` as a pointer into the request. */
function pointer(path: string): string {
  const parts = partsOf(path);
  const [where, ...rest] = parts;
  const tail = rest.map((p) => p.replaceAll('~', '~0')).join('/');
  if (where === 'body') return `/${tail}`;
  const location = { query: 'query', params: 'path', headers: 'header', cookies: 'cookie' }[where ?? ''] ?? where;
  return `/${location}${tail ? `/${tail}` : ''}`;
}

function isJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

interface MatchedOperation {
  operationId?: string;
  requestBody?: { content?: Record<string, unknown> };
}

/** The contract's operation the request was matched to by the validator (it sets `req.openapi` first). */
const operation = (req: Request): MatchedOperation | undefined =>
  (req as Request & { openapi?: { schema?: MatchedOperation } }).openapi?.schema;
const operationId = (req: Request): string | undefined => operation(req)?.operationId;

function toProblem(error: unknown, req: Request): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.too.large') {
    const limit = (error as { limit: number }).limit + 1;
    const hint = req.path === '/login' ? '' : '; upload larger inputs with POST /data_file';
    return new ApiError('payload_too_large', `The body must be smaller than ${limit} bytes${hint}.`, {
      max_bytes: limit,
    });
  }
  if (type === 'entity.parse.failed') {
    // body-parser refuses JSON that is not an object or array (42, "text", null) the same way as broken
    // JSON; such a body is valid JSON of the wrong shape.
    if (isJson((error as { body?: unknown }).body))
      return new ApiError('invalid_request', 'The request does not match the API contract.', {
        errors: [{ pointer: '/', detail: 'must be object' }],
      });
    return new ApiError('malformed_json', `The body is not valid JSON (${(error as Error).message}).`);
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported')
    return new ApiError('unsupported_media_type', (error as Error).message);
  if (isClientError(error)) {
    // body-parser's other refusals (a compressed body that does not decompress, an aborted or short body).
    const encoding = req.get('content-encoding');
    const detail = `The body cannot be read${encoding ? ` (Content-Encoding: ${encoding})` : ''}: ${error.message}.`;
    return new ApiError(error.status === 415 ? 'unsupported_media_type' : 'invalid_request', detail);
  }
  if (!isValidatorError(error)) return undefined;
  // A refused startJob body is explained by the shape it meant alone (@jes/contract's start-job-body.ts), beside the other errors.
  const raw = error.errors ?? [];
  const inBody = (e: { path: string }) => partsOf(e.path)[0] === 'body';
  const id = operationId(req);
  const meant = startsJob(id) && raw.some(inBody) ? startJobBodyErrors(id!, req.body) : [];
  const found: FieldError[] = [
    ...(meant.length ? raw.filter((e) => !inBody(e)) : raw).map((e) => ({
      pointer: pointer(e.path),
      detail: e.message,
    })),
    ...meant,
  ];
  // Deepest first: the entry that is wrong (say /solvers/0/params/seed) says more than a missing member.
  const depth = (p: string) => p.split('/').length;
  const errors = found.sort((a, b) => depth(b.pointer) - depth(a.pointer)).slice(0, 20);
  const byStatus: Record<number, ErrorCode> = {
    400: 'invalid_request',
    404: 'not_found',
    405: 'method_not_allowed',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
  };
  const code = byStatus[error.status];
  if (!code) return undefined;
  if (code === 'method_not_allowed') {
    const allow = error.headers?.Allow ?? '';
    return new ApiError(code, `${req.method} is not supported on ${req.path}; use ${allow}.`, {
      headers: { Allow: allow },
    });
  }
  if (code === 'not_found') return new ApiError(code, `No operation at ${req.path}; see GET /openapi.yaml.`);
  if (code === 'unsupported_media_type') {
    const accepted = Object.keys(operation(req)?.requestBody?.content ?? {});
    if (accepted.length) return new ApiError(code, unsupportedMediaType(accepted, req.get('content-type')));
    return new ApiError(
      code,
      `This operation does not accept ${req.get('content-type') ?? 'a body without Content-Type'}.`,
    );
  }
  return new ApiError(code, `The request does not match the API contract.${useCaseHint(req, errors)}`, { errors });
}

/**
 * Where a use-case id is refused for its shape (an upload's `problem_id`, a listing's filter with a capital letter), the ids
 * there are, as a path's unknown id is told (known-use-case.ts).
 */
function useCaseHint(req: Request, errors: FieldError[]): string {
  const field = operationId(req) === 'uploadDataFile' ? '/problem_id' : undefined;
  const where = errors.find((e) => e.pointer === field || e.pointer === '/query/problem_id')?.pointer;
  const value: unknown =
    where === '/problem_id'
      ? (req.body as { problem_id?: unknown } | undefined)?.problem_id
      : where
        ? req.query.problem_id
        : undefined;
  return typeof value === 'string' && !useCases.has(value) ? ` ${noSuchUseCase(value)}` : '';
}

/** How long the rest of a refused request's body may take to arrive once the refusal is sent. */
const drainSeconds = 5;

/**
 * A refusal that comes before the body has all arrived: Node reads the rest of the body (and drops it), so that the
 * client, once it has sent it, reads the answer (closing at once made fetch fail with EPIPE instead of showing a
 * 413); but only for a few seconds, then the connection is cut: a client trickling a byte every 2 s after its 401
 * kept its connection for minutes (issue 27).
 */
function cutIfBodyLingers(req: Request, res: Response): void {
  res.once('finish', () => {
    if (req.complete) return;
    const cut = setTimeout(() => req.socket.destroy(), drainSeconds * 1000);
    req.once('end', () => clearTimeout(cut)).once('close', () => clearTimeout(cut));
  });
}

export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  let problem = toProblem(error, req);
  if (!problem && isDiskFull(error)) {
    req.log?.warn({ err: error }, 'the disk is full; answered 507');
    problem = noRoom(undefined);
  }
  if (!problem && isTransient(error)) {
    req.log?.warn({ err: error }, 'the database failed for a moment; answered 503');
    problem = new ApiError('service_unavailable', 'The database is unavailable for a moment; try again.', {
      headers: { 'Retry-After': String(transientRetrySeconds) },
    });
  }
  if (!problem) {
    req.log?.error({ err: error }, 'unexpected error');
    problem = new ApiError('internal_error', 'An unexpected error occurred; quote the request id when reporting it.');
  }
  if (res.headersSent) return void res.end();
  if (!req.complete) cutIfBodyLingers(req, res);
  const body = {
    ...errorBody(problem.code, problem.message, problem.extras),
    instance: uriReference(req.originalUrl.split('?')[0]!),
    request_id: req.id,
    ...(req.traceId ? { trace_id: req.traceId } : {}),
  };
  res
    .status(problem.status)
    .set(problem.extras.headers ?? {})
    .set(
      problem.extras.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(problem.extras.retryAfterSeconds) },
    )
    .type('application/problem+json')
    .send(JSON.stringify(body));
}
