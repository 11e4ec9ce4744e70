// The suite's public types: what runConformance takes, what it records, what it returns.

export type Profile = 'full' | 'sandbox';

export interface ConformanceOptions {
  /** The deployment's URL, for example `http://localhost:3000`. */
  baseUrl: string;
  username: string;
  password: string;
  /** A second user, for `isolation` (skipped without one). */
  username2?: string;
  password2?: string;
  /** `full` (default) runs every check; `sandbox` skips what a stateless mock cannot pass, saying why. */
  profile?: Profile;
  /** Run only these checks (by name). */
  only?: string[];
  /** The fast-check seed of the generated checks (printed; default a fixed one, so that runs repeat). */
  seed?: number;
  /** Generated cases per target of the generated checks (default 8). */
  runs?: number;
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
}

/** `error`: the check did not run to its end because the deployment stopped answering (see Report.unreachable). */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface CheckResult {
  name: string;
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
  /** Why no connection could be made: `ECONNREFUSED`, `ENOTFOUND`, … */
  code: string;
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
