// The checks a run takes, in order: the built-in behavioural checks, the checks of your own (validated here, each
// error naming the module it came from), the response checks (which then validate the answers of them all); narrowed
// by `only` (check names) and `operations` (operationIds: an unknown one is refused with the near one, or the list).
import type { Check } from './checks/check.ts';
import { behaviouralChecks, checks, closingChecks } from './checks/registry.ts';
import { moduleOf } from './check-modules.ts';
import type { Contract } from './contract/contract.ts';
import type { ConformanceOptions } from './types.ts';

const snakeCase = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** Edits (insertions, deletions, substitutions) from `a` to `b`. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The candidate `name` was most likely meant to be (the same but for case, or a few typing errors off), if any. */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  const same = candidates.find((c) => c.toLowerCase() === name.toLowerCase());
  if (same) return same;
  const [best] = candidates
    .map((c) => ({ c, d: distance(name.toLowerCase(), c.toLowerCase()) }))
    .sort((x, y) => x.d - y.d);
  return best && best.d <= Math.max(2, Math.floor(name.length / 5)) ? best.c : undefined;
}

const unknownOperation = (id: string, ids: readonly string[]) => {
  const near = nearest(id, ids);
  return near ? `${id} (did you mean ${near}?)` : id;
};

/** What is wrong with a check of your own, or undefined. */
function problem(check: Partial<Check>, ids: readonly string[]): string | undefined {
  if (typeof check.name !== 'string' || !snakeCase.test(check.name))
    return 'its name is not snake_case (lower-case words joined by _, as --only takes it)';
  if (typeof check.description !== 'string' || !check.description.trim())
    return 'it has no description (a sentence: what passing means)';
  const { operations } = check;
  if (!Array.isArray(operations) || !operations.length || operations.some((op) => typeof op !== 'string'))
    return 'its operations are not a list of operationIds (["*"] for every operation)';
  const unknown = operations.filter((op) => op !== '*' && !ids.includes(op));
  if (unknown.length)
    return `its operations name ${unknown.map((id) => unknownOperation(id, ids)).join(', ')}, which the contract does not have`;
  if (typeof check.run !== 'function') return 'it has no run(ctx) function';
  if (check.skip !== undefined && typeof check.skip !== 'function') return 'its skip is not a function';
  return undefined;
}

/**
 * Every check of a run in its order, the built-in ones with `extra` between the behavioural and the response
 * checks; throws a one-line error naming the module (or the index in `options.checks`) of a check of your own that
 * is not one, or takes a name already taken.
 */
export function runChecks(contract: Contract, extra: readonly Check[] = []): readonly Check[] {
  if (!extra.length) return checks;
  const ids = contract.operationIds;
  const builtIn = new Set(checks.map((c) => c.name));
  const taken = new Map<string, string>();
  for (const [i, check] of extra.entries()) {
    const where = moduleOf(check) ?? `options.checks[${i}]`;
    const what = typeof check?.name === 'string' ? `the check "${check.name}"` : `check ${i + 1}`;
    const wrong = typeof check === 'object' && check !== null ? problem(check, ids) : 'it is not an object';
    if (wrong) throw new Error(`${where}: ${what}: ${wrong}`);
    if (builtIn.has(check.name)) throw new Error(`${where}: ${what} takes the name of a built-in check`);
    const other = taken.get(check.name);
    if (other !== undefined) throw new Error(`${where}: ${what} takes the name of a check of ${other}`);
    taken.set(check.name, where);
  }
  return [...behaviouralChecks, ...extra, ...closingChecks];
}

/**
 * The checks of `all` that `only` names and that exercise one of `operations` (or every operation); throws a
 * one-line error for an unknown check or operation, or when no check is left.
 */
export function selectChecks(
  all: readonly Check[],
  { only = [], operations = [] }: Pick<ConformanceOptions, 'only' | 'operations'>,
  contract: Contract,
): Check[] {
  const names = all.map((c) => c.name);
  const unknown = only.filter((name) => !names.includes(name));
  if (unknown.length)
    throw new Error(
      `unknown check${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the checks are ${names.join(', ')}`,
    );
  const ids = contract.operationIds;
  const missing = operations.filter((id) => !ids.includes(id));
  if (missing.length)
    throw new Error(
      `unknown operation${missing.length > 1 ? 's' : ''} ${missing.map((id) => unknownOperation(id, ids)).join(', ')}; the contract's operations are ${ids.join(', ')}`,
    );
  const selected = all.filter(
    (c) =>
      (!only.length || only.includes(c.name)) &&
      (!operations.length || c.operations.some((op) => op === '*' || operations.includes(op))),
  );
  if (!selected.length) throw new Error(`no check of ${only.join(', ')} exercises ${operations.join(' or ')}`);
  return selected;
}
