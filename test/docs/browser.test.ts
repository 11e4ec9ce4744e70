// The reference and the guides in headless Chromium (Debian's package, driven by playwright-core), used as a
// reader would, both as the reference server serves them (/docs, /docs/guides/…) and opened as files: every tag
// of openapi.yaml expands to its operations, every operation opens on its summary with its curl and @jes/client
// samples, the reference's Guides list opens each guide, and every link of every guide leads to a page (and
// heading) that exists. On every page any console error, script error, failed request (one the page's own
// Content-Security-Policy blocks included), error answer or request to another machine is a failure.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSamples } from '../../scripts/code-samples.ts';
import { contractPath, root } from '../../scripts/generated.ts';
import { guideLabels, guideNames } from '../../scripts/guides.ts';
import type { Running } from '../../server/src/start/main.ts';
import { startTestServer } from '../../server/test/support/server.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';

const available = !chromiumMissing('the docs browser test');
const doc = parse(readFileSync(contractPath, 'utf8'));
const samples = requestSamples(doc);

interface Operation {
  operationId: string;
  summary: string;
}
const byTag = new Map<string, Operation[]>();
for (const item of Object.values<any>(doc.paths)) {
  for (const op of ['get', 'post', 'delete'].map((m) => item[m]).filter(Boolean)) {
    byTag.set(op.tags[0], [...(byTag.get(op.tags[0]) ?? []), { operationId: op.operationId, summary: op.summary }]);
  }
}

let browser: Browser;
let server: Running;
beforeAll(async () => {
  if (!available) return;
  [browser, server] = await Promise.all([launchChromium(), startTestServer()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Visit {
  page: Page;
  /** Everything that went wrong on the page so far. */
  trouble: string[];
}

/** Opens `url` in a new page that records what goes wrong on it. */
async function visit(url: string): Promise<Visit> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const trouble: string[] = [];
  const local = (at: string) => /^(file|data|blob):/.test(at) || at.startsWith(`${server.url}/`);
  page.on('console', (message) => message.type() === 'error' && trouble.push(`console error: ${message.text()}`));
  page.on('pageerror', (error) => trouble.push(`script error: ${error.message}`));
  page.on('request', (request) => local(request.url()) || trouble.push(`a request to another machine: ${request.url()}`));
  page.on('requestfailed', (request) => trouble.push(`request failed: ${request.url().slice(0, 200)} (${request.failure()?.errorText})`));
  page.on('response', (response) => response.status() >= 400 && trouble.push(`${response.status()} for ${response.url()}`));
  await page.goto(url, { waitUntil: 'load' });
  return { page, trouble };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const served = (path: string) => () => `${server.url}${path}`;
const file = (path: string) => () => pathToFileURL(join(root, path)).href;

describe.skipIf(!available).each([
  ['served at /docs', served('/docs')],
  ['opened as docs/index.html', file('docs/index.html')],
])('the reference, %s', (_, url) => {
  let reference: Visit;
  beforeAll(async () => {
    reference = await visit(url());
  });
  afterAll(() => reference?.page.close());
  const menu = () => reference.page.locator('.menu-content');

  it.each([...byTag])('the %s tag lists its operations, each with its request samples', async (tag, operations) => {
    const { page } = reference;
    await menu().getByText(tag, { exact: true }).first().click();
    for (const { operationId, summary } of operations) {
      const entry = menu().getByText(summary, { exact: true }).first();
      await entry.waitFor({ state: 'visible', timeout: 5_000 });
      await entry.click();
      // Matched on text: the heading's accessible name also holds its deep-link label.
      await page.locator('h1, h2').filter({ hasText: new RegExp(`^${escape(summary)}$`) }).first().waitFor({ state: 'visible', timeout: 5_000 });
      const section = page.locator(`[data-section-id$="/${operationId.toLowerCase()}"]`);
      // Each sample is chosen from the language menu (the choice carries over to the next operation).
      for (const sample of samples.filter((s) => s.operationId === operationId).flatMap((s) => [s.curl, s.typescript])) {
        await section.getByRole('button', { name: /^(curl|@jes\/client)/ }).click();
        // The language list may open partly below the window (it is placed absolutely, and a layout change can put the
        // section low on the page): the click goes to the item itself once it shows, wherever it is.
        const item = page.getByRole('menuitem', { name: sample.label, exact: true });
        await item.waitFor({ state: 'visible', timeout: 5_000 });
        await item.dispatchEvent('click');
        const line = sample.source.split('\n').find((l) => /^(curl|const \w+ = await|for await)/.test(l))!;
        await expect.poll(() => section.innerText(), { timeout: 5_000 }).toContain(line);
      }
    }
  });

  it('its Guides list links every guide, and following a link opens it', async () => {
    const { page } = reference;
    await menu().getByText('Guides', { exact: true }).first().click();
    const links = page.locator('a[href^="guides/"]');
    expect(await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]))).toEqual(guideNames.map((name) => [`guides/${name}.html`, guideLabels[name]]));
    await links.first().click();
    await page.waitForURL(/\/guides\/getting-started\.html$/);
    expect(await page.locator('h1').innerText()).toBe('Getting started');
  });

  it('shows no console error, script error, failed request or error answer, and fetches nothing from another machine', () => {
    expect(reference.trouble).toEqual([]);
  });
});

/** Whether a link's target exists: a page the server answers (or a file), and in it the heading of its fragment. */
async function resolves(href: string): Promise<string | undefined> {
  const target = new URL(href);
  let html: string;
  if (target.protocol === 'file:') {
    const path = fileURLToPath(target);
    if (!existsSync(path)) return `${href}: no such file`;
    html = readFileSync(path, 'utf8');
  } else {
    const answer = await fetch(href);
    if (answer.status !== 200) return `${href}: ${answer.status}`;
    html = await answer.text();
  }
  if (target.hash && !html.includes(` id="${decodeURIComponent(target.hash.slice(1))}"`)) return `${href}: no heading with that id`;
  return undefined;
}

describe.skipIf(!available).each(guideNames.flatMap((name) => [
  [`/docs/guides/${name}`, served(`/docs/guides/${name}`)] as const,
  [`docs/guides/${name}.html`, file(`docs/guides/${name}.html`)] as const,
]))('the guide %s', (_, url) => {
  let guide: Visit;
  beforeAll(async () => {
    guide = await visit(url());
  });
  afterAll(() => guide?.page.close());

  it('links only to pages and headings that exist (the reference, the contract, the other guides)', async () => {
    const hrefs = await guide.page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    const own = hrefs.filter((href) => href.startsWith('file:') || href.startsWith(`${server.url}/`));
    expect(own.length).toBeGreaterThan(guideNames.length);
    const broken = (await Promise.all(own.map(resolves))).filter(Boolean);
    expect(broken).toEqual([]);
  });

  it('shows no console error, script error, failed request or error answer, and fetches nothing from another machine', () => {
    expect(guide.trouble).toEqual([]);
  });
});
