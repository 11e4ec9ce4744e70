// The server's layers import one way: the HTTP floor (app.ts, http/, routes/) uses the layers below it (store,
// worker, jobs, auth, use cases, solvers, the error catalogue), never the other way round; the error catalogue
// (problems.ts) is on the ground floor so that the store and the worker build problems without HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const src = join(import.meta.dirname, '../src');
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
// The HTTP floor, and the process wiring above it (start-up, the bin, the package's entry, the crash guard).
const httpFloor = (file: string) => /^(http|routes)\//.test(file) || file === 'app.ts';
const wiring = ['main.ts', 'cli.ts', 'index.ts', 'process-guard.ts'];

it('no module below the HTTP floor imports http/, routes/ or app.ts', () => {
  const upward = files
    .filter((file) => !httpFloor(file) && !wiring.includes(file))
    .flatMap((file) => {
      const imports = [...readFileSync(join(src, file), 'utf8').matchAll(/^import[^'"]*['"](\.[^'"]+)['"]/gm)].map(
        (m) => m[1]!,
      );
      return imports
        .map((target) => relative(src, join(src, file, '..', target)))
        .filter(httpFloor)
        .map((target) => `${file} imports ${target}`);
    });
  expect(upward).toEqual([]);
  expect(files.length).toBeGreaterThan(50);
});
