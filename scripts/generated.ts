// Everything derived from openapi.yaml, rendered in memory: the TypeScript types of each package that
// uses them and the HTML reference. `scripts/generate.ts` writes these files; the drift test compares them.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const contractPath = join(root, 'openapi.yaml');

export type GeneratedKind = 'types' | 'docs';
export interface GeneratedFile {
  kind: GeneratedKind;
  /** Path relative to the repository root. */
  path: string;
  contents: string;
}

/** The packages that import the generated types, each with its own copy (imports between packages are one-way). */
const typeTargets = ['client/src/generated/openapi.ts', 'server/src/generated/openapi.ts'];
const docsTarget = 'docs/index.html';

async function renderTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(contractPath), { silent: true });
  return `${COMMENT_HEADER}// Source: openapi.yaml. Regenerate with \`npm run generate\`.\n\n${astToString(ast)}`;
}

/**
 * The reference must work offline and must not phone home from readers' browsers: telemetry is off (see
 * renderDocs), and this policy stops anything else the Redoc bundle would fetch (its footer logo).
 */
const docsContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'unsafe-inline' blob:",
  'worker-src blob:',
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'connect-src data: blob:',
].join('; ');

async function renderDocs(): Promise<string> {
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const dir = await mkdtemp(join(tmpdir(), 'jes-docs-'));
  try {
    const out = join(dir, 'index.html');
    // --inlineBundle: the page works offline and from the file system, with no CDN; and no telemetry.
    const args = ['build-docs', contractPath, '--inlineBundle', '--openapi.disableTelemetry=true', '-o', out];
    await promisify(execFile)(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
    const html = await readFile(out, 'utf8');
    const charset = '<meta charset="utf8" />';
    if (!html.includes(charset)) throw new Error('redocly build-docs output changed: no charset meta to anchor the policy');
    return html.replace(charset, `${charset}\n  <meta http-equiv="Content-Security-Policy" content="${docsContentSecurityPolicy}">`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function renderGenerated(kinds: readonly GeneratedKind[] = ['types', 'docs']): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  if (kinds.includes('types')) {
    const contents = await renderTypes();
    files.push(...typeTargets.map((path) => ({ kind: 'types' as const, path, contents })));
  }
  if (kinds.includes('docs')) files.push({ kind: 'docs', path: docsTarget, contents: await renderDocs() });
  return files;
}

/** The generated files whose committed contents differ from what openapi.yaml produces now. */
export async function staleFiles(kinds?: readonly GeneratedKind[]): Promise<string[]> {
  const stale: string[] = [];
  for (const file of await renderGenerated(kinds)) {
    const committed = await readFile(join(root, file.path), 'utf8').catch(() => undefined);
    if (committed !== file.contents) stale.push(file.path);
  }
  return stale;
}
