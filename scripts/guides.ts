// The guides (docs/*.md) rendered to HTML pages (docs/guides/<name>.html) with marked, for the server to serve beside
// the reference (/docs/guides/) and for reading as files. Links are rewritten for the pages' place: a guide's .md
// link to the sibling .html, `index.html` (the reference) to `../index.html`, the contract to `../../openapi.yaml`
// (the server's /openapi.yaml, and the file beside docs/ in a clone or the server's package). Links to other files
// of the repository stay text, as the server does not serve them. A link to a guide or an anchor that does not exist
// fails the generation.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Marked, type Token, type Tokens } from 'marked';

/** The guides in reading order, with their name in each page's navigation (and the reference's Guides list). */
export const guideLabels = {
  'getting-started': 'Getting started',
  'job-lifecycle': 'Job lifecycle',
  errors: 'Errors',
  limits: 'Limits',
  sandbox: 'Sandbox',
  solvers: 'Solvers',
  security: 'Security',
  metrics: 'Metrics',
  performance: 'Performance',
  deployment: 'Deployment',
  tracing: 'Tracing',
  changelog: 'Changelog',
} as const;
export const guideNames = Object.keys(guideLabels) as (keyof typeof guideLabels)[];

export interface Guide {
  name: keyof typeof guideLabels;
  title: string;
  markdown: string;
}

/**
 * Reads docs/*.md, but for the generated guides given as markdown (the changelog, rendered in memory so that one
 * `npm run generate` renders its page from what it writes); a guide missing from guideNames (or the reverse) is an
 * error, so none goes unlinked.
 */
export async function readGuides(docsDir: string, generated: Record<string, string> = {}): Promise<Guide[]> {
  const onDisk = (await readdir(docsDir)).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
  const found = [...new Set([...onDisk, ...Object.keys(generated)])].sort();
  const listed = [...guideNames].sort();
  if (found.join() !== listed.join()) {
    throw new Error(
      `scripts/guides.ts: guideLabels (${listed.join(', ')}) must list the guides in docs/ (${found.join(', ')})`,
    );
  }
  return Promise.all(
    guideNames.map(async (name) => {
      const markdown = generated[name] ?? (await readFile(join(docsDir, `${name}.md`), 'utf8'));
      const title = /^# (.+)$/m.exec(markdown)?.[1];
      if (!title) throw new Error(`docs/${name}.md has no "# " title`);
      return { name, title: plain(title), markdown };
    }),
  );
}

/** A heading's text without its inline markdown (code spans, emphasis, links). */
function plain(text: string): string {
  return text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
}

/** GitHub's anchor for a heading, so links written for GitHub work here too. */
function slugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = plain(text)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

function anchorsOf(markdown: string): Set<string> {
  const slug = slugger();
  const anchors = new Set<string>();
  const walk = (tokens: Token[]) => {
    for (const token of tokens) if (token.type === 'heading') anchors.add(slug((token as Tokens.Heading).text));
  };
  walk(new Marked().lexer(markdown));
  return anchors;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Where a link of docs/<guide>.md points from docs/guides/<guide>.html, or undefined for a file not served. */
function rewrite(href: string, from: string, anchors: Map<string, Set<string>>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  const [path = '', fragment] = href.split('#');
  const check = (guide: string) => {
    if (fragment !== undefined && !anchors.get(guide)?.has(fragment)) {
      throw new Error(`docs/${from}.md links to ${href}: no heading has that anchor`);
    }
  };
  if (path === '') {
    check(from);
    return href;
  }
  const guide = /^([a-z0-9-]+)\.md$/.exec(path)?.[1];
  if (guide !== undefined) {
    if (!anchors.has(guide)) throw new Error(`docs/${from}.md links to ${href}, which is not a guide`);
    check(guide);
    return `${guide}.html${fragment !== undefined ? `#${fragment}` : ''}`;
  }
  if (path === 'index.html') return `../${href}`;
  if (path === '../openapi.yaml') return `../${href}`;
  if (path.startsWith('../')) return undefined;
  throw new Error(
    `docs/${from}.md links to ${href}: neither a guide, the reference, the contract nor a file of the repository`,
  );
}

const style = `
  :root { color-scheme: light dark; --fg: #1d1f24; --muted: #5b6170; --bg: #fff; --line: #dde1e8; --code: #f4f6f9; --link: #1f5fbf; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e4e6eb; --muted: #a2a8b5; --bg: #16181d; --line: #30343d; --code: #21242b; --link: #7aa7f0; } }
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
  nav { border-bottom: 1px solid var(--line); padding: .6rem 1.5rem; font-size: .9rem; display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; }
  nav a { color: var(--muted); text-decoration: none; }
  nav a:hover, nav a[aria-current="page"] { color: var(--fg); }
  nav a[aria-current="page"] { font-weight: 600; }
  main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
  a { color: var(--link); }
  h1, h2, h3 { line-height: 1.25; margin: 2rem 0 .8rem; }
  h1 { font-size: 2rem; }
  h2 { font-size: 1.45rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; }
  code { font: .875em/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: .1em .3em; border-radius: 4px; }
  pre { background: var(--code); padding: .9rem 1rem; border-radius: 6px; overflow-x: auto; }
  pre code { padding: 0; background: none; }
  table { border-collapse: collapse; display: block; overflow-x: auto; margin: 1rem 0; }
  th, td { border: 1px solid var(--line); padding: .35rem .7rem; text-align: left; vertical-align: top; }
  th { background: var(--code); }
`;

/** The policy of every guide: the page is static, with its own inline style, and loads nothing. */
const guideContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'";

function page(guide: Guide, guides: readonly Guide[], body: string): string {
  const links = [
    '<a href="../index.html">API reference</a>',
    ...guides.map(({ name }) => {
      const current = name === guide.name ? ' aria-current="page"' : '';
      return `<a href="${name}.html"${current}>${guideLabels[name]}</a>`;
    }),
  ];
  return `<!DOCTYPE html>
<!-- Generated from docs/${guide.name}.md by scripts/guides.ts: edit the markdown, then run npm run generate. -->
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${guideContentSecurityPolicy}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(guide.title)} · Job Execution Service</title>
  <style>${style}</style>
</head>
<body>
<nav aria-label="Guides">
  ${links.join('\n  ')}
</nav>
<main>
${body}</main>
</body>
</html>
`;
}

/** Each guide as the HTML page docs/guides/<name>.html (path relative to the repository's root). */
export async function renderGuides(
  docsDir: string,
  generated: Record<string, string> = {},
): Promise<{ path: string; contents: string }[]> {
  const guides = await readGuides(docsDir, generated);
  const anchors = new Map(guides.map((g) => [g.name, anchorsOf(g.markdown)]));
  return guides.map((guide) => {
    const slug = slugger();
    const marked = new Marked({
      gfm: true,
      renderer: {
        heading({ tokens, depth, text }) {
          return `<h${depth} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
        },
        link({ href, title, tokens }) {
          const inner = this.parser.parseInline(tokens);
          const target = rewrite(href, guide.name, anchors);
          if (target === undefined) {
            const title = `${href.replace(/^(\.\.\/)+/, '')} in the jes repository`;
            return `<span title="${escapeHtml(title)}">${inner}</span>`;
          }
          return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
        },
        // The markers of tested blocks (<!-- tested: … -->) are for the repository's tests, not for readers.
        html({ text }) {
          return /^\s*<!--[\s\S]*-->\s*$/.test(text) ? '' : text;
        },
      },
    });
    const body = marked.parse(guide.markdown, { async: false });
    return { path: `docs/guides/${guide.name}.html`, contents: page(guide, guides, body) };
  });
}
