// openapi.yaml as data: loading, following local $refs, walking the operations and finding the one a
// request reaches. The suite checks a deployment against this file, never against what the deployment serves.
import { contractPath, parseContract, readContract } from '@jes/contract/node';

export type Node = Record<string, any>;

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The contract the suite holds deployments to by default: the one @jes/contract carries (the repository's own in a clone). */
export const defaultContractPath = contractPath;

export interface Operation {
  method: string;
  path: string;
  /** `METHOD /path`, for messages. */
  label: string;
  operation: Node;
  /** Path-level parameters followed by the operation's own, refs resolved. */
  parameters: Node[];
}

export function loadContract(path: string = defaultContractPath): Node {
  return readContract(path) as Node;
}

/** A contract's text, parsed (contractAt reads the file itself, to know whether it changed). */
export function parseDocument(text: string): Node {
  return parseContract(text) as Node;
}

/** Follows `$ref`s (local JSON pointers only) until a node that is not a reference. */
export function deref(doc: Node, node: Node | undefined): Node | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`reference cycle at ${node?.$ref}`);
    current = pointer(doc, current.$ref);
  }
  return current;
}

/** The node at a local reference such as `#/components/schemas/Job`. */
export function pointer(doc: Node, ref: string): Node | undefined {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
  let current: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    current = current?.[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return current;
}

export function operations(doc: Node): Operation[] {
  const result: Operation[] = [];
  for (const [path, item] of Object.entries<Node>(doc.paths ?? {})) {
    for (const method of httpMethods) {
      const operation = item[method] as Node | undefined;
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(
        (p: Node) => deref(doc, p) as Node,
      );
      result.push({ method, path, label: `${method.toUpperCase()} ${path}`, operation, parameters });
    }
  }
  return result;
}

export function operationById(doc: Node, operationId: string): Operation {
  const found = operations(doc).find((op) => op.operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

/** A response of an operation with refs resolved, or undefined. */
export function response(doc: Node, op: Operation, status: string): Node | undefined {
  return deref(doc, op.operation.responses?.[status]);
}

/** Whether `path` (no query) fits the path template `/job/{job_id}`. */
export function matchesTemplate(template: string, path: string): boolean {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

/** How many templated segments a path has (`/problem/{problem_id}` one, `/problem/qubo` none). */
const templated = (path: string) => (path.match(/\{[^}]+\}/g) ?? []).length;

/**
 * The operation a request reaches, or undefined (a path without operations, or a method the path lacks). A
 * concrete path wins over a template that also fits (POST /problem/qubo is startQuboJob, not startJob), as
 * OpenAPI says and as the server and Prism route, whatever the order of the document.
 */
export function findOperation(doc: Node, method: string, path: string): Operation | undefined {
  const fitting = operations(doc).filter((op) => op.method === method.toLowerCase() && matchesTemplate(op.path, path));
  return fitting.sort((a, b) => templated(a.path) - templated(b.path))[0];
}

/** Whether the operation needs a bearer token (the document's security unless the operation sets its own). */
export function isSecured(doc: Node, op: Operation): boolean {
  const security = (op.operation.security ?? doc.security ?? []) as unknown[];
  return security.length > 0;
}
