// The one catalogue of problems (RFC 9457) this server answers with: each code's HTTP status and title.
// Every error response and every job or execution `error` is built here.

export const catalogue = {
  malformed_json: [400, 'Malformed JSON'],
  invalid_request: [400, 'Invalid request'],
  missing_token: [401, 'Missing token'],
  invalid_token: [401, 'Invalid token'],
  invalid_credentials: [401, 'Invalid credentials'],
  not_found: [404, 'Not found'],
  problem_not_found: [404, 'Use case not found'],
  job_not_found: [404, 'Job not found'],
  data_file_not_found: [404, 'Data file not found'],
  solver_not_found: [404, 'Solver not found'],
  method_not_allowed: [405, 'Method not allowed'],
  request_timeout: [408, 'Request timeout'],
  job_not_finished: [409, 'Job not finished'],
  job_already_terminal: [409, 'Job already ended'],
  data_file_in_use: [409, 'Data file in use'],
  payload_too_large: [413, 'Payload too large'],
  storage_quota_exceeded: [413, 'Storage quota exceeded'],
  unsupported_media_type: [415, 'Unsupported media type'],
  headers_too_large: [431, 'Request headers too large'],
  invalid_input: [422, 'Invalid input'],
  data_file_problem_mismatch: [422, 'Data file is for another use case'],
  data_file_invalid: [422, 'Data file is invalid'],
  solver_limit_exceeded: [422, "Input beyond the solver's limit"],
  idempotency_key_reused: [422, 'Idempotency key reused'],
  solver_failed: [500, 'Solver failed'],
  job_expired: [500, 'Job expired'],
  rate_limited: [429, 'Too many requests'],
  too_many_active_jobs: [429, 'Too many active jobs'],
  internal_error: [500, 'Internal error'],
  service_unavailable: [503, 'Service unavailable'],
  insufficient_storage: [507, 'Insufficient storage'],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemCode = keyof typeof catalogue;

export interface FieldError {
  pointer: string;
  detail: string;
}

/** The body of a problem, as the contract's Problem schema. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  instance?: string;
  request_id?: string;
  errors?: FieldError[];
  max_bytes?: number;
  used_bytes?: number;
}

export interface ProblemExtras {
  errors?: FieldError[];
  max_bytes?: number;
  /** With storage_quota_exceeded: the bytes the user's data files hold now (max_bytes is the quota). */
  used_bytes?: number;
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

/** A problem object for a response body or a job's `error`. */
export function problemBody(
  code: ProblemCode,
  detail: string,
  extras: Omit<ProblemExtras, 'headers'> = {},
): ProblemBody {
  const [status, title] = catalogue[code];
  const body: ProblemBody = { type: `urn:jes:problem:${code}`, title, status, detail, code };
  if (extras.errors?.length) body.errors = extras.errors;
  if (extras.max_bytes !== undefined) body.max_bytes = extras.max_bytes;
  if (extras.used_bytes !== undefined) body.used_bytes = extras.used_bytes;
  return body;
}
