// The run as text: a heading, the contract version the run holds the deployment to beside the deployment's own
// (with a warning when they may differ), one line per check as it ends (passed / failed / skipped with its reason,
// error when the deployment stopped answering), the parts a profile left out and other notes beneath it, each
// failure with the request and response that broke it and a command that sends it again (the first few per check),
// the coverage of the contract's operations, the deprecated operations the run used (when the contract deprecates
// any), and the closing line `N passed, N failed, N skipped`.
import { deprecationText } from '../contract/deprecation.ts';
import { deprecatedUsed } from '../coverage.ts';
import type { CheckResult, Coverage, Exchange, RateLimitWait, Report, Versions } from '../types.ts';
import { exchangeLines, seconds } from './exchange-text.ts';
import { printable } from './printable.ts';

export const maxFailuresShown = 5;

/** The lines that send a failure's request again (login lines not in `given` yet first); see curl.ts. */
export type Reproduce = (exchange: Exchange, given: Set<string>) => string[];

export function heading(options: {
  baseUrl: string;
  profile: string;
  seed: number;
  runs: number;
  rateLimit?: string;
  /** The operations the run was narrowed to (--operation). */
  operations?: readonly string[];
  /** The settings file read, as given. */
  config?: string;
}): string {
  const pace = options.rateLimit ? `; at most ${options.rateLimit}` : '';
  const config = options.config ? `; settings from ${options.config}` : '';
  return `jes-conformance: ${options.baseUrl} (profile ${options.profile}; fast-check seed ${options.seed}, ${options.runs} cases per target${pace}${operationsText(options.operations)}${config})`;
}

/** `; only the operation getJob` / `; only the operations getJob, listJobs`, or nothing when the run was not narrowed. */
export function operationsText(operations: readonly string[] | undefined): string {
  if (!operations?.length) return '';
  return `; only the operation${operations.length > 1 ? 's' : ''} ${operations.join(', ')}`;
}

/** `contract 1.7.0 (this suite) · deployment reports contract 1.7.0, server 0.1.0`: both sides of the run. */
export function versionsText(versions: Versions): string {
  const { contractVersion, version } = versions.deployment;
  const reported = versions.unanswered
    ? 'deployment reports no versions'
    : `deployment reports ${contractVersion ? `contract ${contractVersion}` : 'no contract version'}${version ? `, server ${version}` : ''}`;
  return `contract ${versions.contract} (this suite) · ${reported}`;
}

/** The versions line, and beneath it the warning when the deployment may implement another version. */
export function versionsLines(versions: Versions): string[] {
  return [versionsText(versions), ...(versions.warning ? [`warning: ${versions.warning}`] : [])];
}

/** `listProblems (GET /problem, deprecated since 2026-12-01, sunset 2027-06-01); …`, or `none`. */
export function deprecatedText(used: Coverage['operations']): string {
  if (!used.length) return 'none';
  return used.map((op) => `${op.operationId} (${op.label}, ${deprecationText(op.deprecated!)})`).join('; ');
}

/** Which deprecated operations the run used, or undefined when the contract deprecates none. */
export function deprecatedLine(coverage: Coverage): string | undefined {
  const used = deprecatedUsed(coverage);
  return used && `deprecated operations used: ${deprecatedText(used)}`;
}

/** A check's lines; `reproduce` adds a command to each failure shown, `given` the login lines printed so far. */
export function resultText(result: CheckResult, reproduce?: Reproduce, given: Set<string> = new Set()): string {
  const operations = result.operations.includes('*') ? 'every operation' : result.operations.join(', ');
  // A reason, note or failure is one line, whatever the deployment's words in it hold (printable.ts).
  const reason = printable(result.reason ?? '');
  if (result.status === 'skipped') return `skipped  ${result.name}: ${reason}`;
  if (result.status === 'error' && !result.requests) return `error    ${result.name}: ${reason}`;
  const counts = `${seconds(result.ms)}, ${result.requests} requests${result.failures.length ? `, ${result.failures.length} failure${result.failures.length > 1 ? 's' : ''}` : ''}`;
  const lines = [
    `${result.status.padEnd(7)}  ${result.name} [${operations}] (${counts})${result.status === 'error' ? `: ${reason}` : ''}`,
  ];
  for (const note of result.notes) lines.push(`           · ${printable(note)}`);
  for (const failure of result.failures.slice(0, maxFailuresShown)) {
    lines.push(`           ✗ ${printable(failure.message)}`);
    if (!failure.exchange) continue;
    lines.push(...exchangeLines(failure.exchange, 400).map((line) => `               ${line}`));
    if (reproduce) lines.push(...reproduce(failure.exchange, given).map((line) => `               ${line}`));
  }
  if (result.failures.length > maxFailuresShown)
    lines.push(`           … and ${result.failures.length - maxFailuresShown} more (--report writes them all)`);
  return lines.join('\n');
}

/** Statuses as `200 404`, or `none`. */
const statuses = (list: readonly number[]) => (list.length ? list.join(' ') : 'none');

/** What the run called: per operation the documented statuses it saw and those it never provoked. */
export function coverageLines(coverage: Coverage): string[] {
  const called = coverage.operations.filter((op) => op.requests > 0);
  const documented = coverage.operations.reduce((n, op) => n + op.documented.length, 0);
  const seen = coverage.operations.reduce((n, op) => n + op.seen.length, 0);
  const width = Math.max(...coverage.operations.map((op) => op.operationId.length));
  const labelWidth = Math.max(...coverage.operations.map((op) => op.label.length));
  const lines = [
    `coverage: ${called.length} of ${coverage.operations.length} operations called; ${seen} of ${documented} documented statuses seen, the others never provoked`,
  ];
  for (const op of coverage.operations) {
    const never = op.documented.filter((s) => !op.seen.includes(s));
    const other = op.undocumented.length ? `   undocumented ${statuses(op.undocumented)}` : '';
    const what = op.requests ? `seen ${statuses(op.seen)}   never ${statuses(never)}${other}` : 'never called';
    lines.push(
      `  ${op.operationId.padEnd(width)}  ${op.label.padEnd(labelWidth)}  ${String(op.requests).padStart(4)} ${op.requests === 1 ? 'request ' : 'requests'}  ${what}`,
    );
  }
  if (coverage.elsewhere.requests)
    lines.push(
      `  ${coverage.elsewhere.requests} requests to methods and paths the contract lacks, answered ${statuses(coverage.elsewhere.statuses)}`,
    );
  return lines;
}

export function closingLine(report: Pick<Report, 'passed' | 'failed' | 'skipped'> & { errors?: number }): string {
  const errors = report.errors ? `, ${report.errors} error${report.errors > 1 ? 's' : ''}` : '';
  return `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped${errors}`;
}

/** The line on stderr for a wait for a rate limit. */
export function waitLine(wait: RateLimitWait): string {
  if (wait.retryAfter !== undefined)
    return `waiting ${wait.seconds} s for the rate limit (429 on ${wait.method} ${wait.path}, Retry-After ${wait.retryAfter})`;
  const quota = wait.quota !== undefined && wait.windowSeconds !== undefined;
  const spent = quota ? `its ${wait.quota} requests per ${wait.windowSeconds} s are spent` : 'nothing left';
  return `waiting ${wait.seconds} s for the rate limit "${wait.policy}" (${spent}; next: ${wait.method} ${wait.path})`;
}
