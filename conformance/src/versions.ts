// Which contract version the run holds the deployment to (the contract's `info.version`) and which the deployment
// says it implements (`contract_version` of `GET /healthz`, with its software's `version`), asked once before the
// first check (issue 29). Two different versions, or a deployment that does not say, are a warning, not a failure:
// what changed between them may fail checks that hold on the deployment's own version, or go unchecked.
import { answered } from './answer-text.ts';
import { CheckAbort, type Http, TargetUnreachable } from './http.ts';
import type { Versions } from './types.ts';

/** The name the version request is recorded under (`sent by versions` in reports). */
export const versionsCheck = 'versions';

/**
 * The warning for a deployment that reports `deployment` (undefined: it said nothing; `unanswered`: why) when the
 * run holds it to `contract`, or undefined when the two are the same.
 */
export function versionsWarning(contract: string, deployment?: string, unanswered?: string): string | undefined {
  if (deployment === contract) return undefined;
  if (deployment !== undefined)
    return `the deployment reports contract ${deployment}, this suite holds it to ${contract}: what differs between them may fail checks or go unchecked (--contract takes the openapi.yaml of ${deployment})`;
  const unknown = unanswered
    ? `the deployment's contract version is unknown (${unanswered})`
    : 'the deployment does not say which contract version it implements (GET /healthz has no contract_version)';
  return `${unknown}: if it is not ${contract}, what differs may fail checks or go unchecked`;
}

/** Asks the deployment. No answer is a warning; no connection too, and `http.unreachable` then stops the run. */
export async function askVersions(http: Http): Promise<Versions> {
  const contract = String(http.contract.doc.info?.version);
  let unanswered: string | undefined;
  let deployment: Versions['deployment'] = {};
  try {
    const reply = await http.send(versionsCheck, { method: 'GET', path: '/healthz', auth: 'none' });
    if (reply.status === 200) {
      const { contract_version: contractVersion, version } = (reply.json ?? {}) as Record<string, unknown>;
      deployment = {
        ...(typeof contractVersion === 'string' ? { contractVersion } : {}),
        ...(typeof version === 'string' ? { version } : {}),
      };
    } else unanswered = `GET /healthz answered ${answered(reply)}`;
  } catch (error) {
    if (error instanceof TargetUnreachable) unanswered = `no connection to GET /healthz (${error.code})`;
    else if (error instanceof CheckAbort)
      unanswered = `GET /healthz got no answer: ${error.exchange?.error ?? error.message}`;
    else throw error;
  }
  const warning = versionsWarning(contract, deployment.contractVersion, unanswered);
  return { contract, deployment, ...(unanswered ? { unanswered } : {}), ...(warning ? { warning } : {}) };
}
