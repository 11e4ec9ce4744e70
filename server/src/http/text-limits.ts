// What a request may carry beyond its schema, checked at the edge before anything stores or walks it:
// no NUL (PostgreSQL refuses U+0000 in text and jsonb), no unpaired surrogate (jsonb refuses the escape,
// and text would silently become U+FFFD), and no nesting deeper than `maxDepth` (JSON.stringify and the
// validators recurse). The walk is iterative, so a body nested 10,000 deep is refused, not a stack overflow.
import type { FieldError } from '../core/api-error.ts';

export const maxDepth = 32;

/** Why `text` cannot be stored as it is, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain U+0000 (NUL)';
  if (!text.isWellFormed()) return 'must not contain an unpaired surrogate (U+D800 to U+DFFF)';
  return undefined;
}

const escape = (key: string | number) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string | number;
}

function pointerOf(frame: Frame): string {
  const keys: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) keys.push(escape(f.key));
  return keys.length ? `/${keys.reverse().join('/')}` : '/';
}

/** The first value of a parsed JSON body (or form) that cannot be accepted, with its pointer. */
export function unacceptableValue(body: unknown): FieldError | undefined {
  const stack: Frame[] = [{ value: body, depth: 1, parent: undefined, key: '' }];
  while (stack.length) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { pointer: pointerOf(frame), detail: problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth)
      return { pointer: pointerOf(frame), detail: `must not be nested deeper than ${maxDepth} levels` };
    if (Array.isArray(value)) {
      // A matrix row of numbers (most of a 4 MiB body) is passed over without a frame per number.
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (typeof item === 'object' || typeof item === 'string')
          stack.push({ value: item, depth: depth + 1, parent: frame, key: i });
      }
      continue;
    }
    const members = Object.entries(value);
    for (let i = members.length - 1; i >= 0; i--) {
      const [key, item] = members[i]!;
      const member: Frame = { value: item, depth: depth + 1, parent: frame, key };
      const problem = textProblem(key);
      if (problem) return { pointer: pointerOf(member), detail: `its name ${problem}` };
      stack.push(member);
    }
  }
  return undefined;
}
