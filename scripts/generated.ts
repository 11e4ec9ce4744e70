// Everything derived from openapi.yaml and the guides, rendered in memory: the TypeScript types (in @jes/contract),
// the HTML reference (with request samples), the changelog (from contract/releases/ and openapi.yaml), the guides as
// HTML pages, and each package's copy of the launcher its commands start through. `scripts/generate.ts` writes these
// files; the drift test compares them.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { stringify } from 'yaml';
import { appDir, renderApp } from './app-bundle.ts';
import { changelogPath, renderChangelog } from './changelog.ts';
import { sampleLanguages, withCodeSamples } from './code-samples.ts';
import { renderGuides } from './guides.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const contractPath = join(root, 'openapi.yaml');

export type GeneratedKind = 'types' | 'changelog' | 'docs' | 'app' | 'bins';
export interface GeneratedFile {
  kind: GeneratedKind;
  /** Path relative to the repository root. */
  path: string;
  contents: string;
}

/** The generated types, once: in @jes/contract, which every package that uses them imports. */
const typeTargets = ['contract/src/generated/openapi.ts'];
/** Each package's bin/launch.js, the Node version check and launcher of its commands: a copy of scripts/launch.js. */
const launcherTargets = ['client', 'conformance', 'sandbox', 'server'].map((pkg) => `${pkg}/bin/launch.js`);
const docsTarget = 'docs/index.html';
const guidesDir = 'docs/guides';

async function renderTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(contractPath), { silent: true });
  return `${COMMENT_HEADER}// Source: openapi.yaml. Regenerate with \`npm run generate\`.\n\n${astToString(ast)}`;
}

/**
 * The reference must work offline and must not phone home from readers' browsers: telemetry is off (see
 * renderDocs), the footer's logo is part of the page (redoclyLogos), and this policy stops anything else.
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

/**
 * Redoc's "API docs by" footer shows Redocly's logo from its CDN, which the policy blocks (a console error on every
 * visit) and no option removes: the page carries a wordmark of its own instead, as data URIs the policy allows.
 */
function wordmark(text: string, width: number): string {
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16">`,
    `<text x="0" y="13" textLength="${width}" lengthAdjust="spacingAndGlyphs" font-family="system-ui, sans-serif"`,
    ` font-size="15" font-weight="600" fill="#0044d4">${text}</text></svg>`,
  ].join('');
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
const redoclyLogos: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': wordmark('Redocly', 60),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': wordmark('R', 11),
};

async function renderDocs(): Promise<string> {
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const dir = await mkdtemp(join(tmpdir(), 'jes-docs-'));
  try {
    const out = join(dir, 'index.html');
    // What Redocly renders is the contract with its request samples (x-codeSamples), which openapi.yaml leaves out.
    const bundle = join(dir, 'openapi.yaml');
    const doc = withCodeSamples(await readFile(contractPath, 'utf8'));
    await writeFile(bundle, stringify(doc, { lineWidth: 0 }));
    // Redoc's options: no telemetry, and the samples to show (those whose label `codeSamples.languages` lists, as
    // tabs in that order).
    const options = join(dir, 'redoc-options.json');
    const redocOptions = { disableTelemetry: true, codeSamples: { languages: sampleLanguages(doc) } };
    await writeFile(options, JSON.stringify(redocOptions));
    // --inlineBundle: the page works offline and from the file system, with no CDN.
    const args = ['build-docs', bundle, '--inlineBundle', `--openapi=${options}`, '-o', out];
    await promisify(execFile)(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
    });
    let html = await readFile(out, 'utf8');
    const charset = '<meta charset="utf8" />';
    if (!html.includes(charset))
      throw new Error('redocly build-docs output changed: no charset meta to anchor the policy');
    for (const [url, logo] of Object.entries(redoclyLogos)) {
      if (!html.includes(url)) throw new Error(`redocly build-docs output changed: no ${url} to replace`);
      html = html.replaceAll(url, logo);
    }
    return html.replace(
      charset,
      `${charset}\n  <meta http-equiv="Content-Security-Policy" content="${docsContentSecurityPolicy}">`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function renderGenerated(
  kinds: readonly GeneratedKind[] = ['types', 'changelog', 'docs', 'app', 'bins'],
): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  const changelog = kinds.includes('changelog') || kinds.includes('docs') ? renderChangelog(root) : '';
  if (kinds.includes('changelog')) files.push({ kind: 'changelog', path: changelogPath, contents: changelog });
  if (kinds.includes('bins')) {
    const source = await readFile(join(root, 'scripts/launch.js'), 'utf8');
    const contents = `// Generated from scripts/launch.js by \`npm run generate\`: do not edit.\n${source}`;
    files.push(...launcherTargets.map((path) => ({ kind: 'bins' as const, path, contents })));
  }
  if (kinds.includes('types')) {
    const contents = await renderTypes();
    files.push(...typeTargets.map((path) => ({ kind: 'types' as const, path, contents })));
  }
  if (kinds.includes('docs')) {
    files.push({ kind: 'docs', path: docsTarget, contents: await renderDocs() });
    const guides = await renderGuides(join(root, 'docs'), { changelog });
    files.push(...guides.map((guide) => ({ kind: 'docs' as const, ...guide })));
  }
  if (kinds.includes('app')) files.push(...(await renderApp(root)).map((file) => ({ kind: 'app' as const, ...file })));
  return files;
}

/**
 * Files in docs/guides/ that no guide produces any more (a guide removed or renamed), and in docs/app/ that the
 * dashboard's build no longer makes (an earlier hash): generate deletes them.
 */
export async function leftoverPages(files: readonly GeneratedFile[]): Promise<string[]> {
  const leftovers: string[] = [];
  for (const [kind, dir] of [
    ['docs', guidesDir],
    ['app', appDir],
  ] as const) {
    if (!files.some((file) => file.kind === kind)) continue;
    const pages = await readdir(join(root, dir)).catch(() => []);
    leftovers.push(
      ...pages.map((page) => `${dir}/${page}`).filter((path) => !files.some((file) => file.path === path)),
    );
  }
  return leftovers;
}

/** The generated files whose committed contents differ from what openapi.yaml and the guides produce now. */
export async function staleFiles(kinds?: readonly GeneratedKind[]): Promise<string[]> {
  const stale: string[] = [];
  const files = await renderGenerated(kinds);
  for (const file of files) {
    const committed = await readFile(join(root, file.path), 'utf8').catch(() => undefined);
    if (committed !== file.contents) stale.push(file.path);
  }
  return [...stale, ...(await leftoverPages(files))];
}
