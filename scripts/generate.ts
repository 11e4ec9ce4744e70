// Regenerates what derives from openapi.yaml (and contract/releases/), the guides, app/ and scripts/launch.js:
// `node scripts/generate.ts [types|changelog|docs|app|bins] [--check]`.
// With --check nothing is written; the command lists stale files and exits 1 if there are any.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { sizeOf } from './app-bundle.ts';
import { type GeneratedKind, leftoverPages, renderGenerated, root, staleFiles } from './generated.ts';

const { values, positionals } = parseArgs({
  options: { check: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const every = ['types', 'changelog', 'docs', 'app', 'bins'] as const;
const kinds = positionals.length > 0 ? (positionals as GeneratedKind[]) : every;
for (const kind of kinds) {
  if (!every.includes(kind)) {
    console.error(`unknown target "${kind}": use ${every.join(', ')}`);
    process.exit(2);
  }
}

if (values.check) {
  const stale = await staleFiles(kinds);
  for (const path of stale) console.error(`stale: ${path} (run npm run generate)`);
  process.exit(stale.length > 0 ? 1 : 0);
}
const files = await renderGenerated(kinds);
for (const file of files) {
  const target = join(root, file.path);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, file.contents);
  console.log(`wrote ${file.path}${file.kind === 'app' ? ` (${sizeOf(file.contents)})` : ''}`);
}
for (const path of await leftoverPages(files)) {
  await rm(join(root, path));
  console.log(`removed ${path}`);
}
