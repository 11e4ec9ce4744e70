// Negative data: a valid value with one thing made wrong (a member given a wrong-typed value, a required
// member removed, an unknown member added, an element replaced), kept only when the schema refuses it.
import fc from 'fast-check';

export interface Mutant {
  value: unknown;
  /** JSON pointer to what was changed. */
  pointer: string;
  /** What was done, for messages. */
  how: string;
}

type Path = (string | number)[];

/** Every location inside `value` (the root too). */
function locations(value: unknown, path: Path = []): Path[] {
  const here = [path];
  if (Array.isArray(value)) return here.concat(value.flatMap((item, i) => locations(item, [...path, i])));
  if (value && typeof value === 'object')
    return here.concat(Object.entries(value).flatMap(([k, v]) => locations(v, [...path, k])));
  return here;
}

const toPointer = (path: Path) => path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

const wrongValues: unknown[] = ['text', '', 1.5, -1, 0, 10 ** 13, true, null, [], {}, [1, 'x'], { nested: true }];

function mutate(value: unknown, path: Path, operation: number, replacement: unknown): Mutant {
  const copy = structuredClone(value);
  const parentPath = path.slice(0, -1);
  const key = path.at(-1);
  let parent: any = copy;
  for (const step of parentPath) parent = parent[step];
  const pointer = toPointer(path) || '/';
  if (key === undefined)
    return { value: replacement, pointer, how: `the body replaced by ${JSON.stringify(replacement)}` };
  if (operation === 1 && !Array.isArray(parent)) {
    delete parent[key];
    return { value: copy, pointer, how: `${pointer} removed` };
  }
  if (operation === 2) {
    let target: any = copy;
    for (const step of path) target = target[step];
    if (target && typeof target === 'object' && !Array.isArray(target)) {
      target.unexpected_member = 1;
      return {
        value: copy,
        pointer: `${toPointer(path)}/unexpected_member`,
        how: `an unknown member added at ${pointer}`,
      };
    }
  }
  parent[key] = replacement;
  return { value: copy, pointer, how: `${pointer} set to ${JSON.stringify(replacement)}` };
}

/** Mutants of the values of `valid` that `isInvalid` confirms the schema refuses. */
export function mutantArbitrary(
  valid: fc.Arbitrary<unknown>,
  isInvalid: (value: unknown) => boolean,
): fc.Arbitrary<Mutant> {
  return fc
    .tuple(valid, fc.nat(), fc.integer({ min: 0, max: 2 }), fc.constantFrom(...wrongValues))
    .map(([value, pick, operation, replacement]) => {
      const all = locations(value);
      return mutate(value, all[pick % all.length]!, operation, replacement);
    })
    .filter((mutant) => isInvalid(mutant.value));
}
