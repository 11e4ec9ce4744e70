// The suite's public types: what runConformance takes, what it records, what it returns.
import type { Check } from './checks/check.ts';

export type Profile = 'full' | 'sandbox';

export interface ConformanceOptions {
  /** The deployment's URL, for example `http://localhost:3000`. */
  baseUrl: string;
  /** The user to run as, logged in with POST /login; optional when `token` is given. */
  username?: string;
  password?: string;
  /** A second user, for `isolation` (skipped without one, or without `token2`). */
  username2?: string;
  password2?: string;
  /**
   * A bearer token of the user, issued elsewhere: sent instead of logging in. The checks that need the password
   * itself (logging in, Basic credentials) leave those parts out with a note unless `password` is given too.
   */
  token?: string;
  /** A bearer token of the second user, instead of `username2`/`password2`. */
  token2?: string;
  /**
   * Headers sent with every request (a gateway's API key, say); a header the suite sets itself on a request
   * (Accept, Content-Type, Idempotency-Key…) is the suite's there. Never printed: reports show them hidden.
   */
  headers?: Record<string, string>;
  /** A PEM file of CA certificates trusted besides the default ones (a deployment behind a private CA). */
  caFile?: string;
  /** A PEM client certificate and its PEM key, for a deployment that asks for one (mutual TLS); both or neither. */
  certFile?: string;
  keyFile?: string;
  /** `full` (default) runs every check; `sandbox` skips what a stateless mock cannot pass, saying why. */
  profile?: Profile;
  /** Run only these checks (by name). */
  only?: string[];
  /**
   * Checks of your own (see `Check`, and `loadChecks` for a module's), run like the built-in ones: after the
   * behavioural checks and before the response checks, which validate their answers too. Their names must be
   * snake_case and differ from every other check's.
   */
  checks?: readonly Check[];
  /**
   * Run only the checks that exercise one of these operations (operationIds), and point the checks that go over every
   * operation (the response checks, unsupported_method, the auth and data checks) at these alone: other operations
   * get only the requests the selected checks need to set up (logging in, the use cases, a job to read). With `only`:
   * the checks both select.
   */
  operations?: string[];
  /** The fast-check seed of the generated checks (printed; default a fixed one, so that runs repeat). */
  seed?: number;
  /** Generated cases per target of the generated checks (default 8). */
  runs?: number;
  /**
   * Replay exactly one generated case, as a failure's report gives it: `<target>/<fast-check path>` (with `only` one
   * check and the run's `seed` and `runs`). The check then sends that case alone (besides what building it needs)
   * and shrinks it no further.
   */
  replayPath?: string;
  /**
   * The response-time budget in milliseconds: `response_time` fails every answer slower than this (event streams
   * and long polls left out). Without one, it notes the slowest answers and passes.
   */
  maxResponseTimeMs?: number;
  /** The contract to hold the deployment to (default: this repository's openapi.yaml). */
  contractPath?: string;
  /**
   * Pace the run to at most this many requests: `10/s`, `600/m` or `3600/h` (as Schemathesis' --rate-limit),
   * so that a rate-limited deployment is not sent requests it will refuse. Default: no pacing.
   */
  rateLimit?: string;
  /**
   * `host:port` the suite listens on for webhook deliveries (port 0: any free one), an address the deployment can
   * reach: the webhook checks set the user's webhook to it for the run (put back after). Without it they are skipped.
   */
  webhookListen?: string;
  /**
   * Write every exchange of the run to this file as HAR 1.2 when it ends (also when the deployment stopped answering),
   * secrets redacted: `jes-conformance replay` (replayHar) sends it again, to this deployment or another.
   */
  har?: string;
  /** Called once the deployment has said its versions, before the first check (for live output). */
  onVersions?: (versions: Versions) => void;
  /** Called as each check ends (for live output). */
  onResult?: (result: CheckResult) => void;
  /**
   * Called before each wait for a rate limit (for live output: a wait can last a minute): ahead of a request the
   * deployment's RateLimit headers say its quota has no room for, or after a 429 with Retry-After.
   */
  onWait?: (wait: RateLimitWait) => void;
}

/**
 * A wait for a deployment's rate limit: ahead of a request whose policy (by its RateLimit header) has nothing
 * left until it resets, or after a 429 whose Retry-After the suite honours before asking again.
 */
export interface RateLimitWait {
  /** The check whose request waits. */
  check: string;
  method: string;
  /** The path, without its query. */
  path: string;
  /** How long the suite waits, in whole seconds (rounded up; at most about a minute). */
  seconds: number;
  /** After a 429: its Retry-After header as sent. */
  retryAfter?: string;
  /** Ahead of a request: the policy whose quota is spent, and its quota and window when RateLimit-Policy says. */
  policy?: string;
  quota?: number;
  windowSeconds?: number;
}

/**
 * The contract version the run holds the deployment to, and what the deployment says it implements: its
 * `GET /healthz`, asked once before the first check.
 */
