// The suite (profile full) against the reference server on the embedded database (PGlite): every check
// runs and passes, a second user and the webhook checks included (the suite's listener on the loopback, which
// the server is told it may call).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkNames, runConformance } from '../src/index.ts';
import { credentials, printed, type Started, startReference, webhookHosts, webhookListen } from './support/targets.ts';

let server: Started;
beforeAll(async () => {
  server = await startReference(webhookHosts);
});
afterAll(() => server?.stop());

// A whole run with the webhook checks' retry wait (5 s) and the streams' followed job: 36 to 45 s on a quiet machine,
// 57 s at a load average of 20, so it is given twice the default.
it('passes every check against the reference server on PGlite', { timeout: 120_000 }, async () => {
  const report = await runConformance({ baseUrl: server.url, ...credentials, ...webhookListen, profile: 'full' });
  console.log(printed(report));
  expect(report.failed, printed(report)).toBe(0);
  expect(report.results.map((r) => [r.name, r.status])).toEqual(checkNames().map((name) => [name, 'passed']));
});
