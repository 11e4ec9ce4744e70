// Checks of a team's own: modules that are not checks are refused with one line naming the module (missing, exporting
// none, a name not snake_case or taken, an operation the contract lacks), by loadChecks, runConformance and the
// command; a package is found as an import finds it; the command loads .mjs and .ts modules, lists their checks marked with their module, and a check that
// throws is a failure of its own while the run goes on. A team's check failing against a broken deployment is in the
// broken-proxy table (support/breakages.ts), and the README's example is run from the packed tarball
// (test/packages).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Check, checkNames, loadChecks, runConformance } from '../src/index.ts';
import { closingChecks } from '../src/checks/registry.ts';
import { conformance } from './support/command.ts';
import { credentials, type Started, startSandboxTarget } from './support/targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'jes-own-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const teamChecks = join(import.meta.dirname, 'support/team-checks.mjs');
/** A module in `dir` holding `text`; its path. */
function module(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}
const check = (name: string, operations = '["getJob"]') =>
  `{ name: ${JSON.stringify(name)}, description: 'A check.', operations: ${operations}, async run() {} }`;

describe('a module that is not a module of checks is refused in one line naming it', () => {
  it.each([
    ['missing', () => join(dir, 'missing.mjs'), /^\/.*missing\.mjs: no such file \(/],
    ['exporting no checks', () => module('none.mjs', 'export const answer = 42;\n'), /none\.mjs exports no checks/],
    ['not importable', () => module('broken.mjs', 'export const checks = [\n'), /broken\.mjs: importing it failed: /],
  ])('%s', async (_, path, message) => {
    const error = await loadChecks([path()]).catch((e: Error) => e);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it.each([
    [
      'a built-in name',
      'lifecycle',
      '["getJob"]',
      /clash\.mjs: the check "lifecycle" takes the name of a built-in check$/,
    ],
    [
      'a name not snake_case',
      'BusinessRule',
      '["getJob"]',
      /clash\.mjs: the check "BusinessRule": its name is not snake_case/,
    ],
    [
      'an operation the contract lacks',
      'business_rule',
      '["getjob"]',
      /clash\.mjs: the check "business_rule": its operations name getjob \(did you mean getJob\?\), which the contract does not have$/,
    ],
  ])('a check with %s', async (_, name, operations, message) => {
    const loaded = await loadChecks([module(`${name}/clash.mjs`, `export default ${check(name, operations)};\n`)]);
    // Refused before any request: the base URL is never asked.
    const error = await runConformance({ baseUrl: 'http://127.0.0.1:9', username: 'u', password: 'p', checks: loaded })
      .then(() => undefined)
      .catch((e: Error) => e.message);
    expect(error).toMatch(message);
  });

  it('two modules with a check of one name', async () => {
    const first = module('first.mjs', `export const checks = [${check('business_rule')}];\n`);
    const second = module('second.mjs', `export default [${check('business_rule')}];\n`);
    const loaded = await loadChecks([relative(process.cwd(), first), relative(process.cwd(), second)]);
    const error = await runConformance({ baseUrl: 'http://127.0.0.1:9', username: 'u', password: 'p', checks: loaded })
      .then(() => undefined)
      .catch((e: Error) => e.message);
    expect(error).toBe(
      `${relative(process.cwd(), second)}: the check "business_rule" takes the name of a check of ${relative(process.cwd(), first)}`,
    );
  });

  it('by the command: exit 2, one line on stderr', async () => {
    const ran = await conformance(['--list', '--checks', './no-such-checks.mjs']);
    expect(ran).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ./no-such-checks.mjs: no such file (${join(process.cwd(), 'no-such-checks.mjs')})\n`,
    });
  });
});

it('the command loads .mjs and .ts modules, and --list marks their checks with the module, before the closing checks (terminal_states, the response checks)', async () => {
  const typed = module(
    'typed-checks.ts',
    [
      "import type { Check } from '@jes/conformance';",
      `const check: Check = ${check('typed_rule', '["listJobs"]')};`,
      'export default check;',
      '',
    ].join('\n'),
  );
  const listed = await conformance(['--list', '--checks', teamChecks, '--checks', typed]);
  expect(listed.stderr).toBe('');
  const lines = listed.stdout.trim().split('\n');
  const names = lines.map((line) => line.split(' ')[0]);
  const closing = closingChecks.map((c) => c.name);
  expect(names).toEqual([...checkNames().slice(0, -closing.length), 'maxcut_half_weight', 'typed_rule', ...closing]);
  expect(lines.find((l) => l.startsWith('maxcut_half_weight'))).toMatch(/ \(from .*support\/team-checks\.mjs\)$/);
  expect(lines.find((l) => l.startsWith('typed_rule'))).toMatch(/^typed_rule +A check\. \(from .*typed-checks\.ts\)$/);
});

it('a package name is found from the folder as an import there finds it (an exports map of import alone too)', async () => {
  module(
    'project/node_modules/@team/checks/package.json',
    JSON.stringify({ name: '@team/checks', type: 'module', exports: { '.': { import: './index.js' } } }),
  );
  module('project/node_modules/@team/checks/index.js', `export default ${check('from_a_package')};\n`);
  const [loaded] = await loadChecks(['@team/checks'], join(dir, 'project'));
  expect(loaded?.name).toBe('from_a_package');
  const missing = await loadChecks(['@team/other'], join(dir, 'project')).catch((e: Error) => e.message);
  expect(missing).toBe(`@team/other: no such file or package (from ${join(dir, 'project')})`);
});

describe('against the stateful sandbox', () => {
  let sandbox: Started;
  beforeAll(async () => {
    sandbox = await startSandboxTarget({ seed: 1 });
  });
  afterAll(() => sandbox?.stop());

  it('a check that throws fails, saying the check itself failed, and the run goes on', async () => {
    const throws: Check = {
      name: 'throws_midway',
      description: 'Reads the use cases, then throws.',
      operations: ['listProblems'],
      async run(ctx) {
        await ctx.send({ method: 'GET', path: '/problem' });
        throw new TypeError('a bug in the check');
      },
    };
    const report = await runConformance({
      baseUrl: sandbox.url,
      ...credentials,
      checks: [throws],
      only: ['throws_midway', 'not_a_server_error'],
    });
    expect(report.results.map((r) => [r.name, r.status, r.requests])).toEqual([
      ['throws_midway', 'failed', 1],
      ['not_a_server_error', 'passed', expect.any(Number)],
    ]);
    expect(report.results[0]!.failures[0]!.message).toMatch(
      /^the check itself failed: TypeError: a bug in the check\n/,
    );
  });
});