export interface Versions {
  /** `info.version` of the contract the run holds the deployment to. */
  contract: string;
  /** What `GET /healthz` reported: `contract_version` and `version` (its software's), each when it said. */
  deployment: { contractVersion?: string; version?: string };
  /** Why the deployment said nothing (`GET /healthz answered 503`, `no answer`), when it did not. */
  unanswered?: string;
  /** One line when the run may hold the deployment to another version than its own: they differ, or it does not say. */
  warning?: string;
}

/** One request the suite sent and what came back. */
export interface Exchange {
  /** The check that sent it. */
  check: string;
  /** The operation it reaches by the contract (undefined for a path or method the contract lacks). */
  operationId: string | undefined;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  /** Undefined when no response came (connection refused, reset, timed out). */
  response?: { status: number; headers: Record<string, string>; text: string; json?: unknown; ms: number };
  error?: string;
}

export interface Failure {
  message: string;
  exchange?: Exchange;
  /** Set when a generated case found it: the case (shrunk) and how to replay exactly it. */
  generated?: GeneratedCase;
}

/**
 * A failing generated case, shrunk by fast-check before it was reported. Its size is the length in characters of
 * the case as fast-check prints it (`fc.stringify`): the value the check generated, before it became a request.
 */
export interface GeneratedCase {
  /** The check's generated target (from 1, in the order the check runs them) and what it generates. */
  target: number;
  label: string;
  seed: number;
  runs: number;
  /** The case's number among the target's cases, as first found failing. */
  case: number;
  /** `<target>/<fast-check path>`: `--replay-path` with it (and `--only`, `--seed`, `--runs`) sends exactly this case. */
  replayPath: string;
  /** Whether this run replayed it (replayPath given), rather than found it. */
  replayed: boolean;
  /** Shrink steps taken: each a smaller case that still failed. */
  shrinks: number;
  /** Whether shrinking stopped at its bound (a smaller failing case may exist). */
  bounded: boolean;
  /** What shrinking cost: the cases sent (those that failed and those that passed), their requests, its time. */
  shrinkCases: number;
  shrinkRequests: number;
  shrinkMs: number;
  /** The size of the case as first found failing, and as reported. */
  sizeBefore: number;
  sizeAfter: number;
  /** The case reported, as fast-check prints it (cut at 500 characters). */
  value: string;
}

/** `error`: the check did not run to its end because the deployment stopped answering (see Report.unreachable). */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface CheckResult {
  name: string;
  /** The module a check of your own came from (`--checks`, `loadChecks`); undefined for the others. */
  module?: string;
  description: string;
  /** The operationIds the check exercises. */
  operations: readonly string[];
  status: CheckStatus;
  /** Why it was skipped, or why it is an error. */
  reason?: string;
  failures: Failure[];
  /** What was left out in this profile, and other remarks (a passed check may carry notes). */
  notes: string[];
  /** How many requests it sent. */
  requests: number;
  ms: number;
}

export interface Report {
  baseUrl: string;
  /** The contract version the run held the deployment to, and the deployment's own (a warning when they differ). */
  versions: Versions;
  profile: Profile;
  seed: number;
  runs: number;
  /** The operations the run was narrowed to (`operations`), when it was. */
  operations?: string[];
  results: CheckResult[];
  passed: number;
  failed: number;
  skipped: number;
  /** Checks that did not run to their end because the deployment stopped answering. */
  errors: number;
  /** Set when the deployment stopped answering (connection refused, no such host): the run stopped there. */
  unreachable?: Unreachable;
  /** The operations the run called and the documented statuses it saw of each. */
  coverage: Coverage;
  ms: number;
}

export interface Unreachable {
  /** Why no connection could be made: `ECONNREFUSED`, `ENOTFOUND`, `SELF_SIGNED_CERT_IN_CHAIN`, … */
  code: string;
  /** Set when the connection failed in TLS: what went wrong and what to do (`--ca-file`, `--cert`/`--key`). */
  tls?: string;
  /**
   * The check that sent the request no one answered (`versions` for the run's first, `GET /healthz`), and that
   * request (`METHOD /path`).
   */
  check: string;
  request: string;
  /** Whether the deployment had answered anything before (false: it was unreachable from the start). */
  answeredBefore: boolean;
  /** The checks that were to run after it and did not. */
  notRun: number;
  /** One line saying all that. */
  message: string;
}

export interface OperationCoverage {
  operationId: string;
  /** `METHOD /path` as the contract writes it. */
  label: string;
  /** Requests sent to it (each answer to a retried request counts). */
  requests: number;
  /** The statuses the contract documents for it, and which of them the run received. */
  documented: number[];
  seen: number[];
  /** Statuses received that the contract does not document for it. */
  undocumented: number[];
  /** Set when the contract deprecates the operation: since which day, and the day of its sunset if it has one. */
  deprecated?: { since?: string; sunset?: string };
}

export interface Coverage {
  operations: OperationCoverage[];
  /** Requests to paths or methods the contract does not have (unsupported_method's), by status received. */
  elsewhere: { requests: number; statuses: number[] };
}
