// The checks can fail: against a proxy that breaks one behaviour of the real reference server, the suite
// fails the check that behaviour breaks (and the same proxy breaking nothing passes them all).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkNames, type ConformanceOptions, type Report, runConformance } from '../src/index.ts';
import { type Breakage, startBrokenProxy } from './support/broken-proxy.ts';
import { brokenBehaviours } from './support/breakages.ts';
import { credentials, printed, type Started, startReference } from './support/targets.ts';

let server: Started;
beforeAll(async () => {
  server = await startReference();
});
afterAll(() => server?.stop());

async function runThrough(breakage: Breakage, options: Partial<ConformanceOptions> = {}): Promise<Report> {
  const proxy = await startBrokenProxy(server.url, breakage);
  try {
    return await runConformance({ baseUrl: proxy.url, ...credentials, runs: 4, ...options });
  } finally {
    await proxy.close();
  }
}

describe.concurrent('a deployment that', () => {
  it('breaks nothing (the proxy alone) passes every check', async () => {
    const report = await runThrough({});
    expect(report.failed, printed(report)).toBe(0);
  });

  it.each(brokenBehaviours)('$what fails $check', async ({ check, message, breakage }) => {
    const report = await runThrough(breakage, { only: [check] });
    const result = report.results.find((r) => r.name === check)!;
    expect(result.status, printed(report)).toBe('failed');
    expect(result.failures.map((f) => f.message).join('\n'), printed(report)).toMatch(message);
    expect(result.failures.some((f) => f.exchange), 'a failure carries the request that broke it').toBe(true);
  });

  it('breaks every check at least once above', () => {
    const broken = new Set(brokenBehaviours.map((b) => b.check));
    expect(checkNames().filter((name) => !broken.has(name))).toEqual([]);
  });
});
