// The differences between two versions of one schema of the contract, seen from the side that sends it (a request:
// narrowing breaks its clients) or receives it (a response: widening does), for scripts/contract-diff.ts. Each is
// told in words a client author reads, for the gate's output and the changelog, and names the member it concerns by
// the schema of components/schemas that holds it, as the reference does.

export type Node = Record<string, any>;
export type Level = 'breaking' | 'change';

export interface Difference {
  level: Level;
  rule: string;
  /** Where in the contract: the operation and the place in it, such as `POST /login request /password`. */
  where: string;
  /**
   * The operation it concerns, such as `GET /job`. Absent for a path removed whole, and for a change of a schema of
   * components/schemas: that is compared once, however many operations use it.
   */
  operation?: string;
  /**
   * What changed, as markdown: a member named from the schema that holds it (`Job.executions.*.data`: `*` any key
   * of a map, `[]` any item of a list), a parameter, a member of an inline body, an answer; absent when the
   * operation itself changed (added, removed, a new answer).
   */
  subject?: string;
  /** What happened to it: `no longer sent`, ``may now be `QuboOutput` ``, `at most 512 characters now (was 255)`. */
  detail: string;
}

export type Direction = 'request' | 'response';

/** Where a schema is, for naming what changed in it. */
export interface Site {
  operation: string;
  /** The place in the operation, in words: `the request body`, `the 200 answer`, ``the header parameter `X` ``. */
  place: string;
  /** The nearest schema of components/schemas and the members below it, such as `Job.executions.*`. */
  named?: string;
  /** The members below the place, such as `job.*.status`. */
  path: string;
}

export interface Comparison {
  docs: { old: Node; new: Node };
  out: Difference[];
  /** The pairs of referenced schemas already compared: a recursive or shared schema is compared once. */
  seen: Set<string>;
}

