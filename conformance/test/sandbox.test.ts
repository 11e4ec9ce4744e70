// The suite against the sandbox. Stateful (its default), the sandbox keeps what a deployment keeps, so the full
// profile passes whole, every check run. Stateless (--stateless), the sandbox profile passes, and each check a
// stateless mock cannot pass is skipped with its reason; the parts left out of the checks that run are named too;
// the full profile fails there, as it must against a mock that takes any token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.ts';
import { printed, type Started, startSandboxTarget, webhookListen } from './support/targets.ts';

describe('the stateful sandbox', () => {
  let sandbox: Started;
  beforeAll(async () => {
    sandbox = await startSandboxTarget({});
  });
  afterAll(() => sandbox?.stop());

  it('passes the full profile, every check run', async () => {
    const report = await runConformance({
      baseUrl: sandbox.url,
      username: 'anyone',
      password: 'any-password',
      username2: 'someone-else',
      password2: 'another-password',
      profile: 'full',
      // The sandbox calls this machine's loopback by default: the webhook checks run too.
      ...webhookListen,
    });
    console.log(printed(report));
    expect(report.failed, printed(report)).toBe(0);
    expect(report.results.filter((r) => r.status === 'skipped').map((r) => [r.name, r.reason])).toEqual([]);
    expect(report.results.filter((r) => r.status === 'passed')).toHaveLength(report.results.length);
  });
});

describe('the stateless sandbox', () => {
  let sandbox: Started;
  beforeAll(async () => {
    sandbox = await startSandboxTarget({ stateless: true });
  });
  afterAll(() => sandbox?.stop());

  it('passes the sandbox profile with its skips explained', async () => {
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
      'job_events',
      'job_events_resume',
      'user_events',
      'webhook_delivery',
      'webhook_retry',
      'terminal_states',
    ]);
    for (const r of skipped) expect(r.reason).toMatch(/sandbox/);
    const lifecycle = report.results.find((r) => r.name === 'lifecycle')!;
    expect(lifecycle.notes.join('\n')).toMatch(/skipped in the sandbox profile: cancelling a running job/);
  });

  it('fails the profile full: a mock is not a deployment', async () => {
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
});
