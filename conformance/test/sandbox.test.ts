// The suite (profile sandbox) against the sandbox: it passes, and each check a stateless mock cannot pass
// is skipped with its reason; the parts left out of the checks that run are named too.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runConformance } from '../src/index.ts';
import { printed, type Started, startSandboxTarget } from './support/targets.ts';

let sandbox: Started;
beforeAll(async () => {
  sandbox = await startSandboxTarget();
});
afterAll(() => sandbox?.stop());

it('passes against the sandbox with its skips explained', async () => {
  const report = await runConformance({
    baseUrl: sandbox.url,
    username: 'anyone',
    password: 'any-password',
    profile: 'sandbox',
  });
  console.log(printed(report));
  expect(report.failed, printed(report)).toBe(0);
  const skipped = report.results.filter((r) => r.status === 'skipped');
  expect(skipped.map((r) => r.name)).toEqual([
    'use_after_free',
    'ignored_auth',
    'qubo_semantics',
    'isolation',
    'idempotency',
    'job_deletion',
  ]);
  for (const r of skipped) expect(r.reason).toMatch(/sandbox/);
  const lifecycle = report.results.find((r) => r.name === 'lifecycle')!;
  expect(lifecycle.notes.join('\n')).toMatch(/skipped in the sandbox profile: cancelling a running job/);
});

it('fails the profile full against the sandbox: a mock is not a deployment', async () => {
  const report = await runConformance({
    baseUrl: sandbox.url,
    username: 'anyone',
    password: 'any-password',
    profile: 'full',
    only: ['ignored_auth', 'use_after_free'],
  });
  expect(report.results.map((r) => [r.name, r.status])).toEqual([
    ['use_after_free', 'failed'],
    ['ignored_auth', 'failed'],
  ]);
});
