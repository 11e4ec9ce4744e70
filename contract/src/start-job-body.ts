// Why a startJob body was refused. The contract's body is a oneOf of shapes (the use case's input inline, or a
// data file reference; each use case's own path takes its own input only, the templated one any), and Ajv reports a body that fits neither against both, with "must match exactly
// one schema in oneOf" on top: `{"num_nodes": "6", …}` was also told it lacks data_file_identifier. So the
// validator still decides (one middleware), and a refused body is explained by the shape it meant alone: the
// first whose required members it names (num_nodes or adj_matrix: inline; data_file_identifier: a data file).
// The server's validator and the sandbox's Prism both decide, and both explain by this (test/support/start-job-bodies.ts).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { carriedContract, type ContractDocument } from './contract-document.ts';
import type { FieldError } from './error-catalogue.ts';

interface Schema {
  $ref?: string;
  required?: string[];
  oneOf?: Schema[];
}

const documentId = 'urn:jes:openapi';

type Operation = { operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> } };

type Shapes = Map<string, { required: string[]; ref: string }[]>;
let shapes: Shapes | undefined;

/**
 * The body shapes of each operation that starts a job (startJob and each use case's own): its oneOf. Read at the
 * first use, not when this module loads: a process that imports @jes/contract/node for anything else (a solver
 * thread) does not parse the contract.
 */
const shapesByOperation = (): Shapes => (shapes ??= shapesOf(carriedContract()));

const shapesOf = (contract: ContractDocument): Shapes =>
  new Map(
    Object.values(contract.paths)
      .map((item) => (item as { post?: Operation }).post)
      .filter((op) => op?.operationId && op.requestBody?.content['application/json']?.schema.oneOf)
      .map((op) => [
        op!.operationId!,
        op!.requestBody!.content['application/json']!.schema.oneOf!.map((shape) => {
          const name = shape.$ref!.split('/').pop()!;
          return {
            required: (contract.components.schemas[name] as Schema).required ?? [],
            ref: `${documentId}${shape.$ref}`,
          };
        }),
      ]),
  );

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** The shape's validator, compiled at its first refusal (a server that refuses none never builds one). */
function validatorOf(ref: string): ValidateFunction {
  // The contract's components under one id, so that the shapes' $refs resolve.
  ajv ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).addSchema({
    $id: documentId,
    components: carriedContract().components,
  });
  let validate = validators.get(ref);
  if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })));
  return validate;
}

/** An Ajv error as the server's validator reports it: a missing or extra member is pointed at itself, an enum lists its values. */
function fieldError(e: ErrorObject): FieldError {
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  const member = params.missingProperty ?? params.additionalProperty;
  const pointer =
    member === undefined ? e.instancePath : `${e.instancePath}/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  const allowed = e.keyword === 'enum' ? `: ${params.allowedValues!.join(', ')}` : '';
  return { pointer: pointer || '/', detail: `${e.message}${allowed}` };
}

/** Whether the operation's body is a oneOf of shapes that startJobBodyErrors explains. */
export const startsJob = (operationId: string | undefined): operationId is string =>
  operationId !== undefined && shapesByOperation().has(operationId);

/**
 * The errors of the shape the body meant, deepest pointer first; none when it fits that shape. A body that names
 * none of the operation's shapes (another use case's input, say) is told which members they need.
 */
export function startJobBodyErrors(operationId: string, body: unknown): FieldError[] {
  const shapes = shapesByOperation().get(operationId)!;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ pointer: '/', detail: 'must be object' }];
  const meant = shapes.find((shape) => shape.required.some((member) => Object.hasOwn(body, member)));
  if (!meant) {
    const either = shapes.map((shape) => shape.required.join(' and ')).join(', or ');
    return [{ pointer: '/', detail: `must have either ${either}` }];
  }
  const validate = validatorOf(meant.ref);
  if (validate(body)) return [];
  const depth = (pointer: string) => pointer.split('/').length;
  return validate.errors!.map(fieldError).sort((a, b) => depth(b.pointer) - depth(a.pointer));
}
