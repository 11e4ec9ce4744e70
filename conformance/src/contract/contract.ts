// The contract the suite holds a deployment to: the parsed document, its operations, and a validator. A run takes it
// from contractAt, which parses a file once for as long as its text stays the same.
import { readFileSync } from 'node:fs';
import {
  defaultContractPath,
  deref,
  findOperation,
  loadContract,
  type Node,
  type Operation,
  operationById,
  operations,
  parseDocument,
  response,
} from './document.ts';
import { schemaValidator, type Validate } from './validator.ts';

export class Contract {
  readonly doc: Node;
  readonly operations: Operation[];
  readonly validate: Validate;

  constructor(path: string = defaultContractPath, doc: Node = loadContract(path)) {
    this.doc = doc;
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

/** Freezes a parsed document and everything in it, so that nothing a run does can change it for the next. */
function deepFreeze(node: unknown): void {
  if (!node || typeof node !== 'object' || Object.isFrozen(node)) return;
  Object.freeze(node);
  for (const value of Object.values(node)) deepFreeze(value);
}

const parsed = new Map<string, { text: string; contract: Contract }>();

/**
 * The contract at `path`, parsed (and its schemas compiled, as runs validate with them) once for as long as the
 * file's text stays the same: a process that runs the suite again and again, as its own tests do (a hundred runs in
 * broken.test.ts), parsed the 200 KB of YAML and compiled the same schemas on every run, a third of a short run's
 * time. The file is read every time, so an edited contract is parsed again; the document is frozen, as runs share it.
 */
export function contractAt(path: string = defaultContractPath): Contract {
  const text = readFileSync(path, 'utf8');
  const last = parsed.get(path);
  if (last?.text === text) return last.contract;
  const doc = parseDocument(text);
  deepFreeze(doc);
  const contract = new Contract(path, doc);
  parsed.set(path, { text, contract });
  return contract;
}
