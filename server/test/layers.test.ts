// The server's layers import one way. The ground floor (core/: the errors, the use-case and solver interfaces, a
// job's status, the contract as data; config/) imports nothing above it, so that the store, the worker and the use
// cases build an error the service answers with without HTTP. (The use cases' inputs are read by @jes/contract/inputs.)
// The HTTP floor (app.ts, http/, routes/) uses the layers below it (store, worker, jobs, auth, the use cases), never
// the other way round; start/ (start-up, the bin, the crash guard) and the package's entry wire them all. No two
// folders import each other, even through others. And no module knows a use case by name but the use case's own
// folder and the registry (use-cases.ts): adding one is a folder and a line there (issue 14).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const src = join(import.meta.dirname, '../src');
const files = (readdirSync(src, { recursive: true }) as string[]).filter(
  (f) => f.endsWith('.ts') && !f.startsWith('generated/'),
);
const httpFloor = (file: string) => /^(http|routes)\//.test(file) || file === 'app.ts';
const wiring = (file: string) => file.startsWith('start/') || file === 'index.ts';

/** The modules `file` imports, as paths under src/. */
function importsOf(file: string): string[] {
  return [...readFileSync(join(src, file), 'utf8').matchAll(/^(?:import|export)[^'"]*from\s+['"](\.[^'"]+)['"]/gm)].map(
    (m) => relative(src, join(src, file, '..', m[1]!)),
  );
}

// The store, the worker and the jobs' logic say when to try again with an error's retryAfterSeconds, and the error
// handler makes that a header: they name no HTTP header. (auth/'s middleware sends WWW-Authenticate itself.)
it('the store, the worker and the jobs set no response header', () => {
  const setting = files.filter(
    (file) => /^(store|worker|jobs)\//.test(file) && /\bheaders:\s*\{/.test(readFileSync(join(src, file), 'utf8')),
  );
  expect(setting).toEqual([]);
});

it('no module below the HTTP floor imports http/, routes/ or app.ts', () => {
  const upward = files
    .filter((file) => !httpFloor(file) && !wiring(file))
    .flatMap((file) =>
      importsOf(file)
        .filter(httpFloor)
        .map((target) => `${file} imports ${target}`),
    );
  expect(upward).toEqual([]);
  expect(files.length).toBeGreaterThan(50);
});

it('the ground floor imports only the ground floor', () => {
  const ground = (file: string) => /^(core|config)\//.test(file);
  const upward = files.filter(ground).flatMap((file) =>
    importsOf(file)
      .filter((target) => !ground(target))
      .map((target) => `${file} imports ${target}`),
  );
  expect(upward).toEqual([]);
  expect(files.filter(ground).length).toBeGreaterThan(8);
});

it('no folder imports, directly or through others, a folder that imports it', () => {
  const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : undefined);
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const from = folderOf(file);
    if (!from) continue;
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    [...(edges.get(from) ?? [])].some((next) => next === to || (!seen.has(next) && reaches(next, to, seen.add(next))));
  const cycles = [...edges].flatMap(([from, tos]) =>
    [...tos].filter((to) => reaches(to, from)).map((to) => `${from}/ → ${to}/ → … → ${from}/`),
  );
  expect(cycles).toEqual([]);
  expect(edges.size).toBeGreaterThan(3);
});

it('only the use cases’ own folders and the registry name a use case', () => {
  const ids = /maxcut|max-cut|qubo/i;
  const own = (file: string) => /^(maxcut|qubo)\//.test(file) || file === 'use-cases.ts';
  const naming = files.filter((file) => !own(file) && ids.test(readFileSync(join(src, file), 'utf8')));
  expect(naming).toEqual([]);
  expect(files.filter(own).length).toBeGreaterThan(5);
});
