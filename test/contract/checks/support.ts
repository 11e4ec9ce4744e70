// What the contract checks share: the Check type, schema behaviour probes, and finding operations and examples.
import { deref, type Node, type Operation, operations, schemaValidator } from '../openapi-document.ts';

export interface Check {
  name: string;
  run(doc: Node): string[];
}

export const schema = (name: string): Node => ({ $ref: `#/components/schemas/${name}` });
export const jsonSchema = (doc: Node, node: Node | undefined): Node | undefined =>
  deref(doc, node)?.content?.['application/json']?.schema;
export const exampleValue = (doc: Node, name: string): any => structuredClone(doc.components?.examples?.[name]?.value);

/** Collects violations from schema behaviour: values it must accept and values it must refuse. */
export function behaviour(doc: Node) {
  const validate = schemaValidator(doc);
  const violations: string[] = [];
  return {
    violations,
    accepts(what: string, s: Node | undefined, value: unknown) {
      if (!s) return void violations.push(`${what}: schema missing`);
      const errors = validate(s, value);
      if (errors.length > 0) violations.push(`${what}: must be accepted, but ${errors.join('; ')}`);
    },
    refuses(what: string, s: Node | undefined, value: unknown) {
      if (!s) return void violations.push(`${what}: schema missing`);
      if (validate(s, value).length === 0) violations.push(`${what}: must be refused, but is accepted`);
    },
  };
}

export function find(
  doc: Node,
  operationId: string,
  method: string,
  path: string,
  violations: string[],
): Operation | undefined {
  const op = operations(doc).find((o) => o.operation.operationId === operationId);
  if (!op) return void violations.push(`operation ${operationId} is missing`);
  if (op.method !== method || op.path !== path)
    violations.push(`${operationId} must be ${method.toUpperCase()} ${path}, is ${op.label}`);
  return op;
}

export const sixNodes = (doc: Node) => exampleValue(doc, 'MaxCutInput');
