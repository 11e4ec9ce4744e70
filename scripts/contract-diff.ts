// What a change of the contract does to the clients and servers built on the version before it, after oasdiff's
// catalogue of breaking changes (its ERR level): a path, an operation, a parameter, a response status, a media type
// or a response member removed; a request member or parameter newly required; a request's type, format, enum or
// bound narrowed, a response's widened; security added to an operation. An enum marked `x-extensible-enum: true`
// (the contract says a client must take a value it does not know) may grow in responses. Everything else that
// differs is listed as a change, for the changelog (scripts/changelog.ts). Schemas are compared by schema-diff.ts. Both
// documents are plain data (YAML parsed), with local $refs.

import { type Comparison, compareSchemas, deref, type Difference, type Node } from './schema-diff.ts';

export type { Difference, Level } from './schema-diff.ts';

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

interface Operation {
  label: string;
  path: string;
  method: string;
  node: Node;
  parameters: Node[];
}

function operationsOf(doc: Node): Map<string, Operation> {
  const map = new Map<string, Operation>();
  for (const [path, item] of Object.entries<Node>(doc.paths ?? {})) {
    for (const method of methods) {
      const node = item[method];
      if (!node) continue;
      const parameters = [...(item.parameters ?? []), ...(node.parameters ?? [])].map((p: Node) => deref(doc, p)!);
      map.set(`${method.toUpperCase()} ${path}`, {
        label: `${method.toUpperCase()} ${path}`,
        path,
        method,
        node,
        parameters,
      });
    }
  }
  return map;
}

const secured = (doc: Node, op: Node) =>
  (op.security ?? doc.security ?? []).some((s: Node) => Object.keys(s).length > 0);

/** Every difference between two versions of the contract, breaking ones first. */
export function compareContracts(old: Node, now: Node): Difference[] {
  const at: Comparison = { docs: { old, new: now }, out: [], seen: new Set() };
  const { out } = at;
  const [before, after] = [operationsOf(old), operationsOf(now)];
  for (const path of Object.keys(old.paths ?? {}))
    if (!(path in (now.paths ?? {})))
      out.push({
        level: 'breaking',
        rule: 'path-removed',
        where: path,
        subject: `\`${path}\``,
        detail: 'no longer served',
      });
  for (const [label, op] of before) {
    const next = after.get(label);
    const found = (level: Difference['level'], rule: string, where: string, detail: string, subject?: string) =>
      out.push({ level, rule, where, operation: label, ...(subject ? { subject } : {}), detail });
    if (!next) {
      if (op.path in (now.paths ?? {})) found('breaking', 'operation-removed', label, 'no longer served');
      continue;
    }
    if (!secured(old, op.node) && secured(now, next.node))
      found('breaking', 'security-added', label, 'now needs credentials');
    // Parameters: removed, newly required, narrowed.
    const key = (p: Node) => `${p.in}:${String(p.name).toLowerCase()}`;
    const nextParams = new Map(next.parameters.map((p) => [key(p), p]));
    const oldParams = new Map(op.parameters.map((p) => [key(p), p]));
    const parameter = (p: Node) => `the ${p.in} parameter \`${p.name}\``;
    for (const [k, p] of oldParams) {
      const q = nextParams.get(k);
      const where = `${label} ${p.in} parameter ${p.name}`;
      if (!q) {
        found('breaking', 'request-parameter-removed', where, 'no longer taken', parameter(p));
        continue;
      }
      if (!p.required && q.required)
        found('breaking', 'request-parameter-became-required', where, 'now required', parameter(p));
      compareSchemas(at, p.schema, q.schema, 'request', where, { operation: label, place: parameter(p), path: '' });
    }
    for (const [k, q] of nextParams) {
      if (oldParams.has(k)) continue;
      const where = `${label} ${q.in} parameter ${q.name}`;
      if (q.required)
        found('breaking', 'request-parameter-added-required', where, 'a new required parameter', parameter(q));
      else found('change', 'request-parameter-added', where, 'a new optional parameter', parameter(q));
    }
    // The request body: media types kept, members not newly required, schemas not narrowed.
    const [oldBody, newBody] = [deref(old, op.node.requestBody), deref(now, next.node.requestBody)];
    if (!oldBody && newBody?.required)
      found('breaking', 'request-body-added-required', label, 'a request body is now required');
    if (oldBody && newBody) {
      if (!oldBody.required && newBody.required)
        found('breaking', 'request-body-became-required', label, 'a request body is now required');
      for (const [type, media] of Object.entries<Node>(oldBody.content ?? {})) {
        const kept = newBody.content?.[type];
        const where = `${label} request ${type}`;
        if (!kept)
          found(
            'breaking',
            'request-media-type-removed',
            `${label} request`,
            `no longer takes \`${type}\``,
            'the request body',
          );
        else
          compareSchemas(at, media.schema, kept.schema, 'request', where, {
            operation: label,
            place: 'the request body',
            path: '',
          });
      }
    }
    // Responses: statuses and media types kept, schemas not widened, members not removed.
    const [oldResponses, newResponses] = [op.node.responses ?? {}, next.node.responses ?? {}];
    for (const [status, raw] of Object.entries<Node>(oldResponses)) {
      const response = deref(old, raw)!;
      const kept = deref(now, newResponses[status]);
      if (!kept) {
        found('breaking', 'response-status-removed', `${label} ${status}`, `never answers ${status} now`);
        continue;
      }
      const place = `the ${status} answer`;
      for (const [type, media] of Object.entries<Node>(response.content ?? {})) {
        const still = kept.content?.[type];
        if (!still)
          found('breaking', 'response-media-type-removed', `${label} ${status}`, `never \`${type}\` now`, place);
        else
          compareSchemas(at, media.schema, still.schema, 'response', `${label} ${status} ${type}`, {
            operation: label,
            place,
            path: '',
          });
      }
    }
    for (const status of Object.keys(newResponses))
      if (!(status in oldResponses))
        found('change', 'response-status-added', `${label} ${status}`, `may answer ${status} now`);
  }
  for (const label of after.keys())
    if (!before.has(label))
      out.push({ level: 'change', rule: 'operation-added', where: label, operation: label, detail: 'a new operation' });
  return out.sort((a, b) => (a.level === b.level ? 0 : a.level === 'breaking' ? -1 : 1));
}
