// Why a start-job body was refused, as the reference server explains it (server/src/http/start-job-body.ts): the
// body of POST /problem/maxcut (or /problem/qubo, or the templated path) is a oneOf of shapes (the use case's
// input inline, or a data file reference), and Prism, like Ajv, reports a body that fits none against each.
// Prism still decides; a refused body is explained by the shape of its path it meant alone, the first whose
// required members it names (num_nodes or adj_matrix: a graph; data_file_identifier: a data file), or by the
// shapes the path takes when it names none (a QUBO body sent to /problem/maxcut), with the server's pointers and
// details (test/support/start-job-bodies.ts).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FieldError } from './conventions.ts';
import type { Operation } from './mock.ts';

interface Shape {
  required?: string[];
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators = new WeakMap<object, ValidateFunction>();

/**
 * True for an operation that starts a job: a POST on /problem/<use case>, concrete or templated (startJob,
 * startMaxCutJob, startQuboJob), told by its path so that a use case added to the contract needs nothing here.
 */
export function startsJob(operation: Operation): boolean {
  return operation.method === 'post' && /^\/problem\/[^/]+$/.test(operation.path);
}

/** An Ajv error as the server reports it: a missing or extra member is pointed at itself, an enum lists its values. */
function fieldError(e: ErrorObject): FieldError {
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  const member = params.missingProperty ?? params.additionalProperty;
  const pointer =
    member === undefined ? e.instancePath : `${e.instancePath}/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  const allowed = e.keyword === 'enum' ? `: ${params.allowedValues!.join(', ')}` : '';
  return { pointer: pointer || '/', detail: `${e.message}${allowed}` };
}

/** The errors of the shape a startJob body meant, deepest pointer first; none when it fits that shape. */
export function startJobBodyErrors(operation: Operation, body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ pointer: '/', detail: 'must be object' }];
  const schema = operation.request?.body?.contents?.find((c) => c.mediaType === 'application/json')?.schema as
    { oneOf?: Shape[] } | undefined;
  const shapes = schema?.oneOf ?? [];
  const meant = shapes.find((shape) => (shape.required ?? []).some((member) => Object.hasOwn(body, member)));
  if (!meant) {
    const either = shapes.map((shape) => (shape.required ?? []).join(' and ')).join(', or ');
    return [{ pointer: '/', detail: `must have either ${either}` }];
  }
  let validate = validators.get(meant);
  if (!validate) validators.set(meant, (validate = ajv.compile(meant)));
  if (validate(body)) return [];
  const depth = (pointer: string) => pointer.split('/').length;
  return validate.errors!.map(fieldError).sort((a, b) => depth(b.pointer) - depth(a.pointer));
}
