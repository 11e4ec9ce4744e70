// Prism's account of what breaks the contract, in the two forms the sandbox gives it: the `sl-violations` header
// (Prism's own name and shape, JSON in printable ASCII) and the contract's field errors (a JSON pointer and a
// detail each). The mock reports a request's violations this way, the validation proxy a request's and a response's.
import { startJobBodyErrors, startsJob } from '@jes/contract/node';
import { asciiOnly, type FieldError, pointer } from './conventions.ts';

/** One of Prism's diagnostics (severity 0 is an error). */
export interface Violation {
  path?: (string | number)[];
  code?: string | number;
  message: string;
  severity?: number;
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** Violations as the `sl-violations` header: whole entries up to 8,000 characters, each located in the request or the response. */
export function violationsHeader(violations: readonly (Violation & { in?: 'request' | 'response' })[]): string {
  const entries = violations.map((v) => {
    const location = [v.in ?? 'request', ...(v.path ?? []).map((p) => (typeof p === 'string' ? clip(p) : p))];
    return asciiOnly(JSON.stringify({ location, code: v.code, message: clip(v.message) }));
  });
  while (entries.length && entries.join(',').length > 7998) entries.pop();
  return `[${entries.join(',')}]`;
}

/** A violation as a field error; a missing member is reported at its parent, so point at the member itself. */
export function fieldError(v: Violation): FieldError {
  const member = v.code === 'required' ? /property '([^']+)'/.exec(v.message)?.[1] : undefined;
  return { pointer: pointer([...(v.path ?? []), ...(member === undefined ? [] : [member])]), detail: v.message };
}

/**
 * A request's violations as field errors, deepest first. A start-job body at odds with the contract is explained by
 * the shape it meant alone (@jes/contract's start-job-body.ts), as the server does, not by every branch of the union.
 */
export function requestErrors(
  operationId: string | undefined,
  violations: readonly Violation[],
  body: unknown,
): FieldError[] {
  const inBody = (v: Violation) => v.path?.[0] === 'body';
  const meant = startsJob(operationId) && violations.some(inBody) ? startJobBodyErrors(operationId, body) : [];
  if (!meant.length) return violations.map(fieldError);
  const depth = (p: string) => p.split('/').length;
  return [...violations.filter((v) => !inBody(v)).map(fieldError), ...meant].sort(
    (a, b) => depth(b.pointer) - depth(a.pointer),
  );
}
