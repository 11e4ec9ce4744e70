// docs/index.html opened in headless Chromium (Debian's package, driven by playwright-core), used as a
// reader would: every tag of openapi.yaml expands to its operations, every operation opens on its
// summary, no script fails, and nothing is fetched from another machine.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/generated.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { loadContract, operations } from '../contract/openapi-document.ts';

const available = !chromiumMissing('the docs browser test');

const byTag = new Map<string, string[]>();
for (const op of operations(loadContract())) {
  const tag = op.operation.tags[0] as string;
  byTag.set(tag, [...(byTag.get(tag) ?? []), op.operation.summary as string]);
}

describe.skipIf(!available)('docs/index.html in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const remote: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const isLocal = (url: string) => /^(file|data|blob):/.test(url);
    // Scripts must not even try to reach another machine (telemetry is off at the source); anything else
    // remote (Redoc's footer logo) must be stopped by the page's Content-Security-Policy before the network.
    page.on('request', (r) => {
      if (!isLocal(r.url()) && ['fetch', 'xhr', 'websocket', 'eventsource'].includes(r.resourceType())) remote.push(`${r.url()} (attempted by a script)`);
    });
    page.on('requestfinished', (r) => isLocal(r.url()) || remote.push(`${r.url()} (fetched)`));
    page.on('requestfailed', (r) => isLocal(r.url()) || r.failure()?.errorText === 'csp' || remote.push(`${r.url()} (${r.failure()?.errorText})`));
    await page.goto(pathToFileURL(join(root, 'docs/index.html')).href, { waitUntil: 'load' });
  });

  afterAll(async () => {
    await browser?.close();
  });

  const menu = () => page.locator('.menu-content');

  it.each([...byTag])('the %s tag lists its operations: %s', async (tag, summaries) => {
    await menu().getByText(tag, { exact: true }).first().click();
    for (const summary of summaries) {
      const entry = menu().getByText(summary, { exact: true }).first();
      await entry.waitFor({ state: 'visible', timeout: 5_000 });
      await entry.click();
      // Matched on text: the heading's accessible name also holds its deep-link label.
      const heading = page.locator('h1, h2').filter({ hasText: new RegExp(`^${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
      await heading.first().waitFor({ state: 'visible', timeout: 5_000 });
    }
  });

  it('runs without script errors', () => {
    expect(pageErrors).toEqual([]);
  });

  it('fetches nothing from another machine', () => {
    expect(remote).toEqual([]);
  });
});
