// The keys and types of a JSON answer, with what varies from one deployment or one moment to the next left out:
// values (ids, timestamps, request ids, durations, names), the keys of maps by job id or data file identifier
// (`{id}`), the length of arrays (their items are merged, `[]`), and null (a value not there yet). An object that
// says what it is (a job's or an execution's `status`, a problem's `code`, an event's `event`) is compared only with
// objects that say the same: a RUNNING job then and a FINISHED one now differ in their status, which the status
// rule judges, not in their keys; and one whose keys depend on the moment (RUNNING, CANCELLED) by its status alone.

/** Each path of an answer with the types found there (null leaves none). */
export type Shape = Map<string, Set<string>>;

const typeOf = (value: unknown) =>
  value === null ? 'null' : value === undefined ? 'no JSON' : Array.isArray(value) ? 'array' : typeof value;

/** The word an object says it is, or undefined. */
function discriminator(value: Record<string, unknown>): string | undefined {
  for (const key of ['status', 'code', 'event']) if (typeof value[key] === 'string') return value[key];
  return undefined;
}

/**
 * `unsettled`: the statuses of something whose keys depend on the moment it was read (a RUNNING job, a PROCESSING
 * data file, a CANCELLED execution that had or had not improved yet): only its status is compared, not its keys.
 */
export function shapeOf(json: unknown, isId: (key: string) => boolean, unsettled: (status: string) => boolean): Shape {
  const shape: Shape = new Map();
  const walk = (value: unknown, path: string) => {
    const types = shape.get(path) ?? new Set<string>();
    shape.set(path, types);
    const type = typeOf(value);
    if (type !== 'null') types.add(type);
    if (Array.isArray(value)) for (const item of value) walk(item, `${path}/[]`);
    else if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      const said = discriminator(object);
      const inner = said === undefined ? path : `${path}<${said}>`;
      if (said !== undefined) shape.set(inner, new Set(['object']));
      if (said !== undefined && object.status === said && unsettled(said)) return;
      for (const [key, item] of Object.entries(object)) walk(item, `${inner}/${isId(key) ? '{id}' : key}`);
    }
  };
  walk(json, '');
  return shape;
}

/**
 * The nearest part of a path that exists only in some answers (an array's items, a map's entries, an object that
 * says what it is): a path below it is compared only when the other answer has it too.
 */
function anchor(path: string): string | undefined {
  const parts = path.split('/');
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part === '[]' || part.startsWith('{id}') || part.endsWith('>')) return parts.slice(0, i + 1).join('/');
  }
  return undefined;
}

const typesText = (types: Set<string>) => [...types].sort().join(' or ');

/** How the keys and types of two answers differ: a key gone, a new one, another type. */
export function shapeDifferences(then: Shape, now: Shape): string[] {
  const found: string[] = [];
  const comparable = (path: string, other: Shape) => {
    const at = anchor(path);
    // An anchor itself (an array's items, a map's entries) may be there in one answer and not the other.
    return at === undefined || (at !== path && other.has(at));
  };
  // A key gone (or new) is one difference, not one more for each key below it.
  const reported: string[] = [];
  const below = (path: string) => reported.some((r) => path.startsWith(`${r}/`) || path.startsWith(`${r}<`));
  const onlyIn = (one: Shape, other: Shape, what: string) => {
    for (const path of [...one.keys()].sort()) {
      if (other.has(path) || !comparable(path, other) || below(path)) continue;
      reported.push(path);
      found.push(`${path || '/'}: ${what}`);
    }
  };
  onlyIn(then, now, 'there then, missing now');
  onlyIn(now, then, 'new now');
  for (const [path, types] of then) {
    const current = now.get(path);
    if (current?.size && types.size && typesText(types) !== typesText(current))
      found.push(`${path || '/'}: ${typesText(types)} then, ${typesText(current)} now`);
  }
  return found;
}
