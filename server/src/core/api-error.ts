// The server's side of the error catalogue (@jes/contract holds the codes, statuses and titles): the exception its
// handlers throw, with the response headers that go with it, which the one error handler turns into a response.
import { catalogue, type ErrorCode, type ErrorMembers } from '@jes/contract';

export { type FieldError, errorBody, type ErrorBody, type ErrorCode } from '@jes/contract';

export interface ErrorExtras extends ErrorMembers {
  /** Response headers that go with it (Allow, WWW-Authenticate), set by the HTTP floor's own throws. */
  headers?: Record<string, string>;
  /** Seconds after which the same request may succeed: the error handler sends them as Retry-After. */
  retryAfterSeconds?: number;
}

/** A problem to answer with: thrown by handlers, turned into a response by the error handler. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly extras: ErrorExtras;

  constructor(code: ErrorCode, detail: string, extras: ErrorExtras = {}) {
    super(detail);
    this.code = code;
    this.extras = extras;
  }

  get status(): number {
    return catalogue[this.code][0];
  }
}
