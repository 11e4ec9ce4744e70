// The dashboard live on the event streams, in headless Chromium (Debian's package, driven by playwright-core) with
// its Content-Security-Policy in force, through CORS: the page is served from http://localhost:<port> and talks to the
// service at http://127.0.0.1:<port>, another origin to the browser (one reference server under two names, to start
// one: JES_CORS_ORIGINS names the page's origin, JES_DASHBOARD_ORIGINS the service's). A job
// whose page opens after it ended shows its whole best-value curve against the seconds since the job started running;
// a running job's page takes its points and its end from the job's stream, with no long poll; the jobs list follows
// GET /events, with no long poll either, and no longer misses a change made between its first read and the stream's
// opening (the PENDING race its long polls had). Screenshots at a phone's width and a desktop's go to
// test-results/dashboard-live/ (look at them).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Running } from '../../server/src/start/main.ts';
import { Client, startTestServer, users } from '../../server/test/support/server.ts';
import { root } from '../../scripts/generated.ts';
import { freePort } from '../support/child-server.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';
import { chartValues, overflow, rowsOf, tablesOf } from './page-checks.ts';

const available = !chromiumMissing('the dashboard live test');
const shots = join(root, 'test-results', 'dashboard-live');

/** A 400-node graph, 5 % of its pairs joined: local search keeps finding better cuts for a few seconds. */
function graph(nodes = 400) {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const adj_matrix = Array.from({ length: nodes }, () => Array<number>(nodes).fill(0));
  for (let i = 0; i < nodes; i++)
    for (let j = i + 1; j < nodes; j++)
      if (random() < 0.05) adj_matrix[i]![j] = adj_matrix[j]![i] = 1 + Math.floor(random() * 9);
  return { num_nodes: nodes, adj_matrix };
}
const input = graph();

