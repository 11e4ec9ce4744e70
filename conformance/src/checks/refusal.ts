// What negative_data_rejection expects of a refusal: the documented status and code, and for invalid_request
// and invalid_input `errors[]` of JSON pointers naming the culprit; and which operation a job start reaches.
import { answered } from '../answer-text.ts';
import type { CheckContext } from '../context.ts';
import type { Reply } from '../http.ts';
import type { Failure } from '../types.ts';

const isPointer = (p: unknown) => typeof p === 'string' && (p === '' || p.startsWith('/'));

/** Undefined when the reply is the expected refusal, else what is wrong with it. */
export function refusalProblem(reply: Reply, status: number, code: string, pointer?: string): Failure | undefined {
  if (reply.status !== status || reply.json?.code !== code)
    return { message: `expected ${status} ${code}, got ${answered(reply)}`, exchange: reply.exchange };
  if (code !== 'invalid_request' && code !== 'invalid_input') return undefined;
  const errors = reply.json.errors;
  if (!Array.isArray(errors) || !errors.length)
    return { message: `a ${code} problem without errors[]`, exchange: reply.exchange };
  const bad = errors.filter((e: { pointer?: unknown }) => !isPointer(e?.pointer));
  if (bad.length)
    return {
      message: `errors[] holds pointers that are not JSON pointers: ${JSON.stringify(bad.slice(0, 3))}`,
      exchange: reply.exchange,
    };
  const lower = pointer?.toLowerCase();
  if (
    lower &&
    !errors.some(
      (e: { pointer: string }) =>
        e.pointer.toLowerCase().startsWith(lower) || (lower.startsWith(e.pointer.toLowerCase()) && e.pointer !== '/'),
    )
  ) {
    return {
      message: `no entry of errors[] points at ${pointer} (pointers: ${errors.map((e: { pointer: string }) => e.pointer).join(', ')})`,
      exchange: reply.exchange,
    };
  }
  return undefined;
}

/** The operation a POST to the use case's path reaches: its own (startMaxCutJob…) or else the templated startJob. */
export function startOperationOf(ctx: CheckContext, problemId: string): string {
  return ctx.contract.find('POST', `/problem/${problemId}`)!.operation.operationId as string;
}
