// The contract the suite holds a deployment to: the parsed document, its operations, and a validator.
import {
  defaultContractPath,
  deref,
  findOperation,
  loadContract,
  type Node,
  type Operation,
  operationById,
  operations,
  response,
} from './document.ts';
import { schemaValidator, type Validate } from './validator.ts';

export class Contract {
  readonly doc: Node;
  readonly operations: Operation[];
  readonly validate: Validate;

  constructor(path: string = defaultContractPath) {
    this.doc = loadContract(path);
    this.operations = operations(this.doc);
    this.validate = schemaValidator(this.doc);
  }

  /** Every operationId, in the contract's order. */
  get operationIds(): string[] {
    return this.operations.map((op) => op.operation.operationId as string);
  }

  byId(operationId: string): Operation {
    return operationById(this.doc, operationId);
  }

  find(method: string, path: string): Operation | undefined {
    return findOperation(this.doc, method, path);
  }

  /** A reference to a component schema, for `validate`. */
  schema(name: string): Node {
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The JSON request body schema of an operation. */
  requestSchema(operationId: string): Node {
    const body = deref(this.doc, this.byId(operationId).operation.requestBody);
    const schema = body?.content?.['application/json']?.schema as Node | undefined;
    if (!schema) throw new Error(`${operationId} has no JSON request body`);
    return schema;
  }

  /** A parameter of an operation (path-level ones included), refs resolved. */
  parameter(operationId: string, name: string): Node {
    const found = this.byId(operationId).parameters.find((p) => p.name === name);
    if (!found) throw new Error(`${operationId} has no parameter ${name}`);
    return found;
  }

  /** The documented response of an operation for a status, refs resolved. */
  response(operationId: string, status: number): Node | undefined {
    return response(this.doc, this.byId(operationId), String(status));
  }

  /** Every problem `code` the contract documents for this operation and status. */
  problemCodes(operationId: string, status: number): string[] {
    const schema = this.response(operationId, status)?.content?.['application/problem+json']?.schema as
      Node | undefined;
    return (schema?.allOf ?? []).flatMap(
      (part: Node) => (deref(this.doc, part)?.properties?.code?.enum ?? []) as string[],
    );
  }
}
