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
  /** Called as each check ends (for live output). */
  onResult?: (result: CheckResult) => void;
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

export type CheckStatus = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  name: string;
  description: string;
  /** The operationIds the check exercises. */
  operations: readonly string[];
  status: CheckStatus;
  /** Why it was skipped. */
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
  profile: Profile;
  seed: number;
  runs: number;
  results: CheckResult[];
  passed: number;
  failed: number;
  skipped: number;
  ms: number;
}
