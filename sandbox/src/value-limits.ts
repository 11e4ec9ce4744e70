// What a body may not carry whatever its schema allows, refused before Prism sees it, as the reference server
// refuses it at its edge: U+0000 or an unpaired surrogate in any string or property name (PostgreSQL stores
// neither, so a deployment cannot keep them), a number no double holds (1e309), and nesting deeper than 32 levels
// (validators and JSON.stringify recurse). The walk is iterative: a body nested 10,000 deep is refused, not a stack overflow.
import { type FieldError, pointerToken } from './conventions.ts';

export const maxDepth = 32;

/** Why `text` cannot be accepted, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain U+0000 (NUL)';
  if (!text.isWellFormed()) return 'must not contain an unpaired surrogate';
  return undefined;
}

interface Entry {
  value: unknown;
  /** The value's JSON pointer ('' for the whole body). */
  pointer: string;
  /** 1 for the whole body, one more per array or object around it. */
  depth: number;
  /** The member name that leads to the value, checked when the value is reached. */
  name?: string;
}

/** The first value (in document order) of a parsed JSON body or form that cannot be accepted, with its pointer. */
export function unacceptableValue(body: unknown): FieldError | undefined {
  const stack: Entry[] = [{ value: body, pointer: '', depth: 1 }];
  while (stack.length) {
    const { value, pointer, depth, name } = stack.pop()!;
    const at = pointer || '/';
    const nameProblem = name === undefined ? undefined : textProblem(name);
    if (nameProblem) return { pointer: at, detail: nameProblem };
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { pointer: at, detail: problem };
      continue;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) return { pointer: at, detail: 'must be number' };
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return { pointer: at, detail: `must not be nested deeper than ${maxDepth} levels` };
    // Pushed last to first so that they come off the stack in document order. Finite numbers, booleans and null
    // (most of a 4 MiB matrix) get no entry: nothing in them can be refused. A number no double holds (1e309
    // parses as Infinity) is refused where it stands, as the reference server's validator refuses it.
    if (Array.isArray(value)) {
      let infinite: number | undefined;
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (typeof item === 'number' && !Number.isFinite(item)) infinite = i;
        if (typeof item !== 'object' && typeof item !== 'string') continue;
        stack.push({ value: item, pointer: `${pointer}/${i}`, depth: depth + 1 });
      }
      if (infinite !== undefined) return { pointer: `${pointer}/${infinite}`, detail: 'must be number' };
      continue;
    }
    const members = Object.entries(value);
    for (let i = members.length - 1; i >= 0; i--) {
      const [key, item] = members[i]!;
      stack.push({ value: item, pointer: `${pointer}/${pointerToken(key)}`, depth: depth + 1, name: key });
    }
  }
  return undefined;
}
