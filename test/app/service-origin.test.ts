// The dashboard sends a token and a password only where the user chose to, in headless Chromium with the page's own
// Content-Security-Policy in force (not bypassed). The review's attack: a tab logged in to the server, sent to
// /app/?api=http://attacker#/jobs, called the attacker with Authorization: Bearer <alice's token>; a fresh tab at
// /app/?api=… filled the service URL in, so the password went there; and the page's policy allowed connect-src *.
// Two services on other origins record every request they receive: one the server lists in JES_DASHBOARD_ORIGINS,
// one it does not. The listed one must receive nothing until the user confirms it, then never alice's token; the
// unlisted one nothing at all, whatever the user does, as the policy blocks it.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Running } from '../../server/src/start/main.ts';
import { sixNodes, startTestServer, users } from '../../server/test/support/server.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { recordingToken, type RecordingService, startRecordingService } from './recording-service.ts';

const available = !chromiumMissing('the dashboard service-origin test');

let browser: Browser;
let server: Running;
let listed: RecordingService;
let unlisted: RecordingService;
beforeAll(async () => {
  if (!available) return;
  [browser, listed, unlisted] = await Promise.all([launchChromium(), startRecordingService(), startRecordingService()]);
  server = await startTestServer({ JES_DASHBOARD_ORIGINS: listed.url });
});
// Each test reads what the services received while it ran.
beforeEach(() => {
  if (!available) return;
  listed.received.length = 0;
  unlisted.received.length = 0;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await listed?.close();
  await unlisted?.close();
});

/** A tab of its own, with the page's policy in force; `violations` reads what the policy blocked on it. */
async function freshTab(): Promise<{ context: BrowserContext; page: Page; violations(): Promise<string[]> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    const seen: string[] = ((window as any).violations = []);
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  return { context, page, violations: () => page.evaluate(() => (window as any).violations as string[]) };
}

/** The page's heading, once the dashboard has drawn one. */
const heading = (page: Page) => page.locator('main h1').first().textContent();

async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const linkTo = (service: string, fragment = '') => `${server.url}/app/?api=${encodeURIComponent(service)}${fragment}`;

describe.skipIf(!available)('a link naming another service (?api=)', () => {
  let tab: Awaited<ReturnType<typeof freshTab>>;
  let alicesToken: string;
  beforeAll(async () => {
    tab = await freshTab();
  });
  afterAll(() => tab?.context.close());

  it('logs in to its own origin by default, and works there under its policy', async () => {
    const { page } = tab;
    await page.goto(`${server.url}/app/`);
    expect(await page.getByLabel('Service URL').inputValue()).toBe(server.url);
    await logIn(page, 'alice', users.alice);
    await page.getByRole('link', { name: 'Maximum cut' }).waitFor();
    alicesToken = await page.evaluate(() => JSON.parse(sessionStorage.getItem('jes.session')!).token);
    // The policy lets the dashboard do its work: a job started, its chart and its drawing shown.
    await page.goto(`${server.url}/app/#/new/maxcut`);
    await page.getByLabel(/Input \(JSON\)/).fill(JSON.stringify(sixNodes));
    await page.getByRole('button', { name: 'Start the job' }).click();
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 20_000 }).toBe('FINISHED');
    await page.getByTestId('drawn').waitFor();
    expect(await tab.violations()).toEqual([]);
  });

  it('sent to another service while logged in, asks first, naming its origin, and sends it nothing', async () => {
    const { page } = tab;
    await page.goto(linkTo(listed.url, '#/jobs'));
    expect(await heading(page)).toBe('Use another service?');
    expect(await page.locator('main').textContent()).toContain(listed.url);
    // Declined: the tab stays with its own service, logged in, and the link's parameter is gone.
    await page.getByRole('button', { name: `Stay with ${server.url}` }).click();
    await page.locator('table.jobs').waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(listed.received).toEqual([]);
  });

  it("confirmed, goes to that service logged out: alice's token stays with the origin that issued it", async () => {
    const { page } = tab;
    await page.goto(linkTo(listed.url, '#/jobs'));
    await page.getByRole('button', { name: `Use ${listed.url}` }).click();
    await expect.poll(() => heading(page)).toBe('Log in to jes');
    expect(await page.getByLabel('Service URL').inputValue()).toBe(listed.url);
    expect(await page.locator('main').textContent()).toContain(`Your username and password go to ${listed.url}`);
    expect(listed.received).toEqual([]);
    // The user logs in there on purpose: the password goes there, and then only that service's own token.
    await logIn(page, 'carol', 'carols-password');
    await page.getByRole('heading', { name: 'Use cases' }).waitFor();
    // The heading may show before the list's request has reached the service.
    const requests = () => listed.received.filter((r) => r.method !== 'OPTIONS');
    await expect.poll(() => requests().length).toBeGreaterThanOrEqual(2);
    expect(requests().map((r) => [`${r.method} ${r.path}`, r.authorization])).toEqual([
      ['POST /login', undefined],
      ['GET /problem', `Bearer ${recordingToken}`],
    ]);
    expect(JSON.parse(requests()[0]!.body)).toEqual({ username: 'carol', password: 'carols-password' });
    expect(JSON.stringify(listed.received)).not.toContain(alicesToken);
  });
});

describe.skipIf(!available)('a fresh tab opened at ?api=', () => {
  it('does not fill the service URL in: declined, the password goes to its own origin', async () => {
    const { context, page } = await freshTab();
    await page.goto(linkTo(listed.url));
    expect(await heading(page)).toBe('Use another service?');
    await page.getByRole('button', { name: `Stay with ${server.url}` }).click();
    expect(await page.getByLabel('Service URL').inputValue()).toBe(server.url);
    await logIn(page, 'alice', users.alice);
    await page.getByRole('link', { name: 'Maximum cut' }).waitFor();
    expect(listed.received).toEqual([]);
    await context.close();
  });
});

describe.skipIf(!available)("the dashboard's Content-Security-Policy", () => {
  it('lets the page reach its own origin and the services the server lists, and no other', async () => {
    const { context, page, violations } = await freshTab();
    await page.goto(`${server.url}/app/`);
    await page.getByLabel('Password').waitFor();
    const reach = (url: string) =>
      page.evaluate(
        (at) =>
          fetch(at).then(
            (r) => `${r.status}`,
            (e: Error) => e.name,
          ),
        url,
      );
    expect(await reach(`${server.url}/healthz`)).toBe('200');
    expect(await reach(`${listed.url}/healthz`)).toBe('404');
    expect(await reach(`${unlisted.url}/healthz`)).toBe('TypeError');
    expect(await violations()).toEqual([`connect-src ${unlisted.url}/healthz`]);
    expect(unlisted.received).toEqual([]);
    await context.close();
  });

  it('keeps a password from a service it does not list, even one the user confirmed, and says why', async () => {
    const { context, page } = await freshTab();
    await page.goto(linkTo(unlisted.url));
    await page.getByRole('button', { name: `Use ${unlisted.url}` }).click();
    await logIn(page, 'alice', users.alice);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('JES_DASHBOARD_ORIGINS');
    expect(unlisted.received).toEqual([]);
    await context.close();
  });
});
