// Operations the contract added in a later version than a deployment may implement. The suite holds a deployment
// to the contract it is given, so a deployment that answers such an operation as a path it does not have (404
// `not_found`, 405) fails, unless its GET /healthz reports an older contract: then the check is skipped, saying
// which version brought what it is about (a 1.6 deployment is not broken for lacking 1.7's streams; holding it to
// its own contract with --contract is the better run).
import { answered } from './answer-text.ts';
import type { CheckContext } from './context.ts';
import { CheckAbort, type Reply } from './http.ts';

/** The contract version that brought the job event streams, progress history and webhooks (issue 31). */
export const eventsSince = '1.7.0';

/** `a` before `b`, both `major.minor.patch` (a pre-release or build suffix is ignored); undefined when either is not. */
export function versionBefore(a: string, b: string): boolean | undefined {
  const parts = (v: string) => /^(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number);
  const [x, y] = [parts(a), parts(b)];
  if (!x || !y) return undefined;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return false;
}

/** Whether the answer is the one of a path or method the deployment does not have at all. */
export function absent(reply: Reply): boolean {
  return reply.status === 405 || (reply.status === 404 && reply.json?.code !== 'job_not_found');
}

/**
 * Stops the check when `reply` says the deployment lacks the operation: skipped when it reports a contract older
 * than `since`, else failed (a deployment that says nothing, or says `since` or later, must have it).
 */
export function requireIntroduced(ctx: CheckContext, reply: Reply, what: string, since = eventsSince): void {
  if (!absent(reply)) return;
  const reported = ctx.versions.deployment.contractVersion;
  if (reported !== undefined && versionBefore(reported, since))
    ctx.skip(
      `the deployment reports contract ${reported}, and ${what} came in ${since} (it answered ${answered(reply)})`,
    );
  const says = reported === undefined ? 'does not say which contract it implements' : `reports contract ${reported}`;
  throw new CheckAbort(
    `${what} answered ${answered(reply)}, as a path the deployment does not have; the contract has it since ${since}, and the deployment ${says} (a deployment of an older contract that says so in GET /healthz is skipped here)`,
    reply.exchange,
  );
}
