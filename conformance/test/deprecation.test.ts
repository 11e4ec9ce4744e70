// The suite holds a deployment to the contract's deprecations (issue 29): every answer of a deprecated operation
// carries Deprecation (RFC 9745) and Sunset (RFC 8594) as the contract dates them, else response_headers_conformance
// fails; and the run says which deprecated operations it used, on the console, in JUnit and in markdown. No
// operation of the contract is deprecated yet, so the suite is held to a copy that deprecates listProblems: the
// sandbox mocking that copy passes; the reference server (whose contract deprecates nothing) and a proxy in front
// of it that sends the headers wrong fail.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/src/server.ts';
import { deprecatedContract, deprecation } from '../../test/support/deprecated-contract.ts';
import { deprecatedUsed } from '../src/coverage.ts';
import { type Report, runConformance } from '../src/index.ts';
import { deprecatedLine } from '../src/report/console.ts';
import { type Breakage, startBrokenProxy } from './support/broken-proxy.ts';
import { conformance } from './support/command.ts';
import { credentials, printed, type Started, startReference } from './support/targets.ts';

const contractPath = deprecatedContract();
const check = 'response_headers_conformance';
const used = `listProblems (GET /problem, deprecated since ${deprecation.at}, sunset ${deprecation.sunset})`;

describe('the sandbox mocking a contract that deprecates listProblems', () => {
  let sandbox: Started;
  beforeAll(async () => {
    const started = await startSandbox({ contractPath, stateless: true });
    sandbox = { url: started.url, stop: () => started.close() };
  });
  afterAll(() => sandbox?.stop());

  it('passes, and the run says it used listProblems: on the console, in JUnit and in markdown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jes-conformance-deprecation-'));
    const run = await conformance([
      ...['--base-url', sandbox.url, '--profile', 'sandbox', '--contract', contractPath, '--only', check],
      ...['--junit', join(dir, 'junit.xml'), '--report', join(dir, 'report.md')],
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(-2)).toEqual([`deprecated operations used: ${used}`, '1 passed, 0 failed, 0 skipped']);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(
      '<property name="deprecated_operations_used" value="listProblems"/>',
    );
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(`\n\nDeprecated operations used: ${used}.\n`);
  });

  it('says none when the run did not use it', async () => {
    const report = await runConformance({
      baseUrl: sandbox.url,
      username: 'anyone',
      password: 'any-password',
      profile: 'sandbox',
      contractPath,
      only: ['unsupported_method'],
    });
    expect(report.failed, printed(report)).toBe(0);
    expect(deprecatedUsed(report.coverage)).toEqual([]);
    expect(deprecatedLine(report.coverage)).toBe('deprecated operations used: none');
  });
});

describe('a deployment held to a contract that deprecates listProblems', () => {
  let reference: Started;
  beforeAll(async () => {
    reference = await startReference();
  });
  afterAll(() => reference?.stop());

  async function run(breakage?: Breakage): Promise<Report> {
    const proxy = breakage ? await startBrokenProxy(reference.url, breakage) : undefined;
    try {
      return await runConformance({
        baseUrl: proxy?.url ?? reference.url,
        ...credentials,
        contractPath,
        only: [check],
      });
    } finally {
      await proxy?.close();
    }
  }

  /** The failures of the one check, each once. */
  const failures = (report: Report) => [
    ...new Set(report.results[0]!.failures.map((f) => f.message.replace(/^.*?→ \d+: /, ''))),
  ];

  it('fails when its answers carry neither header (the reference server: its contract deprecates nothing)', async () => {
    const report = await run();
    expect(report.results[0]!.status, printed(report)).toBe('failed');
    expect(failures(report)).toEqual([
      `the contract deprecates listProblems since ${deprecation.at}, but Deprecation is missing (RFC 9745: expected ${deprecation.headers.deprecation})`,
      `the contract sets listProblems's sunset on ${deprecation.sunset}, but Sunset is missing (RFC 8594: expected ${deprecation.headers.sunset})`,
    ]);
    expect(report.results[0]!.failures[0]!.exchange?.request.url).toMatch(/\/problem$/);
  });

  it("fails when they are wrong: the drafts' Deprecation: true, a Sunset a day late", async () => {
    const report = await run({
      response: (request, answer) =>
        request.url.split('?')[0] === deprecation.path && request.method === 'GET'
          ? { ...answer, headers: { ...answer.headers, deprecation: 'true', sunset: 'Wed, 02 Jun 2027 00:00:00 GMT' } }
          : answer,
    });
    expect(failures(report)).toEqual([
      `Deprecation is "true"; the contract deprecates listProblems since ${deprecation.at}: expected ${deprecation.headers.deprecation} (RFC 9745)`,
      `Sunset is "Wed, 02 Jun 2027 00:00:00 GMT"; the contract sets listProblems's sunset on ${deprecation.sunset}: expected ${deprecation.headers.sunset} (RFC 8594)`,
    ]);
  });

  it('passes when they are right, in another form of the same HTTP-date', async () => {
    const report = await run({
      response: (request, answer) =>
        request.url.split('?')[0] === deprecation.path && request.method === 'GET'
          ? {
              ...answer,
              headers: {
                ...answer.headers,
                deprecation: deprecation.headers.deprecation,
                sunset: 'Tuesday, 01-Jun-27 00:00:00 GMT',
              },
            }
          : answer,
    });
    expect(report.results[0]!.status, printed(report)).toBe('passed');
  });
});
