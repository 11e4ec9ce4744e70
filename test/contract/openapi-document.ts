// Reading openapi.yaml as data: loading, following local $refs, walking operations and examples, and a
// JSON Schema 2020-12 validator that knows the document's components.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { contractPath } from '../../scripts/generated.ts';

export type Node = Record<string, any>;

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  method: string;
  path: string;
  /** `METHOD /path`, for messages. */
  label: string;
  operation: Node;
  /** Path-level parameters followed by the operation's own, refs resolved. */
  parameters: Node[];
}

export function loadContract(): Node {
  return parse(readFileSync(contractPath, 'utf8')) as Node;
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

export interface ExampleSite {
  where: string;
  schema: Node;
  value: unknown;
}

/** Every example in the document with the schema it illustrates: media types, parameters, headers and schemas. */
export function exampleSites(doc: Node): ExampleSite[] {
  const sites: ExampleSite[] = [];
  const fromHolder = (where: string, holder: Node | undefined, schema: Node | undefined) => {
    if (!holder || !schema) return;
    if ('example' in holder) sites.push({ where: `${where} example`, schema, value: holder.example });
    for (const [name, example] of Object.entries<Node>(holder.examples ?? {})) {
      const resolved = deref(doc, example) as Node;
      sites.push({ where: `${where} examples.${name}`, schema, value: resolved.value });
    }
  };
  const fromContent = (where: string, content: Node | undefined) => {
    for (const [type, media] of Object.entries<Node>(content ?? {})) fromHolder(`${where} ${type}`, media, media.schema);
  };
  for (const op of operations(doc)) {
    for (const p of op.parameters) fromHolder(`${op.label} parameter ${p.name}`, p, p.schema);
    fromContent(`${op.label} request`, deref(doc, op.operation.requestBody)?.content);
    for (const [status, raw] of Object.entries<Node>(op.operation.responses ?? {})) {
      const res = deref(doc, raw) as Node;
      fromContent(`${op.label} ${status}`, res.content);
      for (const [name, header] of Object.entries<Node>(res.headers ?? {})) {
        const h = deref(doc, header) as Node;
        fromHolder(`${op.label} ${status} header ${name}`, h, h.schema);
      }
    }
  }
  for (const [name, schema] of Object.entries<Node>(doc.components?.schemas ?? {})) {
    for (const [i, value] of (schema.examples ?? []).entries()) {
      sites.push({ where: `schema ${name} examples[${i}]`, schema: { $ref: `#/components/schemas/${name}` }, value });
    }
  }
  return sites;
}

const documentId = 'urn:jes:openapi';

/**
 * A validator for schemas of this document (JSON Schema 2020-12, the dialect of OpenAPI 3.1). Strict mode
 * stays on for schema keywords, so a misspelt keyword fails instead of being ignored.
 */
export function schemaValidator(doc: Node) {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, strictTuples: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addVocabulary(['components', 'example', 'discriminator', 'xml', 'externalDocs']);
  ajv.addSchema({ $id: documentId, components: { schemas: doc.components?.schemas ?? {} } });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema: Node, value: unknown): string[] => {
    // Local refs in the schema point into the document: anchor them at the document's id.
    const anchored = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${documentId}#/`));
    const key = JSON.stringify(anchored);
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile(anchored);
      cache.set(key, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}
