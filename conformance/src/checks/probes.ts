// A well-formed request for any operation, built from the contract: path parameters from their examples
// (ids that exist nowhere, unique to the run), the documented example body. The auth and method checks send
// these, so that the only thing wrong with each request is the one thing the check varies.
import { createHash } from 'node:crypto';
import type { CheckContext } from '../context.ts';
import type { Operation } from '../contract/document.ts';
import type { RequestSpec } from '../http.ts';
import { uploadForm } from '../jobs.ts';

/** Values for path parameters: ids of the right shape that no user has (this run's own). */
export function pathValues(ctx: CheckContext): Record<string, string> {
  const digest = createHash('sha1').update(ctx.runId).digest('hex');
  return {
    problem_id: 'maxcut',
    job_id: BigInt(`0x${digest.slice(0, 15)}`)
      .toString(36)
      .toUpperCase()
      .padStart(12, 'Z')
      .slice(-12),
    data_file_identifier: digest,
  };
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? name));
}

/** A request the operation accepts in shape (only its authorization and method are left to the caller). */
export function probe(ctx: CheckContext, op: Operation): Omit<RequestSpec, 'auth'> {
  const path = fillPath(op.path, pathValues(ctx));
  const spec = { method: op.method.toUpperCase(), path };
  if (op.operation.operationId === 'startJob')
    return { ...spec, json: ctx.fixtures.exampleGraph(ctx), query: { time_limit_seconds: 1 } };
  if (op.operation.operationId === 'uploadDataFile')
    return { ...spec, body: uploadForm('2 1\n1 2 1\n', ctx.unique('probe.txt')) };
  if (op.operation.operationId === 'login')
    return { ...spec, json: { username: ctx.options.username, password: ctx.options.password } };
  return spec;
}
