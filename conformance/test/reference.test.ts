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

it('passes every check against the reference server on PGlite', async () => {
  const report = await runConformance({ baseUrl: server.url, ...credentials, ...webhookListen, profile: 'full' });
  console.log(printed(report));
  expect(report.failed, printed(report)).toBe(0);
  expect(report.results.map((r) => [r.name, r.status])).toEqual(checkNames().map((name) => [name, 'passed']));
});