export function deref(doc: Node, node: Node | undefined): Node | undefined {
  let here = node;
  for (let i = 0; here?.$ref && i < 20; i++) {
    const path = String(here.$ref).replace(/^#\//, '').split('/');
    here = path.reduce<Node | undefined>((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return here;
}

const componentName = (node: Node | undefined) => /^#\/components\/schemas\/([^/]+)$/.exec(node?.$ref ?? '')?.[1];

/** The site one step down: `.name` (a member), `.*` (any value of a map) or `[]` (any item of a list). */
function below(site: Site, step: string): Site {
  const path = `${site.path}${step}`.replace(/^\./, '');
  return site.named ? { ...site, named: `${site.named}${step}`, path } : { ...site, path };
}

export function subjectOf(site: Site): string {
  if (site.named) return `\`${site.named}\``;
  return site.path ? `\`${site.path}\` in ${site.place}` : site.place;
}

/** Records a difference found at `site`: a member of a named schema is told without the operation that reached it. */
function report(at: Comparison, site: Site, found: Pick<Difference, 'level' | 'rule' | 'where' | 'detail'>): void {
  at.out.push({ ...found, ...(site.named ? {} : { operation: site.operation }), subject: subjectOf(site) });
}

const code = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');

/** A bound in words: `at most 255 characters`. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const boundWords: Record<string, (n: number) => string> = {
  maxLength: (n) => `at most ${count(n, 'character')}`,
  maxItems: (n) => `at most ${count(n, 'item')}`,
  maximum: (n) => `at most ${n}`,
  exclusiveMaximum: (n) => `below ${n}`,
  maxProperties: (n) => `at most ${count(n, 'member')}`,
  minLength: (n) => `at least ${count(n, 'character')}`,
  minItems: (n) => `at least ${count(n, 'item')}`,
  minimum: (n) => `at least ${n}`,
  exclusiveMinimum: (n) => `above ${n}`,
  minProperties: (n) => `at least ${count(n, 'member')}`,
};
/** Upper bounds lowered and lower bounds raised narrow; the reverse widens. An added bound narrows, a removed one widens. */
const boundSigns: [string, 1 | -1][] = [
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

/** The differences between an old and a new schema, seen from the side that sends (request) or receives (response). */
export function compareSchemas(
  at: Comparison,
  before: Node | undefined,
  after: Node | undefined,
  direction: Direction,
  where: string,
  site: Site,
): void {
  const old = deref(at.docs.old, before);
  const now = deref(at.docs.new, after);
  if (!old || !now) return;
  const pair = `${before?.$ref}|${after?.$ref}|${direction}`;
  if (before?.$ref || after?.$ref) {
    if (at.seen.has(pair)) return;
    at.seen.add(pair);
  }
  // Named as the new version names it: a member that was a schema of its own and is now written inline keeps the
  // name of the member holding it.
  const component = componentName(after);
  const here: Site = component ? { ...site, named: component } : site;
  const record = (level: Level, rule: string, detail: string, place = where, of = here) =>
    report(at, of, { level, rule, where: place, detail });
  const breaking = (rule: string, detail: string) => record('breaking', rule, detail);
  const change = (rule: string, detail: string) => record('change', rule, detail);
  const narrowing = direction === 'request';

  // A single schema that becomes a choice (oneOf, anyOf), or the reverse, is compared as a choice of itself alone: a
  // response that was MaxCutOutput and may now be MaxCutOutput or QuboOutput gained an alternative; it did not lose
  // MaxCutOutput's members.
  const choice = (s: Node) => (s.oneOf ? ('oneOf' as const) : s.anyOf ? ('anyOf' as const) : undefined);
  const [was, is] = [choice(old), choice(now)];
  if (!was !== !is) {
    const alternatives = [was ? old[was] : [before], is ? now[is] : [after]] as [Node[], Node[]];
    compareAlternatives(at, (was ?? is)!, ...alternatives, direction, where, here);
    return;
  }

  const types = (s: Node) => new Set<string>([s.type ?? []].flat());
  const [oldTypes, newTypes] = [types(old), types(now)];
  if (oldTypes.size && newTypes.size) {
    const lost = [...oldTypes].filter((t) => !newTypes.has(t) && !(t === 'integer' && newTypes.has('number')));
    const gained = [...newTypes].filter((t) => !oldTypes.has(t) && !(t === 'integer' && oldTypes.has('number')));
    if (narrowing && lost.length) breaking('request-type-narrowed', `no longer takes ${lost.join(' or ')}`);
    if (!narrowing && gained.length) breaking('response-type-widened', `may now be ${gained.join(' or ')}`);
    if (narrowing && gained.length) change('request-type-changed', `now also takes ${gained.join(' or ')}`);
    if (!narrowing && lost.length) change('response-type-changed', `is never ${lost.join(' or ')} now`);
  }
  if ((old.format ?? null) !== (now.format ?? null))
    breaking(`${direction}-format-changed`, `format ${now.format ?? 'none'} now (was ${old.format ?? 'none'})`);

  if (Array.isArray(old.enum) || Array.isArray(now.enum)) {
    const oldValues = Array.isArray(old.enum) ? old.enum.map(String) : undefined;
    const newValues = Array.isArray(now.enum) ? now.enum.map(String) : undefined;
    const removed = oldValues?.filter((v) => !newValues || !newValues.includes(v)) ?? [];
    const added = newValues?.filter((v) => !oldValues?.includes(v)) ?? [];
    const extensible = now['x-extensible-enum'] === true;
    if (oldValues && !newValues) change(`${direction}-enum-removed`, 'no longer limited to a list of values');
    if (!oldValues && newValues)
      (narrowing ? breaking : change)(`${direction}-enum-added`, `one of ${code(newValues)} now`);
    if (oldValues && newValues) {
      if (narrowing && removed.length) breaking('request-enum-value-removed', `no longer takes ${code(removed)}`);
      if (!narrowing && added.length && !extensible) breaking('response-enum-value-added', `may now be ${code(added)}`);
      const told = [
        narrowing && added.length ? `now also takes ${code(added)}` : '',
        !narrowing && added.length && extensible
          ? `may now be ${code(added)} (a client takes a value it does not know)`
          : '',
        !narrowing && removed.length ? `is never ${code(removed)} now` : '',
      ].filter(Boolean);
      if (told.length) change(`${direction}-enum-changed`, told.join('; '));
    }
  }

  for (const [bound, sign] of boundSigns) {
    const [a, b] = [old[bound], now[bound]];
    if (a === b) continue;
    const narrowed = a === undefined ? true : b === undefined ? false : sign * (b - a) < 0;
    const words = boundWords[bound]!;
    const text =
      b === undefined
        ? `no longer ${words(a)}`
        : `${words(b)} now (${a === undefined ? 'no such bound before' : `was ${a}`})`;
    if (narrowing ? narrowed : !narrowed) breaking(`${direction}-${bound}-${narrowing ? 'narrowed' : 'widened'}`, text);
    else change(`${direction}-${bound}-changed`, text);
  }
  if ((old.pattern ?? null) !== (now.pattern ?? null)) {
    const pattern = (p: string | undefined) => (p === undefined ? 'no pattern' : `the pattern \`${p}\``);
    change(`${direction}-pattern-changed`, `${pattern(now.pattern)} now (was ${pattern(old.pattern)})`);
  }

  const oldRequired = new Set<string>(old.required ?? []);
  const newRequired = new Set<string>(now.required ?? []);
  const oldProps: Node = old.properties ?? {};
  const newProps: Node = now.properties ?? {};
  const member = (name: string) => [`${where}/${name}`, below(here, `.${name}`)] as const;
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) {
      if (narrowing) record('change', 'request-property-removed', 'no longer documented', ...member(name));
      else record('breaking', 'response-property-removed', 'no longer sent', ...member(name));
      continue;
    }
    compareSchemas(at, oldProps[name], newProps[name], direction, ...member(name));
  }
  for (const name of Object.keys(newProps)) {
    if (name in oldProps) continue;
    const required = newRequired.has(name);
    if (narrowing && required)
      record('breaking', 'request-property-became-required', 'a new member, required', ...member(name));
    else {
      const what = narrowing ? 'a new optional member' : required ? 'a new member, always sent' : 'a new member';
      record('change', `${direction}-property-added`, what, ...member(name));
    }
  }
  for (const name of newRequired) {
    if (oldRequired.has(name) || (name in newProps && !(name in oldProps))) continue;
    if (narrowing) record('breaking', 'request-property-became-required', 'now required', ...member(name));
    else record('change', 'response-property-became-required', 'now always sent', ...member(name));
  }
  for (const name of oldRequired) {
    if (newRequired.has(name)) continue;
    if (!narrowing && name in newProps)
      record('breaking', 'response-property-became-optional', 'may be absent now', ...member(name));
    else if (narrowing) record('change', 'request-property-became-optional', 'now optional', ...member(name));
  }
  if (old.items || now.items) compareSchemas(at, old.items, now.items, direction, `${where}/[]`, below(here, '[]'));
  if (typeof old.additionalProperties === 'object' && typeof now.additionalProperties === 'object') {
    const values = below(here, '.*');
    compareSchemas(at, old.additionalProperties, now.additionalProperties, direction, `${where}/*`, values);
  }
  // allOf: every part holds, so parts are compared in order.
  const [a, b] = [old.allOf ?? [], now.allOf ?? []];
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    compareSchemas(at, a[i], b[i], direction, `${where}(allOf[${i}])`, here);
  if (a.length !== b.length) change(`${direction}-allOf-changed`, `made of ${b.length} parts now (was ${a.length})`);
  for (const combinator of ['oneOf', 'anyOf'] as const) {
    const [was, is] = [(old[combinator] ?? []) as Node[], (now[combinator] ?? []) as Node[]];
    if (was.length || is.length) compareAlternatives(at, combinator, was, is, direction, where, here);
  }
}

/**
 * oneOf and anyOf: the alternatives are matched by the schema they name ($ref), else by their title or type when no
 * other alternative shares it, else by their place. An alternative gone narrows a request; one more widens a response.
 */
function compareAlternatives(
  at: Comparison,
  combinator: 'oneOf' | 'anyOf',
  was: Node[],
  is: Node[],
  direction: Direction,
  where: string,
  site: Site,
): void {
  const label = (s: Node) => componentName(s) ?? s.title ?? (s.type ? [s.type].flat().join(' or ') : undefined);
  const named = (list: Node[]) =>
    new Map(
      list.map((s, i) => {
        const name = label(s);
        const unique = name !== undefined && list.filter((other) => label(other) === name).length === 1;
        return [unique ? name : `alternative ${i + 1}`, s];
      }),
    );
  const [before, after] = [named(was), named(is)];
  const record = (level: Level, rule: string, detail: string) => report(at, site, { level, rule, where, detail });
  const narrowing = direction === 'request';
  const shown = (name: string) => (name.startsWith('alternative ') ? name : `\`${name}\``);
  for (const [name, schema] of before) {
    const kept = after.get(name);
    if (kept) compareSchemas(at, schema, kept, direction, `${where}(${name})`, site);
    else if (is.length && narrowing)
      record('breaking', `request-${combinator}-alternative-removed`, `no longer takes ${shown(name)}`);
    else record('change', `${direction}-${combinator}-alternative-removed`, `is never ${shown(name)} now`);
  }
  for (const name of after.keys()) {
    if (before.has(name)) continue;
    if (!narrowing) record('breaking', `response-${combinator}-alternative-added`, `may now be ${shown(name)}`);
    else record('change', `request-${combinator}-alternative-added`, `now also takes ${shown(name)}`);
  }
}
