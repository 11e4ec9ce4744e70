// What a change of the contract does to the clients and servers built on the version before it, after oasdiff's
// catalogue of breaking changes (its ERR level): a path, an operation, a parameter, a response status, a media type
// or a response member removed; a request member or parameter newly required; a request's type, format, enum or
// bound narrowed, a response's widened; security added to an operation. An enum marked `x-extensible-enum: true`
// (the contract says a client must take a value it does not know) may grow in responses. Everything else that
// differs is listed as a change, for the changelog. Both documents are plain data (YAML parsed), with local $refs.

type Node = Record<string, any>;
export type Level = 'breaking' | 'change';

export interface Difference {
  level: Level;
  rule: string;
  /** Where in the contract: the operation and the place in it, such as `POST /login request /password`. */
  where: string;
  detail: string;
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function deref(doc: Node, node: Node | undefined): Node | undefined {
  let here = node;
  for (let i = 0; here?.$ref && i < 20; i++) {
    const path = String(here.$ref).replace(/^#\//, '').split('/');
    here = path.reduce<Node | undefined>((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return here;
}

type Direction = 'request' | 'response';

/** The differences between an old and a new schema, seen from the side that sends (request) or receives (response). */
function compareSchemas(
  docs: { old: Node; new: Node },
  before: Node | undefined,
  after: Node | undefined,
  direction: Direction,
  where: string,
  out: Difference[],
  seen: Set<string>,
): void {
  const old = deref(docs.old, before);
  const now = deref(docs.new, after);
  if (!old || !now) return;
  // A schema reached again by the same references (a recursive one, or one shared by many operations) is compared once.
  const pair = `${before?.$ref}|${after?.$ref}|${direction}`;
  if (before?.$ref || after?.$ref) {
    if (seen.has(pair)) return;
    seen.add(pair);
  }
  const breaking = (rule: string, detail: string) => out.push({ level: 'breaking', rule, where, detail });
  const change = (rule: string, detail: string) => out.push({ level: 'change', rule, where, detail });
  const narrowing = direction === 'request';

  const types = (s: Node) => new Set<string>([s.type ?? []].flat());
  const [oldTypes, newTypes] = [types(old), types(now)];
  if (oldTypes.size && newTypes.size) {
    const lost = [...oldTypes].filter((t) => !newTypes.has(t) && !(t === 'integer' && newTypes.has('number')));
    const gained = [...newTypes].filter((t) => !oldTypes.has(t) && !(t === 'integer' && oldTypes.has('number')));
    if (narrowing && lost.length) breaking(`${direction}-type-narrowed`, `no longer takes ${lost.join(', ')}`);
    if (!narrowing && gained.length) breaking(`${direction}-type-widened`, `may now be ${gained.join(', ')}`);
    if (narrowing ? gained.length : lost.length)
      change(`${direction}-type-changed`, `types ${[...newTypes].join(', ')}`);
  }
  if ((old.format ?? null) !== (now.format ?? null))
    breaking(`${direction}-format-changed`, `format ${old.format ?? 'none'} → ${now.format ?? 'none'}`);

  if (Array.isArray(old.enum) || Array.isArray(now.enum)) {
    const oldValues = Array.isArray(old.enum) ? old.enum.map(String) : undefined;
    const newValues = Array.isArray(now.enum) ? now.enum.map(String) : undefined;
    const removed = oldValues?.filter((v) => !newValues || !newValues.includes(v)) ?? [];
    const added = newValues?.filter((v) => !oldValues?.includes(v)) ?? [];
    if (oldValues && !newValues) change(`${direction}-enum-removed`, 'takes any value now');
    if (!oldValues && newValues)
      (narrowing ? breaking : change)(`${direction}-enum-added`, `only ${newValues.join(', ')}`);
    if (oldValues && newValues) {
      if (narrowing && removed.length) breaking('request-enum-value-removed', `no longer takes ${removed.join(', ')}`);
      if (!narrowing && added.length && now['x-extensible-enum'] !== true)
        breaking('response-enum-value-added', `may now be ${added.join(', ')}`);
      if (narrowing ? added.length : removed.length || (added.length && now['x-extensible-enum'] === true))
        change(`${direction}-enum-changed`, `+${added.join(', ') || '∅'} −${removed.join(', ') || '∅'}`);
    }
  }

  // Upper bounds lowered and lower bounds raised narrow; the reverse widens. An added bound narrows, a removed one widens.
  const bounds: [string, 1 | -1][] = [
    ['maxLength', 1],
    ['maxItems', 1],
    ['maximum', 1],
    ['exclusiveMaximum', 1],
    ['maxProperties', 1],
    ['minLength', -1],
    ['minItems', -1],
    ['minimum', -1],
    ['exclusiveMinimum', -1],
    ['minProperties', -1],
  ];
  for (const [bound, sign] of bounds) {
    const [a, b] = [old[bound], now[bound]];
    if (a === b) continue;
    const narrowed = a === undefined ? true : b === undefined ? false : sign * (b - a) < 0;
    const text = `${bound} ${a ?? 'none'} → ${b ?? 'none'}`;
    if (narrowing ? narrowed : !narrowed) breaking(`${direction}-${bound}-${narrowing ? 'narrowed' : 'widened'}`, text);
    else change(`${direction}-${bound}-changed`, text);
  }
  if ((old.pattern ?? null) !== (now.pattern ?? null))
    change(`${direction}-pattern-changed`, `pattern ${old.pattern ?? 'none'} → ${now.pattern ?? 'none'}`);

  const oldRequired = new Set<string>(old.required ?? []);
  const newRequired = new Set<string>(now.required ?? []);
  const oldProps: Node = old.properties ?? {};
  const newProps: Node = now.properties ?? {};
  for (const name of Object.keys(oldProps)) {
    const at = `${where}/${name}`;
    if (!(name in newProps)) {
      if (narrowing) change('request-property-removed', `${at} no longer documented`);
      else out.push({ level: 'breaking', rule: 'response-property-removed', where: at, detail: 'no longer sent' });
      continue;
    }
    compareSchemas(docs, oldProps[name], newProps[name], direction, at, out, seen);
  }
  for (const name of Object.keys(newProps)) {
    if (!(name in oldProps)) change(`${direction}-property-added`, `${where}/${name}`);
  }
  for (const name of newRequired) {
    if (oldRequired.has(name)) continue;
    if (narrowing)
      out.push({
        level: 'breaking',
        rule: 'request-property-became-required',
        where: `${where}/${name}`,
        detail: 'now required',
      });
    else change('response-property-became-required', `${where}/${name}`);
  }
  for (const name of oldRequired) {
    if (newRequired.has(name)) continue;
    if (!narrowing && name in newProps)
      out.push({
        level: 'breaking',
        rule: 'response-property-became-optional',
        where: `${where}/${name}`,
        detail: 'may be absent now',
      });
    else if (narrowing) change('request-property-became-optional', `${where}/${name}`);
  }
  if (old.items || now.items) compareSchemas(docs, old.items, now.items, direction, `${where}/[]`, out, seen);
  if (typeof old.additionalProperties === 'object' && typeof now.additionalProperties === 'object')
    compareSchemas(docs, old.additionalProperties, now.additionalProperties, direction, `${where}/*`, out, seen);
  // allOf: every part holds, so parts are compared in order. oneOf and anyOf: the alternatives are matched by the
  // schema they name ($ref), else by their place; an alternative gone narrows a request, one more widens a response.
  const [a, b] = [old.allOf ?? [], now.allOf ?? []];
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    compareSchemas(docs, a[i], b[i], direction, `${where}(allOf[${i}])`, out, seen);
  if (a.length !== b.length) change(`${direction}-allOf-changed`, `${where}: ${a.length} → ${b.length} parts`);
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const [was, is] = [(old[combinator] ?? []) as Node[], (now[combinator] ?? []) as Node[]];
    if (!was.length && !is.length) continue;
    const name = (s: Node, i: number) => (s.$ref ? String(s.$ref).split('/').pop()! : `[${i}]`);
    const afterNames = new Map(is.map((s, i) => [name(s, i), s]));
    const beforeNames = new Map(was.map((s, i) => [name(s, i), s]));
    for (const [n, s] of beforeNames) {
      const kept = afterNames.get(n);
      if (kept) compareSchemas(docs, s, kept, direction, `${where}(${n})`, out, seen);
      else if (is.length && narrowing) breaking(`request-${combinator}-alternative-removed`, `no longer takes ${n}`);
      else change(`${direction}-${combinator}-alternative-removed`, `${where}: ${n}`);
    }
    for (const n of afterNames.keys()) {
      if (beforeNames.has(n)) continue;
      if (!narrowing) breaking(`response-${combinator}-alternative-added`, `may now be ${n}`);
      else change(`request-${combinator}-alternative-added`, `${where}: ${n}`);
    }
  }
}

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
  const docs = { old, new: now };
  const out: Difference[] = [];
  const seen = new Set<string>();
  const [before, after] = [operationsOf(old), operationsOf(now)];
  for (const path of Object.keys(old.paths ?? {}))
    if (!(path in (now.paths ?? {})))
      out.push({ level: 'breaking', rule: 'path-removed', where: path, detail: 'no longer served' });
  for (const [label, op] of before) {
    const next = after.get(label);
    if (!next) {
      if (op.path in (now.paths ?? {}))
        out.push({ level: 'breaking', rule: 'operation-removed', where: label, detail: 'no longer served' });
      continue;
    }
    if (!secured(old, op.node) && secured(now, next.node))
      out.push({ level: 'breaking', rule: 'security-added', where: label, detail: 'now needs credentials' });
    // Parameters: removed, newly required, narrowed.
    const key = (p: Node) => `${p.in}:${String(p.name).toLowerCase()}`;
    const nextParams = new Map(next.parameters.map((p) => [key(p), p]));
    const oldParams = new Map(op.parameters.map((p) => [key(p), p]));
    for (const [k, p] of oldParams) {
      const q = nextParams.get(k);
      const where = `${label} ${p.in} parameter ${p.name}`;
      if (!q) {
        out.push({ level: 'breaking', rule: 'request-parameter-removed', where, detail: 'no longer taken' });
        continue;
      }
      if (!p.required && q.required)
        out.push({ level: 'breaking', rule: 'request-parameter-became-required', where, detail: 'now required' });
      compareSchemas(docs, p.schema, q.schema, 'request', where, out, seen);
    }
    for (const [k, q] of nextParams) {
      if (oldParams.has(k)) continue;
      const where = `${label} ${q.in} parameter ${q.name}`;
      if (q.required)
        out.push({
          level: 'breaking',
          rule: 'request-parameter-added-required',
          where,
          detail: 'a new required parameter',
        });
      else out.push({ level: 'change', rule: 'request-parameter-added', where, detail: 'a new optional parameter' });
    }
    // The request body: media types kept, members not newly required, schemas not narrowed.
    const [oldBody, newBody] = [deref(old, op.node.requestBody), deref(now, next.node.requestBody)];
    if (!oldBody && newBody?.required)
      out.push({
        level: 'breaking',
        rule: 'request-body-added-required',
        where: label,
        detail: 'a body is now required',
      });
    if (oldBody && newBody) {
      if (!oldBody.required && newBody.required)
        out.push({
          level: 'breaking',
          rule: 'request-body-became-required',
          where: label,
          detail: 'a body is now required',
        });
      for (const [type, media] of Object.entries<Node>(oldBody.content ?? {})) {
        const kept = newBody.content?.[type];
        if (!kept)
          out.push({
            level: 'breaking',
            rule: 'request-media-type-removed',
            where: `${label} request`,
            detail: `${type} no longer taken`,
          });
        else compareSchemas(docs, media.schema, kept.schema, 'request', `${label} request ${type}`, out, seen);
      }
    }
    // Responses: statuses and media types kept, schemas not widened, members not removed.
    const [oldResponses, newResponses] = [op.node.responses ?? {}, next.node.responses ?? {}];
    for (const [status, raw] of Object.entries<Node>(oldResponses)) {
      const response = deref(old, raw)!;
      const kept = deref(now, newResponses[status]);
      if (!kept) {
        out.push({
          level: 'breaking',
          rule: 'response-status-removed',
          where: `${label} ${status}`,
          detail: 'no longer answered',
        });
        continue;
      }
      for (const [type, media] of Object.entries<Node>(response.content ?? {})) {
        const still = kept.content?.[type];
        if (!still)
          out.push({
            level: 'breaking',
            rule: 'response-media-type-removed',
            where: `${label} ${status}`,
            detail: `${type} no longer answered`,
          });
        else compareSchemas(docs, media.schema, still.schema, 'response', `${label} ${status} ${type}`, out, seen);
      }
    }
    for (const status of Object.keys(newResponses))
      if (!(status in oldResponses))
        out.push({
          level: 'change',
          rule: 'response-status-added',
          where: `${label} ${status}`,
          detail: 'a new answer',
        });
  }
  for (const label of after.keys())
    if (!before.has(label))
      out.push({ level: 'change', rule: 'operation-added', where: label, detail: 'a new operation' });
  return out.sort((a, b) => (a.level === b.level ? 0 : a.level === 'breaking' ? -1 : 1));
}
