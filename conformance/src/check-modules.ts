// Checks of your own from modules (`--checks ./team-checks.mjs`, `loadChecks`): each module, a path from the current
// folder or a package name (found from that folder as an import there finds it: import-meta-resolve, Node's own
// algorithm, since import.meta.resolve takes no other parent without a flag), is imported, and its `checks` export
// (an array) or its default export (an array, or one check) taken. What each check must be (its name, description, operations, run) is validated with the built-in
// ones when the run takes them (selection.ts), each error naming the module it came from.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve as resolveImport } from 'import-meta-resolve';
import type { Check } from './checks/check.ts';

const modules = new WeakMap<object, string>();

/** The module a check was loaded from, as named to loadChecks (undefined for any other check). */
export function moduleOf(check: unknown): string | undefined {
  return typeof check === 'object' && check !== null ? modules.get(check) : undefined;
}

const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0];

/** The module's file: a path from `cwd` (`./team-checks.mjs`), else a package as an import in `cwd` finds it. */
function locate(specifier: string, cwd: string): string {
  const path = resolve(cwd, specifier);
  if (/^\.{1,2}[\\/]/.test(specifier) || isAbsolute(specifier) || existsSync(path)) {
    if (!existsSync(path)) throw new Error(`${specifier}: no such file (${path})`);
    return path;
  }
  try {
    return fileURLToPath(resolveImport(specifier, pathToFileURL(join(cwd, 'checks.mjs')).href));
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new Error(`${specifier}: no such file or package (from ${cwd})`);
    throw new Error(`${specifier}: ${firstLine(error)}`);
  }
}

/** The checks a module exports: `checks` (an array), else its default export (an array, or one check). */
function exportedChecks(specifier: string, namespace: Record<string, unknown>): unknown[] {
  if (namespace.checks !== undefined) {
    if (!Array.isArray(namespace.checks))
      throw new Error(`${specifier}: its export "checks" is not an array of checks`);
    if (!namespace.checks.length) throw new Error(`${specifier}: its export "checks" is an empty array`);
    return namespace.checks;
  }
  const fallback = namespace.default;
  if (fallback === undefined || (Array.isArray(fallback) && !fallback.length))
    throw new Error(
      `${specifier} exports no checks: export an array named "checks", or a default export (an array of checks, or one)`,
    );
  return Array.isArray(fallback) ? fallback : [fallback];
}

/**
 * Imports the modules (paths from `cwd`, `.mjs` or `.js`, and `.ts` on a Node that strips types; or package names)
 * and returns their checks, in order, for `ConformanceOptions.checks`. Throws a one-line error naming the module
 * when one cannot be found or loaded, or exports no checks.
 */
export async function loadChecks(specifiers: readonly string[], cwd: string = process.cwd()): Promise<Check[]> {
  const loaded = new Map<object, string>();
  for (const specifier of specifiers) {
    const file = locate(specifier, cwd);
    if (/\.[cm]?ts$/i.test(file) && !process.features.typescript)
      throw new Error(
        `${specifier}: Node ${process.version} does not run TypeScript (Node 22.18 or newer, or 24, strips its types); write the module as .mjs`,
      );
    let namespace: Record<string, unknown>;
    try {
      namespace = await import(/* @vite-ignore */ pathToFileURL(file).href);
    } catch (error) {
      throw new Error(`${specifier}: importing it failed: ${firstLine(error)}`);
    }
    for (const [i, check] of exportedChecks(specifier, namespace).entries()) {
      if (typeof check !== 'object' || check === null)
        throw new Error(
          `${specifier}: its check ${i + 1} is ${check === null ? 'null' : typeof check}, not an object with name, description, operations and run`,
        );
      const before = loaded.get(check);
      if (before !== undefined)
        throw new Error(
          `${specifier}: the check "${(check as Check).name}" is ${before === specifier ? 'there twice' : `${before}'s, loaded already`}`,
        );
      loaded.set(check, specifier);
      modules.set(check, specifier);
    }
  }
  return [...loaded.keys()] as Check[];
}
