// The one catalogue of the errors the contract documents (RFC 9457 problem details): each code's HTTP status and
// title, and the body they make. The server throws and serialises them, the sandbox answers with them, and
// test/contract/error-catalogue.test.ts holds this list to openapi.yaml in both directions.

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
  webhook_url_refused: [422, 'Webhook URL refused'],
  solver_failed: [500, 'Solver failed'],
  job_expired: [500, 'Job expired'],
  rate_limited: [429, 'Too many requests'],
  too_many_active_jobs: [429, 'Too many active jobs'],
  too_many_streams: [429, 'Too many streams'],
  internal_error: [500, 'Internal error'],
  bad_gateway: [502, 'Bad gateway'],
  service_unavailable: [503, 'Service unavailable'],
  insufficient_storage: [507, 'Insufficient storage'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof catalogue;

/** One mismatch of a refused request: a JSON pointer into it (RFC 6901) and what is wrong there (ProblemFieldError). */
export interface FieldError {
  pointer: string;
  detail: string;
}

/** The body of a problem, as the contract's Problem schema. */
export interface ErrorBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  instance?: string;
  request_id?: string;
  errors?: FieldError[];
  max_bytes?: number;
  used_bytes?: number;
}

/** What some codes carry beside their detail (Problem's `errors`, `max_bytes`, `used_bytes`). */
export interface ErrorMembers {
  errors?: FieldError[];
  max_bytes?: number;
  /** With storage_quota_exceeded: the bytes the user's data files hold now (max_bytes is the quota). */
  used_bytes?: number;
}

/** A problem object for a response body or a job's `error`: `type`, `title` and `status` from the catalogue. */
export function errorBody(code: ErrorCode, detail: string, members: ErrorMembers = {}): ErrorBody {
  const [status, title] = catalogue[code];
  const body: ErrorBody = { type: `urn:jes:problem:${code}`, title, status, detail, code };
  if (members.errors?.length) body.errors = members.errors;
  if (members.max_bytes !== undefined) body.max_bytes = members.max_bytes;
  if (members.used_bytes !== undefined) body.used_bytes = members.used_bytes;
  return body;
}
