// Reading openapi.yaml as data: loading, following local $refs, walking operations and examples, and a
// JSON Schema 2020-12 validator that knows the document's components. The loader, the walk over operations
// and the validator are the conformance suite's (which may import nothing from here); the walk over
// examples is the contract suite's own.
import { loadContract as loadFrom, type Node, operations, deref } from '../../conformance/src/contract/document.ts';
import { contractPath } from '../../scripts/generated.ts';

export {
  deref,
  httpMethods,
  type Node,
  type Operation,
  operationById,
  operations,
  pointer,
  response,
} from '../../conformance/src/contract/document.ts';
export { schemaValidator } from '../../conformance/src/contract/validator.ts';

export function loadContract(): Node {
  return loadFrom(contractPath);
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
    for (const [type, media] of Object.entries<Node>(content ?? {}))
      fromHolder(`${where} ${type}`, media, media.schema);
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
