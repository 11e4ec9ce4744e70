// Builds the package in the current directory (its `build` and `prepack` scripts): dist/ from src/ by tsc with
// tsconfig.build.json (JavaScript for Node 22 and 24, declarations beside it; tsc rewrites the sources' .ts
// import paths in the JavaScript only, so the declarations' are rewritten here), then the repository's files
// the package carries: LICENSE always, and every other entry of its `files` found at the repository's root
// (openapi.yaml, docs/index.html, the folder docs/guides/). dist/src/ keeps src/'s depth below the package, so
// code that finds the contract two folders up from its own file finds the repository's in a clone and the
// package's copy installed.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const here = process.cwd();
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as { name: string; files: string[] };

rmSync(join(here, 'dist'), { recursive: true, force: true });
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
const relativeTs = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\.ts\2/g;
for (const file of readdirSync(join(here, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) =>
  f.endsWith('.d.ts'),
)) {
  const path = join(here, 'dist', file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(relativeTs, '$1$2$3.js$2'));
}

const carried = ['LICENSE', ...pkg.files.filter((file) => file !== 'dist' && file !== 'bin')];
for (const file of carried) {
  const source = join(root, file);
  if (!existsSync(source)) throw new Error(`${pkg.name}: ${file} is in "files" but not at the repository's root`);
  mkdirSync(dirname(join(here, file)), { recursive: true });
  // A folder is copied afresh, so a file removed from the repository is not shipped from an earlier build.
  rmSync(join(here, file), { recursive: true, force: true });
  cpSync(source, join(here, file), { recursive: true });
}
console.log(`${pkg.name}: built dist/, copied ${carried.join(', ')}`);
