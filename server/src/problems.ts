// The server's side of the error catalogue (@jes/contract holds the codes, statuses and titles): the exception its
// handlers throw, with the response headers that go with it, which the one error handler turns into a response.
import { catalogue, type ProblemCode, type ProblemMembers } from '@jes/contract';

export { type FieldError, problemBody, type ProblemBody, type ProblemCode } from '@jes/contract';

export interface ProblemExtras extends ProblemMembers {
  /** Response headers that go with it (Allow, Retry-After, WWW-Authenticate). */
  headers?: Record<string, string>;
}

/** A problem to answer with: thrown by handlers, turned into a response by the error handler. */
export class HttpProblem extends Error {
  override name = 'HttpProblem';
  readonly code: ProblemCode;
  readonly extras: ProblemExtras;

  constructor(code: ProblemCode, detail: string, extras: ProblemExtras = {}) {
    super(detail);
    this.code = code;
    this.extras = extras;
  }

  get status(): number {
    return catalogue[this.code][0];
  }
}
