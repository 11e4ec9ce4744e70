// @jes/server's build, after scripts/build-package.ts: express-openapi-validator as this repository runs it (5.6.2
// with patches/ applied by the root's postinstall) bundled by esbuild into dist/vendor/, with its dependencies and the
// licences of all it holds, and dist/'s imports of the package pointed at the bundle. So `npm i @jes/server` runs the
// validator the clone runs, patch included, with no install script (npm cannot pack a workspace's bundleDependencies
// that are hoisted, npm/cli#3466). Express stays outside: the validator must use the app's own Express.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

const name = 'express-openapi-validator';
const here = process.cwd();
const vendor = join(here, 'dist', 'vendor');
const bundle = join(vendor, `${name}.cjs`);
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
if (pkg.dependencies[name])
  throw new Error(`${name} is bundled into dist/vendor/: it is not a dependency of the package`);

// The patch names the version it was made for; a validator of another version would be bundled unpatched.
const installed = createRequire(join(here, 'package.json'))(`${name}/package.json`).version as string;
const patches = readdirSync(join(here, '..', 'patches')).filter((f) => f.startsWith(`${name}+`));
if (patches.join() !== `${name}+${installed}.patch`)
  throw new Error(`${name} ${installed} is installed but patches/ holds ${patches.join(', ') || 'no patch of it'}`);

const result = await build({
  entryPoints: [name],
  absWorkingDir: here,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['express'],
  outfile: bundle,
  metafile: true,
  legalComments: 'none', // the licences are in the file beside it, whole
  logLevel: 'warning',
});

// Every package the bundle holds, with its licence, found from the package folder of each input file.
const packages = new Map<string, string>();
for (const input of Object.keys(result.metafile.inputs)) {
  const folder = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
  if (folder) packages.set(join(here, folder), folder.replace(/^.*node_modules\//, ''));
}
const notices = [...packages]
  .sort(([, a], [, b]) => a.localeCompare(b))
  .map(([folder, pkgName]) => {
    const { version, license } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const file = readdirSync(folder).find((f) => /^licen[cs]e/i.test(f));
    if (!file) throw new Error(`${pkgName}: no licence file to carry`);
    return `${pkgName}@${version} (${license})\n\n${readFileSync(join(folder, file), 'utf8').trim()}\n`;
  });
mkdirSync(vendor, { recursive: true });
writeFileSync(
  join(vendor, `${name}.LICENSES.txt`),
  `The packages bundled into ${name}.cjs (${name} with jes's patch, patches/ in the repository), and their licences.\n\n` +
    notices.join(`\n${'-'.repeat(80)}\n\n`),
);

// dist/'s imports of the package, pointed at the bundle.
const specifier = new RegExp(`((?:from|import)\\s*\\(?\\s*)(['"])${name}\\2`, 'g');
let rewritten = 0;
for (const file of readdirSync(join(here, 'dist'), { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
  const path = join(here, 'dist', file);
  const text = readFileSync(path, 'utf8');
  const target = `./${relative(dirname(path), bundle)}`.replace(/^\.\/\.\./, '..');
  const replaced = text.replace(specifier, (_, head: string, quote: string) => `${head}${quote}${target}${quote}`);
  if (replaced !== text) {
    writeFileSync(path, replaced);
    rewritten += 1;
  }
}
if (rewritten === 0 || !existsSync(bundle))
  throw new Error(`no file of dist/ imports ${name}: nothing to point at the bundle`);
console.log(
  `bundled ${name} (${packages.size} packages, ${(readFileSync(bundle).length / 1024).toFixed(0)} KiB) into dist/vendor/, imported by ${rewritten} file(s)`,
);