let browser: Browser;
let server: Running;
/** Where the page is served from: the server under the name `localhost`. */
let site: string;
/** The service the page talks to: the same server as 127.0.0.1, another origin to the browser (CORS applies). */
let service: string;
let api: Client;
beforeAll(async () => {
  if (!available) return;
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  // One server, two origins: it lets pages of the one call it (JES_CORS_ORIGINS), and its dashboard reach the other.
  const port = await freePort();
  site = `http://localhost:${port}`;
  service = `http://127.0.0.1:${port}`;
  [browser, server] = await Promise.all([
    launchChromium(),
    startTestServer({ PORT: String(port), JES_CORS_ORIGINS: site, JES_DASHBOARD_ORIGINS: service }),
  ]);
  api = await new Client(server.url).login('alice');
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function start(query: string): Promise<string> {
  const started = await api.request('POST', `/problem/maxcut?${query}`, { json: input });
  expect(started.status).toBe(200);
  return started.body.job;
}

/** The job as GET /job/{job_id} gives it, once it has ended. */
async function ended(id: string): Promise<any> {
  for (;;) {
    const read = await api.request('GET', `/job/${id}`, { headers: { prefer: 'wait=30' } });
    const job = read.body.job[id];
    if (['FINISHED', 'ERROR', 'CANCELLED'].includes(job.status)) return job;
  }
}

/** What the page asked the service: its long polls (Prefer: wait), its streams, its plain reads of a job. */
interface Asked {
  longPolls: string[];
  streams: string[];
  reads: string[];
  /** The Origin header of the streams' requests: a browser sends it on a cross-origin request. */
  origins: Set<string | undefined>;
}

/** A tab logged in to the service through the page's origin, recording what it asks and what goes wrong. */
async function tab(): Promise<{ context: BrowserContext; page: Page; asked: Asked; trouble: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const asked: Asked = { longPolls: [], streams: [], reads: [], origins: new Set() };
  const trouble: string[] = [];
  page.on('request', (request: Request) => {
    const url = request.url();
    if (!url.startsWith(service) || request.method() !== 'GET') return;
    const path = url.slice(service.length);
    if (/wait=/.test(request.headers().prefer ?? '')) asked.longPolls.push(path);
    else if (/^\/(job\/[^/?]+\/)?events\b/.test(path)) {
      asked.streams.push(path);
      // The headers as sent (headers() gives those the page set; the browser adds Origin).
      void request.allHeaders().then((sent) => asked.origins.add(sent.origin));
    } else if (/^\/job\/[^/?]+$/.test(path)) asked.reads.push(path);
  });
  page.on('console', (m) => m.type() === 'error' && trouble.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => trouble.push(`script error: ${e.message}`));
  page.on('response', (r) => r.status() >= 400 && trouble.push(`${r.status()} for ${r.url()}`));
  await page.goto(`${site}/app/?api=${encodeURIComponent(service)}`);
  await page.getByRole('button', { name: `Use ${service}` }).click();
  await page.getByLabel('Username').fill('alice');
  await page.getByLabel('Password').fill(users.alice);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('link', { name: 'Maximum cut' }).waitFor();
  return { context, page, asked, trouble };
}

/** Screenshots at a phone's width and a desktop's, and nothing wider than the window. */
async function look(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
    // The chart on its own, at its size on the screen, to look at closely.
    const chart = page.locator('figure.progress');
    if ((await chart.count()) > 0) await chart.screenshot({ path: join(shots, `${name}-${width}-chart.png`) });
    expect(await overflow(page), `what overflows ${name} at ${width} px`).toEqual([]);
  }
}

/** The chart's points as the page's table of values gives them, of one solver. */
async function points(page: Page, solver: string) {
  const [values] = await tablesOf(page, 'table.values');
  return chartValues(values!).filter(([s]) => s === solver);
}

const ms = (iso: string) => Date.parse(iso);

describe.skipIf(!available)('the dashboard live, through CORS from another origin', () => {
  let page: Page;
  let asked: Asked;
  let trouble: string[];
  let context: BrowserContext;
  beforeAll(async () => {
    ({ context, page, asked, trouble } = await tab());
  });
  afterAll(() => context?.close());

  it('shows a job that ended before its page opened with its whole curve, against the seconds since the job started', async () => {
    const id = await start('solver=local-search&solver=annealing&time_limit_seconds=1');
    const job = await ended(id);
    asked.longPolls.length = asked.streams.length = 0;
    await page.goto(`${site}/app/#/jobs/${id}`);
    await expect.poll(() => page.getByTestId('job-status').textContent()).toBe('FINISHED');
    await page.locator('table.values').waitFor({ state: 'attached' });
    // Each solver's history whole, each point at the seconds since the job started running and since the solver
    // did, then its last value held to its end: not one dot at the seconds since the page opened.
    for (const [solver, e] of Object.entries<any>(job.executions)) {
      const offset = Math.round(ms(e.timestamps.running) - ms(job.timestamps.running)) / 1000;
      // Its history, and its answer's value at its time_to_best_seconds: the history's last point where the service
      // recorded it (a value found in the solver's last moments was once in the answer only), a moment each.
      const answer = { seconds: e.data.time_to_best_seconds, best_value: e.best_value };
      const history = [...new Map([...e.progress_history, answer].map((p: any) => [p.seconds, p])).values()]
        .sort((p: any, q: any) => p.seconds - q.seconds)
        .filter((p: any, i, all: any[]) => i === 0 || p.best_value !== all[i - 1].best_value) as {
        seconds: number;
        best_value: number;
      }[];
      expect(history.length, `${solver}'s history`).toBeGreaterThan(0);
      const at = (seconds: number) => Math.round((offset + seconds) * 1000) / 1000;
      const expected = history.map((p) => [solver, at(p.seconds), p.seconds, p.best_value.toLocaleString('en-US')]);
      if (e.duration_seconds > history.at(-1)!.seconds)
        expected.push([solver, at(e.duration_seconds), e.duration_seconds, e.best_value.toLocaleString('en-US')]);
      expect(await points(page, solver)).toEqual(expected);
    }
    // The axis says what the seconds are; so do the figure's text alternative and its caption.
    expect(await page.locator('.chart').getAttribute('aria-label')).toContain('seconds since the job started running');
    expect(await page.locator('figure.progress figcaption').textContent()).toContain(
      'Seconds since the job started running',
    );
    expect(await page.locator('table.values thead th').allTextContents()).toEqual([
      'Since the job started (s)',
      'Since the solver started (s)',
      'Best value',
    ]);
    // An ended job is read once: no stream, no long poll.
    expect(asked.streams).toEqual([]);
    expect(asked.longPolls).toEqual([]);
    await page.locator('figure.progress details summary').click();
    await look(page, '1-job-ended');
  });

  it('follows a running job on its stream: points while it runs, and its end, with no long poll', async () => {
    const id = await start('solver=local-search&time_limit_seconds=4');
    asked.longPolls.length = asked.streams.length = asked.reads.length = 0;
    await page.goto(`${site}/app/#/jobs/${id}`);
    await expect.poll(() => page.getByTestId('live').getAttribute('data-live')).toBe('stream');
    // Points come while the job runs (its first read had none or few): from the stream's progress events.
    const first = (await points(page, 'local-search')).length;
    await expect
      .poll(
        async () => {
          const status = await page.getByTestId('job-status').textContent();
          return status === 'RUNNING' && (await points(page, 'local-search')).length > first;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await look(page, '2-job-running');
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 30_000 }).toBe('FINISHED');
    expect(asked.longPolls).toEqual([]);
    expect(asked.streams).toEqual([`/job/${id}/events`]);
    // Through CORS: the page's origin asked another.
    expect([...asked.origins]).toEqual([site]);
    // Reads of the job: the first, and one after some of the changes of status the stream told of; not one a second.
    expect(asked.reads.length).toBeLessThanOrEqual(6);
    // The end carries the job as it ended: the chart is its whole history, as a page opened now would show it.
    const job = await ended(id);
    const e = job.executions['local-search'];
    const shown = await points(page, 'local-search');
    expect(shown.map(([, , seconds]) => seconds)).toEqual(
      expect.arrayContaining(e.progress_history.map((p: any) => p.seconds)),
    );
    expect(shown.at(-1)?.[2]).toBe(e.duration_seconds);
    expect(trouble).toEqual([]);
  });

  it('lists jobs live from GET /events: a job started elsewhere appears, runs and ends, with no long poll', async () => {
    await page.goto(`${site}/app/#/jobs`);
    await expect.poll(() => page.getByTestId('live').getAttribute('data-live')).toBe('stream');
    asked.longPolls.length = 0;
    const id = await start('solver=local-search&time_limit_seconds=120');
    const row = () => rowsOf(page, 'table.jobs').then((rows) => rows.find((r) => r.startsWith(id)) ?? '');
    await expect.poll(row, { timeout: 10_000 }).toContain('RUNNING');
    await look(page, '3-jobs-live');
    await api.request('POST', `/job/${id}/cancel`);
    await expect.poll(row, { timeout: 10_000 }).toContain('CANCELLED');
    expect(asked.longPolls).toEqual([]);
    expect(trouble).toEqual([]);
  });

  // Regression: the jobs list long-polled the jobs it showed not ended; a job read PENDING that turned RUNNING before
  // its poll arrived was shown PENDING for the poll's 30 s (the wait is for a change from the status at arrival). On
  // the stream the same race is a change between the list's read and the stream's opening, which GET /events (from
  // the moment it opens) does not tell: the page reads the list again once the stream is open. Here the list's first
  // read shows the job PENDING (as a read made a moment earlier would), and the stream opens only once it runs.
  it('shows RUNNING a job that started between the list read and the opening of the stream', async () => {
    const id = await start('solver=local-search&time_limit_seconds=120');
    await expect.poll(async () => (await api.request('GET', `/job/${id}`)).body.job[id].status).toBe('RUNNING');
    await page.goto(`${site}/app/#/use-cases`);
    let held = false;
    await page.route(`${service}/job?*`, async (route) => {
      if (held) return route.fallback();
      held = true;
      const response = await route.fetch();
      const body = await response.json();
      body.job[id].status = 'PENDING';
      await route.fulfill({ response, json: body });
    });
    await page.route(`${service}/events`, async (route) => {
      // Opened once the first read has been answered.
      await expect.poll(() => held).toBe(true);
      await route.fallback();
    });
    await page.goto(`${site}/app/#/jobs`);
    const row = () => rowsOf(page, 'table.jobs').then((rows) => rows.find((r) => r.startsWith(id)) ?? '');
    await expect.poll(row, { timeout: 5_000 }).toContain('RUNNING');
    expect(held, 'the first read was answered PENDING').toBe(true);
    await page.unrouteAll();
    await api.request('POST', `/job/${id}/cancel`);
    expect(trouble).toEqual([]);
  });
});
