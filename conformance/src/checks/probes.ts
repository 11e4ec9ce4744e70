// A well-formed request for any operation, built from the contract: path parameters of the right shape that
// name nothing (ids unique to the run, so a templated operation such as getProblem answers its 404), the
// documented example body. The auth and method checks send these, so that the only thing wrong with each
// request is the one thing the check varies.
import { createHash } from 'node:crypto';
import type { CheckContext } from '../context.ts';
import { deref, type Operation } from '../contract/document.ts';
import type { RequestSpec } from '../http.ts';
import { uploadForm } from '../jobs.ts';

/** Values for path parameters: ids of the right shape that no user has and no deployment lists (this run's own). */
export function pathValues(ctx: CheckContext): Record<string, string> {
  const digest = createHash('sha1').update(ctx.runId).digest('hex');
  return {
    problem_id: `no_such_use_case_${digest.slice(0, 8)}`,
    job_id: BigInt(`0x${digest.slice(0, 15)}`)
      .toString(36)
      .toUpperCase()
      .padStart(12, 'Z')
      .slice(-12),
    data_file_identifier: digest,
  };
}

/** Whether the run selected the operation a request reaches (--operation); one to no operation is not selected. */
export function selectedRequest(ctx: CheckContext, spec: Pick<RequestSpec, 'method' | 'path'>): boolean {
  const id = ctx.contract.find(spec.method, spec.path.split('?')[0]!)?.operation.operationId as string | undefined;
  return id !== undefined && ctx.selected(id);
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? name));
}

/** The first example of the operation's JSON request body, as the contract documents it (undefined if none). */
export function exampleBody(ctx: CheckContext, op: Operation): unknown {
  const body = deref(ctx.contract.doc, op.operation.requestBody);
  const examples = body?.content?.['application/json']?.examples ?? {};
  const first = deref(ctx.contract.doc, Object.values<any>(examples)[0]);
  return first?.value;
}

/** A request the operation accepts in shape (only its authorization and method are left to the caller). */
export function probe(ctx: CheckContext, op: Operation): Omit<RequestSpec, 'auth'> {
  const path = fillPath(op.path, pathValues(ctx));
  const spec = { method: op.method.toUpperCase(), path };
  if (op.operation.operationId === 'uploadDataFile') {
    const example = exampleBody(ctx, ctx.contract.byId('startJob'));
    const name = ctx.unique('probe.json');
    return {
      ...spec,
      body: uploadForm(JSON.stringify(example), name, { problem_id: pathValues(ctx).problem_id!, name }),
    };
  }
  if (op.operation.operationId === 'login')
    return { ...spec, json: { username: ctx.options.username, password: ctx.options.password } };
  const example = exampleBody(ctx, op);
  if (example === undefined) return spec;
  const timed = op.parameters.some((p) => p.name === 'time_limit_seconds');
  return { ...spec, json: example, ...(timed ? { query: { time_limit_seconds: 1 } } : {}) };
}
